import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from './client.js';
import { createEverythingServer } from '../demo/everything-server.js';
import { serve } from '../serve/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

test('a legacy HTTP session ended by the server (404) is re-initialized, and later calls work', async () => {
  await using running = await serve(createEverythingServer());
  const transport = new StreamableHttpClientTransport({ url: running.url });
  const client = new Client({ name: 'expiry', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(transport);
  const first = transport.sessionId;
  assert.ok(first);
  assert.equal(running.handler.sessionCount, 1);

  // Someone else ends the session: the server forgets it.
  const del = await fetch(running.url, { method: 'DELETE', headers: { 'mcp-session-id': first } });
  assert.equal(del.status, 200);
  assert.equal(running.handler.sessionCount, 0);

  // The next call meets the 404 and fails; the client then starts a new session by itself.
  await assert.rejects(client.callTool({ name: 'echo', arguments: { text: 'lost' } }));
  // The new session is being set up in the background; calls made meanwhile say so.
  const again = await waitFor(
    () =>
      client.callTool({ name: 'echo', arguments: { text: 'back' } }).catch((e: Error) => {
        assert.match(e.message, /still connecting|closed/);
        return undefined;
      }),
    WAIT_MS,
    'a call on the new session',
  );
  assert.notEqual(transport.sessionId, first);
  assert.deepEqual(again?.content, [{ type: 'text', text: 'back' }]);
  await client.close();
});
