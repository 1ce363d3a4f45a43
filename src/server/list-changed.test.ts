/**
 * Repeated list changes are coalesced: a burst of registrations is one `list_changed` per
 * kind, not one per registration, and a change after the burst is announced again.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEverythingServer } from '../demo/everything-server.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { TestClient } from '../test-support/mcp-harness.js';
import type { McpServer } from './server.js';
import { waitFor } from '../test-support/waiting.js';

const open: Array<{ server: McpServer; client: TestClient }> = [];
afterEach(async () => {
  for (const f of open.splice(0)) {
    f.client.tap.assertValid();
    await f.client.close();
    await f.server.close();
  }
});

describe('list_changed coalescing', () => {
  test('1,000 registrations in a burst: one tools/list_changed; a later change: one more', async () => {
    const server = createEverythingServer();
    const [clientSide, serverSide] = memoryPair();
    await server.connect(serverSide);
    const client = await openClient(clientSide, '2025-11-25');
    open.push({ server, client });
    const changes = (): number => client.tap.notifications('notifications/tools/list_changed').length;
    for (let i = 0; i < 1000; i++) server.tool({ name: `burst_${i}`, input: { type: 'object' } }, () => 'x');
    await waitFor(() => changes() === 1);
    // A barrier, not a sleep: the burst's one timer has fired, and anything sent before the
    // ping's answer has arrived by the time it does.
    await client.request('ping');
    assert.equal(changes(), 1, 'one notification for the burst');
    server.tool({ name: 'later', input: { type: 'object' } }, () => 'x');
    await waitFor(() => changes() === 2);
  });
});
