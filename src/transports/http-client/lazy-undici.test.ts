import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modulesLoadedBy } from '../../test-support/loaded-modules.js';

// undici (about 95 modules) loads with the first request that needs the shared Agent, not
// when `mcpkit/http-client` or `mcpkit/host` is imported.
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
