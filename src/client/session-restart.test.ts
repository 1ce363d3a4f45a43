import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from './client.js';
import { createEverythingServer } from '../demo/everything-server.js';
import { serve } from '../serve/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

test('a server that restarts on the same port and loses its sessions: the client re-initializes by itself', async () => {
  const first = await serve(createEverythingServer());
  const port = first.port;
  const transport = new StreamableHttpClientTransport({ url: first.url });
  const client = new Client({ name: 'restart', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(transport);
  const lost = transport.sessionId;
  assert.ok(lost);
  await client.callTool({ name: 'echo', arguments: { text: 'before' } });

  // A crash: every connection dropped, nothing said to the client, the state gone.
  first.httpServer.closeAllConnections();
  await new Promise<void>((resolve) => first.httpServer.close(() => resolve()));
  await using second = await serve(createEverythingServer(), { port });
  assert.equal(second.handler.sessionCount, 0);

  // Calls made while the client meets the 404 and sets up its new session may fail; one
  // must then succeed on the new server, in a new session.
  const failures: string[] = [];
  const again = await waitFor(
    () =>
      client.callTool({ name: 'echo', arguments: { text: 'after' } }).catch((e: Error) => {
        failures.push(e.message);
        return undefined;
      }),
    WAIT_MS,
    'a call to succeed in the new session',
  ).catch(() => undefined);
  assert.deepEqual(again?.content, [{ type: 'text', text: 'after' }], failures.join('\n'));
  assert.notEqual(transport.sessionId, lost);
  assert.equal(second.handler.sessionCount, 1);
  await client.close();
  await first.handler.close();
});
