import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';

// undici (about 95 modules) loads with the first request that needs the shared Agent, not
// when `mcpkit/http-client` or `mcpkit/host` is imported.
const trace = fileURLToPath(new URL('../../test-support/module-trace.js', import.meta.url));
const dist = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-undici-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
function modulesLoadedBy(code: string): string[] {
  const file = join(dir, `trace-${++runs}.txt`);
  const r = spawnSync(process.execPath, ['--import', trace, '--input-type=module', '-e', code], {
    encoding: 'utf8',
    cwd: dist,
    timeout: 30_000,
    env: { ...process.env, MODULE_TRACE_FILE: file },
  });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(file, 'utf8').split('\n');
}

const undici = (modules: string[]): string[] => modules.filter((m) => m.includes('/node_modules/undici/'));

describe('undici loads on first use', () => {
  test('importing mcpkit/http-client (node) or mcpkit/host loads no undici', () => {
    assert.deepEqual(undici(modulesLoadedBy("await import('./transports/http-client/node.js');")), []);
    assert.deepEqual(undici(modulesLoadedBy("await import('./host/index.js');")), []);
  });

  test('the first request through the default requester loads it and is answered', () => {
    const code = `
      import { createServer } from 'node:http';
      const { undiciRequester, Cancel } = await import('./transports/http-client/node.js');
      const server = createServer((req, res) => res.end('pong'));
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      const url = new URL('http://127.0.0.1:' + server.address().port + '/');
      const reply = await undiciRequester()({ url, method: 'GET', headers: {}, cancel: new Cancel() });
      const body = new TextDecoder().decode(await reply.bytes(100));
      if (reply.status !== 200 || body !== 'pong') throw new Error('bad reply');
      server.close();
      process.exit(0);`;
    assert.ok(undici(modulesLoadedBy(code)).length > 0);
  });
});
