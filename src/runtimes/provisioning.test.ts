/**
 * Installing the runtimes (scripts/runtimes.mjs) when it cannot be done: the error names the
 * runtime, the npm package and why, on one line; a runtime test skips with that line as its
 * reason, and fails instead under MCPKIT_REQUIRE_SERVICES=1 (CI), where nothing may skip
 * unnoticed. The registry is a closed port on 127.0.0.1 and the cache an empty folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cache = mkdtempSync(join(tmpdir(), 'mcpkit-runtimes-test-'));
test.after(() => rmSync(cache, { recursive: true, force: true }));

/** Runs node with `args` from the repository, against a registry that refuses connections. */
function node(args: string[], env: Record<string, string> = {}): { status: number | null; out: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // CI's setting and the test runner's own are this test's to choose.
  delete childEnv.MCPKIT_REQUIRE_SERVICES;
  delete childEnv.NODE_TEST_CONTEXT;
  Object.assign(childEnv, {
    MCPKIT_RUNTIMES_DIR: cache,
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_fetch_retries: '0',
    ...env,
  });
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    env: childEnv,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('an install that fails says which runtime, which package and why, and leaves no folder behind', () => {
  const r = node(['scripts/runtimes.mjs', 'deno']);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /^Could not install deno \(npm install deno@2\): .*ECONNREFUSED.*$/m);
  assert.deepEqual(readdirSync(cache), [], 'no half-installed runtime');
});

test('an unknown runtime is refused with the list of known ones', () => {
  const r = node(['scripts/runtimes.mjs', 'rhino']);
  assert.notEqual(r.status, 0);
  assert.match(r.out, /Unknown runtime "rhino": expected one of node20, node22, node24, bun, deno, workerd/);
});

test('a runtime test skips when its runtime cannot be installed, and fails under MCPKIT_REQUIRE_SERVICES=1', () => {
  const file = 'dist/runtimes/bun.test.js';
  const skipped = node(['--test', '--test-reporter=spec', file]);
  assert.equal(skipped.status, 0, skipped.out);
  assert.match(skipped.out, /# needs Bun: Could not install bun \(npm install bun@1\): .*ECONNREFUSED/);
  assert.match(skipped.out, /skipped 2/);

  const required = node(['--test', '--test-reporter=spec', file], { MCPKIT_REQUIRE_SERVICES: '1' });
  assert.equal(required.status, 1, required.out);
  assert.match(required.out, /Could not install bun/);
});
