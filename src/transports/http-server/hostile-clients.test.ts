/**
 * Hostile HTTP clients, each with a bounded outcome: a GET stream nobody reads is dropped
 * at its buffer cap (and can be opened again), sessions that never did anything expire
 * quickly, a flood of sessions evicts the least recently used idle ones instead of locking
 * everyone out, per-client quotas, an in-flight cap and a batch cap answered with errors,
 * and a gone client's stream kept only for a bounded resume window.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { WATCHED_RESOURCE_URI } from '../../demo/everything-content.js';
import { createEverythingServer } from '../../demo/everything-server.js';
import { MemoryEventStore } from './event-store.js';
import { fetchHandler } from './fetch-adapter.js';
import {
  LEGACY,
  POST_HEADERS,
  errorCode,
  initializeRequest,
  openLegacySession,
  openStream,
  postJson,
  rpc,
  startEverything,
} from '../../test-support/http-server-harness.js';
import { WAIT_MS, turn, waitFor } from '../../test-support/waiting.js';

const inSession = (sid: string, version = LEGACY): Record<string, string> => ({
  'mcp-session-id': sid,
  'mcp-protocol-version': version,
});

/** Opens the session's GET stream on a raw socket and never reads from it. */
function unreadGet(port: number, sid: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.pause();
  socket.write(
    `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n` +
      `Mcp-Session-Id: ${sid}\r\nMcp-Protocol-Version: ${LEGACY}\r\n\r\n`,
  );
  return socket;
}

describe('hostile HTTP clients', () => {
  test('a GET stream that is never read is dropped at its buffer cap; the client may open it again', async () => {
    const g = await startEverything({ maxStreamBufferBytes: 256 << 10 });
    try {
      const sid = await openLegacySession(g.url);
      const sub = await postJson(
        g.url,
        rpc('resources/subscribe', { uri: WATCHED_RESOURCE_URI }),
        inSession(sid),
      );
      assert.equal(sub.status, 200);
      const reader = unreadGet(g.running.port, sid);
      try {
        // The GET is open once a second one is refused with 409.
        await waitFor(async () => (await postJsonGet(g.url, sid)) === 409, WAIT_MS, 'the GET stream open');
        const start = process.memoryUsage().heapUsed;
        let reopened = false;
        for (let round = 0; round < 60 && !reopened; round++) {
          for (let i = 0; i < 5000; i++) g.server.resourceUpdated(WATCHED_RESOURCE_URI);
          await turn(); // lets the socket writes of the burst happen
          reopened = (await postJsonGet(g.url, sid)) === 200;
        }
        assert.ok(reopened, 'the unread stream was dropped, so a new GET is accepted');
        const growth = process.memoryUsage().heapUsed - start;
        assert.ok(growth < 64 << 20, `heap grew ${(growth / 2 ** 20).toFixed(1)} MiB`);
      } finally {
        reader.destroy();
      }
    } finally {
      await g.close();
    }
  });

  test('the fetch binding: an unread GET stream is dropped at its cap too', async () => {
    const server = createEverythingServer();
    const { fetch: handle, handler } = fetchHandler(server, { maxStreamBufferBytes: 64 << 10 });
    const URL_ = 'http://127.0.0.1/mcp';
    const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
      handle(
        new Request(URL_, {
          method: 'POST',
          headers: { ...POST_HEADERS, ...headers },
          body: JSON.stringify(body),
        }),
      );
    const get = (sid: string): Promise<Response> =>
      handle(new Request(URL_, { headers: { accept: 'text/event-stream', ...inSession(sid) } }));
    try {
      const init = await post(initializeRequest());
      const sid = init.headers.get('mcp-session-id')!;
      await init.body?.cancel();
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, inSession(sid))).text();
      const sub = await post(rpc('resources/subscribe', { uri: WATCHED_RESOURCE_URI }), inSession(sid));
      await sub.text();
      const unread = await get(sid);
      assert.equal(unread.status, 200);
      const second = await get(sid);
      assert.equal(second.status, 409);
      await second.text();
      for (let i = 0; i < 2000; i++) server.resourceUpdated(WATCHED_RESOURCE_URI);
      const again = await get(sid);
      assert.equal(again.status, 200, 'the unread stream was dropped at its cap');
      await again.body?.cancel();
    } finally {
      await handler.close();
      await server.close();
    }
  });

  test('silent (half-open) connections are closed after headersTimeout; others are served', async () => {
    const g = await startEverything({ headersTimeoutMs: 1000 });
    const sockets: net.Socket[] = [];
    try {
      let closed = 0;
      for (let i = 0; i < 50; i++) {
        const s = net.connect(g.running.port, '127.0.0.1');
        s.on('error', () => undefined);
        s.on('close', () => closed++);
        sockets.push(s);
      }
      const sid = await openLegacySession(g.url);
      assert.equal((await postJson(g.url, rpc('ping'), inSession(sid))).status, 200);
      await waitFor(() => closed === 50, 15_000);
    } finally {
      for (const s of sockets) s.destroy();
      await g.close();
    }
  });

  test('sessions that did nothing after initialize expire quickly; used ones stay', async () => {
    const g = await startEverything({ sessionInitIdleMs: 1000 });
    try {
      // Used at once, so that a slow machine opening the other twenty cannot expire it first.
      const used = await openLegacySession(g.url);
      assert.equal((await postJson(g.url, rpc('ping'), inSession(used))).status, 200);
      const idle: string[] = [];
      for (let i = 0; i < 20; i++) idle.push(await openLegacySession(g.url));
      assert.equal(new Set(idle).size, 20);
      await waitFor(() => g.running.handler.sessionCount === 1, WAIT_MS);
      for (const sid of idle.slice(0, 2)) {
        assert.equal((await postJson(g.url, rpc('ping'), inSession(sid))).status, 404, 'an idle one is gone');
      }
      assert.equal((await postJson(g.url, rpc('ping'), inSession(used))).status, 200);
    } finally {
      await g.close();
    }
  });

  test("per-client quota: the client's least recently used idle session makes room", async () => {
    const g = await startEverything({ maxSessionsPerClient: 3 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await openLegacySession(g.url));
      const fourth = await postJson(g.url, initializeRequest());
      assert.equal(fourth.status, 200);
      assert.equal(g.running.handler.sessionCount, 3);
      assert.equal((await postJson(g.url, rpc('ping'), inSession(ids[0]!))).status, 404, 'the oldest went');
      assert.equal((await postJson(g.url, rpc('ping'), inSession(ids[2]!))).status, 200);
    } finally {
      await g.close();
    }
  });

  test('in-flight cap: one request too many gets 429 with a JSON-RPC error; others still served', async () => {
    const g = await startEverything({ maxInFlightPerSession: 2 }, 400);
    const open: Array<{ abort(): void }> = [];
    try {
      const sid = await openLegacySession(g.url);
      for (let i = 0; i < 2; i++) {
        open.push(
          await openStream(g.url, {
            headers: inSession(sid),
            body: rpc('tools/call', { name: 'test_tool_with_progress', arguments: {} }),
          }),
        );
      }
      const third = await postJson(g.url, rpc('ping', undefined, 'third'), inSession(sid));
      assert.equal(third.status, 429);
      assert.equal(third.json?.id, 'third');
      assert.equal(errorCode(third), -32603);
      const other = await openLegacySession(g.url);
      assert.equal((await postJson(g.url, rpc('ping'), inSession(other))).status, 200);
    } finally {
      for (const s of open) s.abort();
      await g.close();
    }
  });

  test('maxBatchSize: a larger batch gets 400, a smaller one is answered', async () => {
    const g = await startEverything({ maxBatchSize: 3 });
    try {
      const sid = await openLegacySession(g.url, {}, '2025-03-26');
      const big = await postJson(
        g.url,
        [1, 2, 3, 4].map(() => rpc('ping')),
        { 'mcp-session-id': sid },
      );
      assert.equal(big.status, 400);
      assert.equal(errorCode(big), -32600);
      const small = await postJson(
        g.url,
        [1, 2].map(() => rpc('ping')),
        { 'mcp-session-id': sid },
      );
      assert.equal(small.status, 200);
    } finally {
      await g.close();
    }
  });

  test("a gone client's finished stream is kept only for the resume window", async () => {
    // The store's drop is the event: the window's timer ran out and the stream was forgotten.
    const eventStore = new MemoryEventStore();
    const dropped: string[] = [];
    const drop = eventStore.drop.bind(eventStore);
    eventStore.drop = (streamId: string): void => {
      dropped.push(streamId);
      drop(streamId);
    };
    const g = await startEverything({ resumeWindowMs: 300, eventStore }, 100);
    try {
      const sid = await openLegacySession(g.url);
      const call = await openStream(g.url, {
        headers: inSession(sid),
        body: rpc('tools/call', { name: 'test_tool_with_progress', arguments: {} }, 'gone'),
      });
      const priming = await waitFor(() => call.sse.events.find((e) => e.id !== undefined), WAIT_MS);
      call.abort();
      // The answer (2 steps of 100 ms) is stored for the resume window, then dropped.
      const streamId = priming.id!.slice(0, priming.id!.lastIndexOf('.'));
      await waitFor(() => dropped.includes(streamId), WAIT_MS, 'the stream to be dropped after the window');
      const resumed = await postJsonGet(g.url, sid, priming.id);
      assert.equal(resumed, 400, 'the stream was forgotten after the window');
    } finally {
      await g.close();
    }
  });
});

/** Opens a GET stream and returns its status, closing it at once. */
async function postJsonGet(url: string, sid: string, lastEventId?: string): Promise<number> {
  const ac = new AbortController();
  const r = await fetch(url, {
    headers: {
      accept: 'text/event-stream',
      ...inSession(sid),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: ac.signal,
  });
  const status = r.status;
  ac.abort();
  await r.body?.cancel().catch(() => undefined);
  return status;
}
