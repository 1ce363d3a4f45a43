import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners, setMaxListeners } from 'node:events';
import { ELICIT_FORM, connectedPair, createTestServer, text } from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import { settle } from '../test-support/waiting.js';

function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

describe('the client leaks nothing', () => {
  for (const era of ['legacy', 'modern'] as const) {
    test(`10,000 calls with one shared AbortSignal leave no listener, request or timer (${era})`, async () => {
      const { client } = await connectedPair({ era });
      const ac = new AbortController();
      const signal = ac.signal;
      setMaxListeners(2000, signal); // 1000 calls in flight at once
      const before = timers();
      for (let batch = 0; batch < 10; batch++) {
        const calls: Promise<unknown>[] = [];
        for (let i = 0; i < 1000; i++)
          calls.push(client.callTool({ name: 'echo', arguments: { text: String(i) } }, { signal }));
        await Promise.all(calls);
      }
      assert.equal(getEventListeners(signal, 'abort').length, 0);
      assert.equal(client.pendingCount, 0);
      await settle();
      assert.ok(timers() <= before, `timers grew from ${before} to ${timers()}`);
      await client.close();
    });
  }

  test('MRTR rounds, cached reads, timeouts and aborts with a shared signal leave nothing behind', async () => {
    const server = createTestServer();
    server.handle('tools/call', (params: Obj) =>
      params.inputResponses
        ? text('ok')
        : {
            resultType: 'input_required',
            inputRequests: { q: { method: 'elicitation/create', params: ELICIT_FORM } },
            requestState: 's',
          },
    );
    const { client } = await connectedPair(
      { era: 'modern', handlers: { elicitation: async () => ({ action: 'accept', content: {} }) } },
      server,
    );
    const ac = new AbortController();
    const signal = ac.signal;
    for (let i = 0; i < 500; i++) {
      await client.callTool({ name: 'q' }, { signal });
      await client.readResource({ uri: 'test://a' }, { signal });
    }
    assert.equal(getEventListeners(signal, 'abort').length, 0);
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('subscriptions opened and closed leave no request or listener (both eras)', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const server = createTestServer();
      const { client } = await connectedPair({ era }, server);
      const ac = new AbortController();
      for (let i = 0; i < 200; i++) {
        const sub = await client.subscribe({
          toolsListChanged: true,
          resources: ['test://a'],
          signal: ac.signal,
        });
        await sub.close();
      }
      await settle();
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
      assert.equal(client.pendingCount, 0, era);
      assert.equal(server.listens.size, 0);
      assert.equal(server.subscribed.size, 0);
      await client.close();
    }
  });
});
