import { describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { Confirmations } from './confirmations.js';
import { settle } from '../../test-support/waiting.js';

/** Whether `p` has settled by now. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await settle();
  return done;
}

describe('Confirmations (a node waiting for others to take in its change)', () => {
  test('a wait ends once every node named has confirmed, not before; other confirmations change nothing', async () => {
    const c = new Confirmations();
    const { key, confirmed } = c.expect(['a', 'b'], 60_000);
    const other = c.expect(['a'], 60_000);
    c.confirm(key, 'a');
    c.confirm(key, 'a');
    c.confirm(key, 'z');
    c.confirm(key + 99, 'b');
    assert.equal(await settled(confirmed), false, 'b has not confirmed');
    c.confirm(key, 'b');
    assert.equal(await settled(confirmed), true);
    assert.equal(await settled(other.confirmed), false, 'each wait counts its own confirmations');
    c.close();
    assert.equal(await settled(other.confirmed), true, 'close ends every wait');
  });

  test('a node that never confirms costs the wait its time, no more', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const c = new Confirmations();
      const silent = c.expect(['a'], 1000);
      const nobody = c.expect([], 500);
      mock.timers.tick(499);
      assert.equal(await settled(nobody.confirmed), false);
      mock.timers.tick(1);
      assert.equal(await settled(nobody.confirmed), true, 'no node named: just the time');
      assert.equal(await settled(silent.confirmed), false);
      mock.timers.tick(500);
      assert.equal(await settled(silent.confirmed), true);
      c.confirm(silent.key, 'a'); // Late: nothing left to end.
    } finally {
      mock.timers.reset();
    }
  });
});
