/**
 * Several nodes in this process, each its own server and its own Redis connections, sharing
 * one real redis-server: every shared-state seam is checked by talking to chosen nodes
 * directly, so each check knows which node it crosses to. The balancer and SDK runs are in
 * balancer.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LocalError } from '../../jsonrpc/index.js';
import { createEverythingServer } from '../../demo/everything-server.js';
import { serve } from '../../serve/index.js';
import {
  LEGACY,
  MODERN,
  assertServerMessage,
  errorCode,
  fixtureOf,
  initializeRequest,
  modern,
  notification,
  openLegacySession,
  openStream,
  postJson,
  request,
  rpc,
  sseMessages,
} from '../../test-support/http-server-harness.js';
import type { Fixture, Obj } from '../../test-support/http-server-harness.js';
import { freePort, startRedis } from '../../test-support/cluster.js';
import { missing } from '../../test-support/services.js';
import type { RedisProcess } from '../../test-support/cluster.js';
import type { ServeOptions } from '../../serve/index.js';
import type { LegacySessionStore } from '../../transports/http-server/shared-state.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';
import { holdable } from '../../test-support/held-bus.js';
import type { HoldableBus } from '../../test-support/held-bus.js';
import { connectRedisStores } from './connect-redis.js';

const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
let redis: RedisProcess;
let prefixCounter = 0;
const waiting = new Set<string>();
const aborted = new Set<string>();

/** Each node's bus, which a test may hold back (see holdable). */
const buses = new WeakMap<Fixture, HoldableBus>();
const busOf = (node: Fixture): HoldableBus => buses.get(node)!;

/** `count` nodes on one key prefix of their own, so the tests do not see each other's sessions. */
async function startNodes(
  count: number,
  options: ServeOptions = {},
  { leases = true } = {},
): Promise<Fixture[]> {
  const keyPrefix = `t${process.pid}-${prefixCounter++}:`;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const server = createEverythingServer({ stepMs: 20 });
      // Runs until cancelled; the test sees where it started and where its signal fired.
      server.tool({ name: 'wait_for_cancel', description: 'waits for cancellation' }, (_args, ctx) => {
        const id = String(ctx.requestId);
        waiting.add(id);
        return new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted.add(id);
            resolve('cancelled');
          });
        });
      });
      const stores = await connectRedisStores({ url: redis.url, keyPrefix });
      const bus = holdable(stores.bus);
      const sessions = leases ? stores.sessions : withoutLeases(stores.sessions);
      const fixture = fixtureOf(
        server,
        await serve(server, { ...options, stores: { ...stores, sessions, bus } }),
      );
      const node: Fixture = {
        ...fixture,
        close: async () => {
          await fixture.close();
          await stores.close();
        },
      };
      buses.set(node, bus);
      return node;
    }),
  );
}

/** The same store as a backend that keeps no leases would be (no `holders`). */
function withoutLeases(s: LegacySessionStore): LegacySessionStore {
  return {
    shared: s.shared,
    create: (id, principal, initialize, limits) => s.create(id, principal, initialize, limits),
    touch: (id, knownOps, limits) => s.touch(id, knownOps, limits),
    appendOp: (id, op) => s.appendOp(id, op),
    delete: (id) => s.delete(id),
  };
}

const closeAll = (nodes: Fixture[]): Promise<unknown> => Promise.all(nodes.map((n) => n.close()));
const legacyHeaders = (sid: string): Record<string, string> => ({
  'mcp-session-id': sid,
  'mcp-protocol-version': LEGACY,
});

/** The messages of an SSE POST answer, each checked against the schema. */
function messagesOf(body: string): Obj[] {
  const out = body
    .split('\n\n')
    .flatMap((b) => b.split('\n').filter((l) => l.startsWith('data:')))
    .map((l) => l.slice(5).trim())
    .filter((d) => d !== '')
    .map((d) => JSON.parse(d) as Obj);
  for (const m of out) assertServerMessage(LEGACY, m);
  return out;
}

const NO_REDIS = missing('redis');
before(async () => {
  if (!NO_REDIS) redis = await startRedis();
});

after(async () => {
  await redis?.stop();
});

describe('Redis stores: start-up', () => {
  test('serve() fails fast with a clear StoreUnavailable error when Redis is unreachable', async () => {
    const port = await freePort();
    const started = Date.now();
    await assert.rejects(
      serve(createEverythingServer(), { redis: `redis://127.0.0.1:${port}` }),
      (e: unknown) =>
        e instanceof LocalError &&
        e.code === 'StoreUnavailable' &&
        new RegExp(`Cannot reach Redis at redis://127\\.0\\.0\\.1:${port}`).test(e.message),
    );
    assert.ok(Date.now() - started < 5000, 'no waiting for a Redis that is not there');
  });

  test('mcpkit demo-server --redis exits with a clear message when Redis is unreachable', async () => {
    const port = await freePort();
    const r = spawnSync(
      process.execPath,
      [CLI, 'demo-server', '--port', '0', '--redis', `redis://127.0.0.1:${port}`],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    assert.equal(r.status, 3);
    assert.match(r.stderr, /Cannot reach Redis at redis:\/\/127\.0\.0\.1/);
  });
});

describe('Redis stores: a legacy session on many nodes', { skip: NO_REDIS }, () => {
  let nodes: Fixture[];
  before(async () => {
    nodes = await startNodes(3);
  });
  after(() => closeAll(nodes));

  test('created on A, served on B and C; DELETE on C ends it on every node', async () => {
    const [a, b, c] = nodes as [Fixture, Fixture, Fixture];
    const sid = await openLegacySession(a.url);
    for (const n of [b, c, a]) {
      const r = await postJson(
        n.url,
        rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }),
        legacyHeaders(sid),
      );
      assert.equal(r.status, 200);
      const [answer] = messagesOf(r.body);
      assert.deepEqual((answer!.result as Obj).structuredContent, { sum: 5 });
    }
    // A and B hold copies under a lease; they hear nothing on the bus until the end is
    // answered, so that they refuse the session must come from the guarantee, not from timing.
    const held = [busOf(a), busOf(b)];
    for (const bus of held) bus.hold();
    try {
      const del = await request(c.url, { method: 'DELETE', headers: legacyHeaders(sid) });
      assert.equal(del.status, 200);
      for (const n of [a, b, c]) {
        const r = await postJson(n.url, rpc('ping'), legacyHeaders(sid));
        assert.equal(r.status, 404, 'ended everywhere, at once');
      }
    } finally {
      for (const bus of held) bus.release();
    }
  });

  test('another principal cannot use the session on another node (same 404 as unknown)', async () => {
    const [a, b] = nodes as [Fixture, Fixture];
    const sid = await openLegacySession(a.url);
    const r = await postJson(b.url, rpc('ping'), {
      ...legacyHeaders(sid),
      'mcp-session-id': sid.replace(/^./, (c) => (c === '0' ? '1' : '0')),
    });
    assert.equal(r.status, 404);
  });

  test('logging/setLevel and resources/subscribe made on one node hold on the others at once', async () => {
    const [a, b, c] = nodes as [Fixture, Fixture, Fixture];
    const sid = await openLegacySession(a.url);
    // A and C serve the session first, so each holds a copy under a lease. Then they hear
    // nothing on the bus: that they see B's changes on the very next request must come from
    // the guarantee (read-your-writes), not from a pub/sub message arriving in time.
    for (const n of [a, c])
      assert.equal((await postJson(n.url, rpc('ping'), legacyHeaders(sid))).status, 200);
    const held = [busOf(a), busOf(c)];
    for (const bus of held) bus.hold();
    let get: Awaited<ReturnType<typeof openStream>> | undefined;
    try {
      try {
        assert.equal(
          (await postJson(b.url, rpc('logging/setLevel', { level: 'error' }), legacyHeaders(sid))).status,
          200,
        );
        const quiet = await postJson(
          c.url,
          rpc('tools/call', { name: 'test_tool_with_logging', arguments: {} }),
          legacyHeaders(sid),
        );
        assert.deepEqual(
          messagesOf(quiet.body).filter((m) => m.method === 'notifications/message'),
          [],
          'the level set on B silences info logs on C',
        );
        assert.equal(
          (await postJson(b.url, rpc('logging/setLevel', { level: 'info' }), legacyHeaders(sid))).status,
          200,
        );
        const loud = await postJson(
          a.url,
          rpc('tools/call', { name: 'test_tool_with_logging', arguments: {} }),
          legacyHeaders(sid),
        );
        assert.equal(messagesOf(loud.body).filter((m) => m.method === 'notifications/message').length, 3);

        // Subscribe on C; A, which still hears nothing on the bus, holds the GET stream and
        // changes the resource itself: the update reaches the stream.
        const sub = await postJson(
          c.url,
          rpc('resources/subscribe', { uri: 'test://watched-resource' }),
          legacyHeaders(sid),
        );
        assert.equal(sub.status, 200);
        get = await openStream(a.url, { method: 'GET', headers: legacyHeaders(sid) });
        assert.equal(get.response.status, 200);
        await postJson(
          a.url,
          rpc('tools/call', { name: 'touch_watched_resource', arguments: {} }),
          legacyHeaders(sid),
        );
        const updated = await get.sse.next((m) => m.method === 'notifications/resources/updated', WAIT_MS);
        assertServerMessage(LEGACY, updated);
        assert.deepEqual(updated.params, { uri: 'test://watched-resource' });
      } finally {
        for (const bus of held) bus.release();
      }
      // A change made through B reaches the stream on A through the bus, announced once.
      await postJson(
        b.url,
        rpc('tools/call', { name: 'touch_watched_resource', arguments: {} }),
        legacyHeaders(sid),
      );
      await waitFor(() => get!.sse.messages().length >= 2, WAIT_MS, 'the second update');
      const updates = get!.sse.messages();
      for (const m of updates) assertServerMessage(LEGACY, m);
      assert.deepEqual(
        updates.map((m) => [m.method, m.params]),
        [
          ['notifications/resources/updated', { uri: 'test://watched-resource' }],
          ['notifications/resources/updated', { uri: 'test://watched-resource' }],
        ],
        'each change announced once, by the node holding the GET stream',
      );
    } finally {
      get?.abort();
    }
  });

  test('elicitation and sampling: the question goes out on A, the answer is POSTed to B and reaches A', async () => {
    const [a, b] = nodes as [Fixture, Fixture];
    const sid = await openLegacySession(a.url, { elicitation: {}, sampling: {} });
    const call = await openStream(a.url, {
      headers: legacyHeaders(sid),
      body: rpc('tools/call', { name: 'test_elicitation', arguments: { message: 'Who are you?' } }, 'e1'),
    });
    const ask = await call.sse.next((m) => m.method === 'elicitation/create');
    assertServerMessage(LEGACY, ask);
    const answer = await postJson(
      b.url,
      {
        jsonrpc: '2.0',
        id: ask.id,
        result: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } },
      },
      legacyHeaders(sid),
    );
    assert.equal(answer.status, 202);
    const result = await call.sse.response('e1', WAIT_MS);
    assert.match(JSON.stringify(result.result), /ada@example\.com/);

    const sample = await openStream(b.url, {
      headers: legacyHeaders(sid),
      body: rpc('tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi' } }, 's1'),
    });
    const q = await sample.sse.next((m) => m.method === 'sampling/createMessage');
    const reply = {
      role: 'assistant',
      content: { type: 'text', text: 'Hello from A' },
      model: 'm',
      stopReason: 'endTurn',
    };
    assert.equal(
      (await postJson(a.url, { jsonrpc: '2.0', id: q.id, result: reply }, legacyHeaders(sid))).status,
      202,
    );
    assert.match(JSON.stringify((await sample.sse.response('s1', WAIT_MS)).result), /Hello from A/);
  });

  test('2025-03-26 batches: answers in a batch reach the node that asked, the rest is served where it landed', async () => {
    const [a, b, c] = nodes as [Fixture, Fixture, Fixture];
    const OLD = '2025-03-26';
    const sid = await openLegacySession(a.url, { sampling: {}, roots: {} }, OLD);
    const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': OLD };
    const messages = (body: string): Obj[] =>
      sseMessages(body)
        .flatMap((m) => (Array.isArray(m) ? (m as Obj[]) : [m]))
        .map((m) => (assertServerMessage(OLD, m), m));
    const reply = {
      role: 'assistant',
      content: { type: 'text', text: 'Hello from a batch' },
      model: 'm',
      stopReason: 'endTurn',
    };
    // Asked on A, answered on B in a batch that also carries a request B serves itself.
    const call = await openStream(a.url, {
      headers,
      body: rpc('tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi' } }, 'b1'),
    });
    const q = await call.sse.next((m) => m.method === 'sampling/createMessage');
    const mixed = await postJson(
      b.url,
      [{ jsonrpc: '2.0', id: q.id, result: reply }, rpc('ping', undefined, 'p1')],
      headers,
    );
    assert.equal(mixed.status, 200, mixed.body);
    assert.deepEqual(
      messages(mixed.body).map((m) => m.id),
      ['p1'],
      "B answers its part only; A's answer went to A",
    );
    assert.match(JSON.stringify((await call.sse.response('b1', 5000)).result), /Hello from a batch/);

    // A batch of answers only, one for a question of the node it lands on and none else.
    for (const [asker, target] of [
      [b, c],
      [c, c],
    ] as const) {
      const roots = await openStream(asker.url, {
        headers,
        body: rpc('tools/call', { name: 'list_roots', arguments: {} }, `r-${target.url}-${asker.url}`),
      });
      const ask = await roots.sse.next((m) => m.method === 'roots/list');
      const only = await postJson(
        target.url,
        [{ jsonrpc: '2.0', id: ask.id, result: { roots: [{ uri: 'file:///batch', name: 'batched' }] } }],
        headers,
      );
      assert.equal(only.status, 202, only.body);
      const done = await roots.sse.response(`r-${target.url}-${asker.url}`, 5000);
      assert.match(JSON.stringify(done.result), /batched: file:\/\/\/batch/);
    }
  });

  test('notifications/cancelled POSTed to B cancels the handler running on A', async () => {
    const [a, b] = nodes as [Fixture, Fixture];
    const sid = await openLegacySession(a.url);
    const call = await openStream(a.url, {
      headers: legacyHeaders(sid),
      body: rpc('tools/call', { name: 'wait_for_cancel', arguments: {} }, 'cancel-me'),
    });
    try {
      await waitFor(() => waiting.has('cancel-me'), WAIT_MS, 'the handler to start on A');
      const cancel = await postJson(
        b.url,
        notification('notifications/cancelled', { requestId: 'cancel-me', reason: 'changed my mind' }),
        legacyHeaders(sid),
      );
      assert.equal(cancel.status, 202);
      await waitFor(() => aborted.has('cancel-me'), WAIT_MS, "the handler's signal on A");
    } finally {
      call.abort();
    }
  });

  test('resumption: a stream cut on A is resumed with Last-Event-ID on B, live to its end', async () => {
    const [a, b] = nodes as [Fixture, Fixture];
    const sid = await openLegacySession(a.url);
    const call = await openStream(a.url, {
      headers: legacyHeaders(sid),
      body: rpc(
        'tools/call',
        { name: 'slow_count', arguments: { n: 6 }, _meta: { progressToken: 'p' } },
        'r1',
      ),
    });
    await call.sse.next((m) => m.method === 'notifications/progress');
    const lastId = call.sse.events.filter((e) => e.id).at(-1)!.id!;
    call.abort();
    const resumed = await openStream(b.url, {
      method: 'GET',
      headers: { ...legacyHeaders(sid), 'last-event-id': lastId },
    });
    assert.equal(resumed.response.status, 200);
    const result = await resumed.sse.response('r1', WAIT_MS);
    assert.match(JSON.stringify(result.result), /Counted to 6/);
    const seen = [...call.sse.messages(), ...resumed.sse.messages()]
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => (m.params as Obj).progress);
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6], 'every progress event once, in order, across both nodes');
    await waitFor(() => resumed.sse.ended, WAIT_MS, 'the resumed stream ends after the answer');
  });

  test('an unknown or foreign Last-Event-ID is refused on any node', async () => {
    const [a, b] = nodes as [Fixture, Fixture];
    const sid = await openLegacySession(a.url);
    const other = await openLegacySession(a.url);
    const bad = await request(b.url, {
      method: 'GET',
      headers: { ...legacyHeaders(sid), accept: 'text/event-stream', 'last-event-id': `${other}~x~0.1` },
    });
    assert.equal(bad.status, 400);
    const unknown = await request(b.url, {
      method: 'GET',
      headers: { ...legacyHeaders(sid), accept: 'text/event-stream', 'last-event-id': `${sid}~nobody~9.1` },
    });
    assert.equal(unknown.status, 400);
  });
});

describe('Redis stores: a session store that keeps no leases', { skip: NO_REDIS }, () => {
  test('every request reads the store, so changes and ends made on one node hold on the others at once', async () => {
    const nodes = await startNodes(3, {}, { leases: false });
    const held = nodes.map(busOf);
    try {
      const [a, b, c] = nodes as [Fixture, Fixture, Fixture];
      const sid = await openLegacySession(a.url);
      for (const n of [a, c])
        assert.equal((await postJson(n.url, rpc('ping'), legacyHeaders(sid))).status, 200);
      // Nobody hears the bus: only the store can tell C and A.
      for (const bus of held) bus.hold();
      assert.equal(
        (await postJson(b.url, rpc('logging/setLevel', { level: 'error' }), legacyHeaders(sid))).status,
        200,
      );
      const quiet = await postJson(
        c.url,
        rpc('tools/call', { name: 'test_tool_with_logging', arguments: {} }),
        legacyHeaders(sid),
      );
      assert.equal(quiet.status, 200);
      assert.deepEqual(
        messagesOf(quiet.body).filter((m) => m.method === 'notifications/message'),
        [],
        'the level set on B silences info logs on C',
      );
      const del = await request(b.url, { method: 'DELETE', headers: legacyHeaders(sid) });
      assert.equal(del.status, 200);
      for (const n of [a, c]) {
        assert.equal((await postJson(n.url, rpc('ping'), legacyHeaders(sid))).status, 404, 'ended at once');
      }
    } finally {
      for (const bus of held) bus.release();
      await closeAll(nodes);
    }
  });
});

describe('Redis stores: cluster-wide limits and fan-out', { skip: NO_REDIS }, () => {
  test('maxSessions holds across nodes, and idle sessions expire on every node', async () => {
    const nodes = await startNodes(2, { maxSessions: 2, sessionIdleMs: 1000 });
    try {
      const [a, b] = nodes as [Fixture, Fixture];
      const s1 = await openLegacySession(a.url);
      // Used on B: the session is one, whichever node serves it.
      assert.equal((await postJson(b.url, rpc('ping'), legacyHeaders(s1))).status, 200);
      await openLegacySession(b.url);
      const third = await postJson(a.url, initializeRequest());
      assert.equal(third.status, 503);
      assert.equal(errorCode(third), -32603);
      // Left idle, s1 (the least recently used) expires first and frees its place; polling
      // with initialize does not touch it; then A no longer knows it either.
      await waitFor(
        async () => (await postJson(b.url, initializeRequest())).status === 200,
        10_000,
        'idle sessions expire and free their places',
      );
      // The index and the record expire by two clocks (the node's and Redis's) a few ms apart.
      await waitFor(
        async () => (await postJson(a.url, rpc('ping'), legacyHeaders(s1))).status === 404,
        WAIT_MS,
        's1 expired on A too',
      );
    } finally {
      await closeAll(nodes);
    }
  });

  test('modern subscriptions/listen on A hears a change made through B; MRTR state sealed on A opens on B', async () => {
    const nodes = await startNodes(2);
    try {
      const [a, b] = nodes as [Fixture, Fixture];
      const m = modern('subscriptions/listen', {
        notifications: { resourceSubscriptions: ['test://watched-resource'] },
      });
      const listen = await openStream(a.url, { headers: m.headers, body: m.body });
      try {
        await listen.sse.next((x) => x.method === 'notifications/subscriptions/acknowledged');
        const touch = modern('tools/call', { name: 'touch_watched_resource', arguments: {} });
        assert.equal((await postJson(b.url, touch.body, touch.headers)).status, 200);
        const updated = await listen.sse.next((x) => x.method === 'notifications/resources/updated', WAIT_MS);
        assertServerMessage(MODERN, updated);
      } finally {
        listen.abort();
      }

      const meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
      const first = modern(
        'tools/call',
        { name: 'test_elicitation', arguments: { message: 'Name?' } },
        { meta },
      );
      const r1 = await postJson(a.url, first.body, first.headers);
      const asked = r1.json!.result as Obj;
      assert.equal(asked.resultType, 'input_required');
      const key = Object.keys(asked.inputRequests as Obj)[0]!;
      const retry = modern(
        'tools/call',
        {
          name: 'test_elicitation',
          arguments: { message: 'Name?' },
          inputResponses: { [key]: { action: 'accept', content: { username: 'u', email: 'u@example.com' } } },
          requestState: asked.requestState,
        },
        { meta },
      );
      const r2 = await postJson(b.url, retry.body, retry.headers);
      assert.equal(r2.status, 200, r2.body);
      assert.match(JSON.stringify(r2.json!.result), /u@example\.com/);
    } finally {
      await closeAll(nodes);
    }
  });
});

describe('Redis stores: Redis goes away and comes back', { skip: NO_REDIS }, () => {
  test('legacy requests get 503 with a JSON-RPC error, modern ones go on; the nodes recover by themselves, sessions too', async () => {
    const nodes = await startNodes(2);
    try {
      const [a, b] = nodes as [Fixture, Fixture];
      const sid = await openLegacySession(a.url);
      await redis.stop();
      const down = await postJson(b.url, rpc('ping'), legacyHeaders(sid));
      assert.equal(down.status, 503);
      assert.equal(errorCode(down), -32603);
      assert.match(String((down.json!.error as Obj).message), /Redis/);
      const init = await postJson(a.url, initializeRequest());
      assert.equal(init.status, 503, 'no new session without the store');
      const call = modern('tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
      const stateless = await postJson(b.url, call.body, call.headers);
      assert.equal(stateless.status, 200, 'a modern request needs no shared state');

      await redis.start();
      const back = await waitFor(
        async () => {
          const r = await postJson(b.url, initializeRequest());
          return r.status === 200 ? r : undefined;
        },
        10_000,
        'a node serving sessions again',
      );
      const sid2 = back.headers['mcp-session-id'] as string;
      await postJson(b.url, notification('notifications/initialized'), legacyHeaders(sid2));
      // Each node's Redis client reconnects on its own backoff: A may still be waiting for
      // its next attempt when B is back, so A is given the same time to recover.
      const onA = await waitFor(
        async () => {
          const r = await postJson(a.url, rpc('ping'), legacyHeaders(sid2));
          return r.status === 503 ? undefined : r;
        },
        10_000,
        'the other node serving again',
      );
      assert.equal(onA.status, 200, 'the other node serves the new session too');
      // Redis came back empty (no persistence): A, which served the old session, put it back.
      const old = await waitFor(
        async () => {
          const r = await postJson(
            b.url,
            rpc('tools/call', { name: 'add', arguments: { a: 2, b: 2 } }),
            legacyHeaders(sid),
          );
          return r.status === 200 ? r : undefined;
        },
        5000,
        'the old session restored',
      );
      assert.deepEqual((messagesOf(old.body)[0]!.result as Obj).structuredContent, { sum: 4 });
    } finally {
      await closeAll(nodes);
    }
  });
});

describe('Redis stores: tasks on many nodes', { skip: NO_REDIS }, () => {
  let nodes: Fixture[];
  before(async () => {
    nodes = await startNodes(3);
  });
  after(() => closeAll(nodes));

  const TASKS_EXT = 'io.modelcontextprotocol/tasks';

  test('modern: a task created on A is polled on B and its result read on C', async () => {
    const [a, b, c] = nodes as [Fixture, Fixture, Fixture];
    const meta = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXT]: {} } } };
    const call = modern(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.3, label: 'x' } },
      { meta },
    );
    const created = await postJson(a.url, call.body, call.headers);
    assert.equal(created.status, 200, created.body);
    const task = created.json!.result as Obj;
    assert.equal(task.resultType, 'task');
    const get = (n: Fixture): Promise<Obj> => {
      const m = modern('tasks/get', { taskId: task.taskId }, { meta });
      return postJson(n.url, m.body, m.headers).then((r) => r.json!.result as Obj);
    };
    assert.equal((await get(b)).taskId, task.taskId, 'B sees the task A created');
    const done = await waitFor(
      async () => {
        const t = await get(c);
        return t.status === 'completed' ? t : undefined;
      },
      10_000,
      'the task completes',
    );
    assert.match(JSON.stringify(done.result), /Computed x/);
  });

  test('legacy: a task started on A is seen on B and cancelled from C; the handler on A stops', async () => {
    const [a, b, c] = nodes as [Fixture, Fixture, Fixture];
    const sid = await openLegacySession(a.url, { tasks: {} });
    const started = await postJson(
      a.url,
      rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 60 }, task: { ttl: 60_000 } }),
      legacyHeaders(sid),
    );
    const task = (messagesOf(started.body)[0]!.result as Obj).task as Obj;
    assert.equal(task.status, 'working');
    const onB = messagesOf(
      (await postJson(b.url, rpc('tasks/get', { taskId: task.taskId }), legacyHeaders(sid))).body,
    );
    assert.equal((onB[0]!.result as Obj).taskId, task.taskId, "the session's task, on another node");
    const cancelled = messagesOf(
      (await postJson(c.url, rpc('tasks/cancel', { taskId: task.taskId }), legacyHeaders(sid))).body,
    );
    assert.equal((cancelled[0]!.result as Obj).status, 'cancelled');
    await waitFor(() => a.server.tasks?.runningCount === 0, WAIT_MS, 'the handler on A stopped');
    const other = await openLegacySession(b.url, { tasks: {} });
    const foreign = messagesOf(
      (await postJson(b.url, rpc('tasks/get', { taskId: task.taskId }), legacyHeaders(other))).body,
    );
    assert.ok(foreign[0]!.error, 'another session cannot see it');
  });
});
