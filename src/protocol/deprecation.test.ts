import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { silenceDeprecations, warnDeprecated } from './deprecation.js';

/** The deprecation warnings emitted while `run` runs (emitWarning delivers them on the next tick). */
async function warningsOf(run: () => void): Promise<Error[]> {
  const seen: Error[] = [];
  const on = (w: Error): void => void seen.push(w);
  process.on('warning', on);
  try {
    run();
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', on);
  }
  return seen.filter((w) => w.name === 'DeprecationWarning');
}

describe('warnDeprecated', () => {
  it('warns once per id, as a DeprecationWarning with a code', async () => {
    const first = once(process, 'warning');
    const seen = await warningsOf(() => {
      warnDeprecated('test-feature-a', 'use b instead');
      warnDeprecated('test-feature-a', 'use b instead');
      warnDeprecated('test-feature-c', 'use d instead');
    });
    const [w] = (await first) as [Error & { code?: string }];
    assert.equal(w.name, 'DeprecationWarning');
    assert.equal(w.code, 'MCPKIT_DEP_TEST_FEATURE_A');
    assert.match(w.message, /test-feature-a is deprecated: use b instead/);
    assert.deepEqual(
      seen.map((s) => s.message.split(' ')[1]),
      ['test-feature-a', 'test-feature-c'],
    );
  });

  it('is silenced by MCPKIT_NO_DEPRECATION=1', async () => {
    process.env.MCPKIT_NO_DEPRECATION = '1';
    try {
      assert.deepEqual(await warningsOf(() => warnDeprecated('test-feature-e', 'x')), []);
    } finally {
      delete process.env.MCPKIT_NO_DEPRECATION;
    }
  });

  it('is silenced by silenceDeprecations()', async () => {
    silenceDeprecations();
    assert.deepEqual(await warningsOf(() => warnDeprecated('test-feature-f', 'x')), []);
  });
});
