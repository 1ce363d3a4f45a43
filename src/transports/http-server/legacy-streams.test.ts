/**
 * Legacy streams over a real socket: `keepAliveMs` on the GET stream and the 2024-11-05
 * `/sse` stream, and JSON response mode turning a POST into an SSE stream when its handler
 * sends something related (a server-to-client request, progress, logs) before the answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../client/index.js';
import { LocalError } from '../../jsonrpc/index.js';
import { McpServer } from '../../server/index.js';
import { createNodeListener } from '../../serve/index.js';
import { StreamableHttpClientTransport } from '../http-client/index.js';
import {
  LEGACY,
  assertServerMessage,
  openLegacySession,
  openStream,
  postJson,
  request,
  rpc,
  sseMessages,
  startEverything,
} from '../../test-support/http-server-harness.js';
import type { Fixture, Obj } from '../../test-support/http-server-harness.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';

const inSession = (sid: string, version = LEGACY): Record<string, string> => ({
  'mcp-session-id': sid,
  'mcp-protocol-version': version,
});

describe('keepAliveMs on legacy streams', { timeout: 30_000 }, () => {
  test('intervals and limits must be positive numbers: 0, negatives and NaN are refused up front', () => {
    const server = new McpServer({ name: 'x', version: '1' });
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      for (const key of ['keepAliveMs', 'retryMs', 'sessionIdleMs', 'maxSessions', 'maxBodyBytes']) {
        assert.throws(
          () => createNodeListener(server, { [key]: bad }),
          (e: unknown) =>
            e instanceof LocalError && e.code === 'InvalidConfiguration' && e.message.includes(key),
        );
      }
    }
  });

  let f: Fixture;
  before(async () => {
    f = await startEverything({ keepAliveMs: 50 });
  });
  after(() => f.close());

  test('the standalone GET stream carries keep-alive comments every keepAliveMs', async () => {
    const sid = await openLegacySession(f.url);
    const get = await openStream(f.url, { method: 'GET', headers: inSession(sid) });
    try {
      assert.equal(get.response.status, 200);
      await waitFor(() => get.sse.comments >= 3, WAIT_MS, 'three keep-alive comments on the GET stream');
      assert.deepEqual(get.sse.events, [], 'comments only, no events');
    } finally {
      get.abort();
    }
  });

  test('the 2024-11-05 /sse stream carries keep-alive comments every keepAliveMs', async () => {
    const sse = await openStream(`${f.origin}/sse`, { method: 'GET' });
    try {
      assert.equal(sse.response.status, 200);
      await waitFor(() => sse.sse.events.some((e) => e.event === 'endpoint'), WAIT_MS, 'the endpoint event');
      await waitFor(() => sse.sse.comments >= 3, WAIT_MS, 'three keep-alive comments on /sse');
    } finally {
      sse.abort();
    }
  });

  test('without keepAliveMs (15 s by default) neither stream sends comments at once', async () => {
    const g = await startEverything();
    try {
      const sid = await openLegacySession(g.url);
      const get = await openStream(g.url, { method: 'GET', headers: inSession(sid) });
      const sse = await openStream(`${g.origin}/sse`, { method: 'GET' });
      // Barriers instead of a sleep: a message sent on each stream after it opened. A comment
      // sent at once would have come before it.
      const reg = g.server.tool({ name: 'barrier_tool', input: { type: 'object' } }, () => 'x');
      await get.sse.next((m) => m.method === 'notifications/tools/list_changed');
      const endpoint = await waitFor(() => sse.sse.events.find((e) => e.event === 'endpoint'));
      assert.equal(
        (await postJson(new URL(endpoint.data, g.origin).href, rpc('ping', {}, 'p1'))).status,
        202,
      );
      // (Read as events: the endpoint event's data is not JSON.)
      await waitFor(() => sse.sse.events.some((e) => e.event !== 'endpoint' && e.data.includes('"p1"')));
      reg.remove();
      assert.equal(get.sse.comments, 0);
      assert.equal(sse.sse.comments, 0);
      get.abort();
      sse.abort();
    } finally {
      await g.close();
    }
  });
});

// A POST left unanswered fails the suite in 30 s rather than at the runner's 120 s timeout.
describe(
  'JSON response mode: a POST whose handler sends something first is answered on SSE',
  { timeout: 30_000 },
  () => {
    let f: Fixture;
    before(async () => {
      f = await startEverything({ responseMode: 'json' }, 10);
    });
    after(() => f.close());

    test('a plain tools/call is still one application/json body', async () => {
      const sid = await openLegacySession(f.url);
      const r = await postJson(
        f.url,
        rpc('tools/call', { name: 'add', arguments: { a: 2, b: 5 } }, 'j1'),
        inSession(sid),
      );
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['mcp-session-id'], sid);
      assert.equal(r.json?.id, 'j1');
      assert.deepEqual((r.json?.result as Obj).structuredContent, { sum: 7 });
    });

    test('elicitation with no GET stream: SSE with the request, then the result on the same stream', async () => {
      const sid = await openLegacySession(f.url, { elicitation: { form: {} } });
      const started = Date.now();
      const call = await openStream(f.url, {
        headers: inSession(sid),
        body: rpc('tools/call', { name: 'test_elicitation', arguments: { message: 'Who?' } }, 'e1'),
      });
      try {
        assert.equal(call.response.status, 200);
        assert.equal(call.response.headers.get('content-type'), 'text/event-stream');
        assert.equal(call.response.headers.get('mcp-session-id'), sid);
        const ask = await call.sse.next((m) => m.method === 'elicitation/create', WAIT_MS);
        assert.ok(Date.now() - started < 5000, 'the elicitation comes at once, not after a timeout');
        assertServerMessage(LEGACY, ask);
        const posted = await postJson(
          f.url,
          {
            jsonrpc: '2.0',
            id: ask.id,
            result: { action: 'accept', content: { username: 'ann', email: 'a@b.c' } },
          },
          inSession(sid),
        );
        assert.equal(posted.status, 202);
        const result = await call.sse.response('e1');
        assertServerMessage(LEGACY, result, 'tools/call');
        assert.match(JSON.stringify(result.result), /ann/);
        await call.sse.done;
        // As in SSE mode: a priming event with an id and a retry hint, then events with ids.
        const [priming, ...rest] = call.sse.events;
        assert.ok(priming?.id, 'the priming event has an id');
        assert.equal(priming.data, '');
        assert.equal(priming.retry, 1000);
        assert.deepEqual(
          rest.map((e) => (JSON.parse(e.data) as Obj).method ?? 'response'),
          ['elicitation/create', 'response'],
        );
        assert.ok(
          rest.every(
            (e) => e.id !== undefined && e.id.startsWith(priming.id!.slice(0, priming.id!.lastIndexOf('.'))),
          ),
          'every event has an id on the stream of the priming event',
        );
      } finally {
        call.abort();
      }
    });

    test('progress notifications, then the result, on one SSE answer', async () => {
      const sid = await openLegacySession(f.url);
      const r = await postJson(
        f.url,
        rpc(
          'tools/call',
          { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'pt' } },
          'p1',
        ),
        inSession(sid),
      );
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'text/event-stream');
      const messages = sseMessages(r.body);
      assert.deepEqual(
        messages.map((m) => m.method ?? `response ${String(m.id)}`),
        ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response p1'],
      );
      assert.deepEqual(
        messages.slice(0, 3).map((m) => (m.params as Obj).progress),
        [0, 50, 100],
      );
      for (const m of messages) assertServerMessage(LEGACY, m, m.id === 'p1' ? 'tools/call' : undefined);
      // The session carries on in JSON: the next plain call is plain again.
      const next = await postJson(f.url, rpc('ping', undefined, 'p2'), inSession(sid));
      assert.equal(next.headers['content-type'], 'application/json');
      assert.deepEqual(next.json, { jsonrpc: '2.0', id: 'p2', result: {} });
    });

    test('log messages go on the POST, not on an open GET stream', async () => {
      const sid = await openLegacySession(f.url);
      const get = await openStream(f.url, { method: 'GET', headers: inSession(sid) });
      try {
        assert.equal(
          (await postJson(f.url, rpc('logging/setLevel', { level: 'info' }), inSession(sid))).status,
          200,
        );
        const r = await postJson(
          f.url,
          rpc('tools/call', { name: 'test_tool_with_logging', arguments: {} }, 'l1'),
          inSession(sid),
        );
        assert.equal(r.headers['content-type'], 'text/event-stream');
        assert.deepEqual(
          sseMessages(r.body).map((m) => m.method ?? `response ${String(m.id)}`),
          ['notifications/message', 'notifications/message', 'notifications/message', 'response l1'],
        );
        // The barrier: a change the server does send on the GET stream; anything sent there
        // before it would have arrived first.
        const reg = f.server.tool({ name: 'barrier_tool', input: { type: 'object' } }, () => 'x');
        await get.sse.next((m) => m.method === 'notifications/tools/list_changed');
        reg.remove();
        assert.deepEqual(
          get.sse.messages().map((m) => m.method),
          ['notifications/tools/list_changed'],
          'nothing else on the GET stream',
        );
      } finally {
        get.abort();
      }
    });

    test('2025-03-26 batch: progress switches the whole POST to SSE; both answers follow', async () => {
      const sid = await openLegacySession(f.url, {}, '2025-03-26');
      const r = await postJson(
        f.url,
        [
          rpc('ping', undefined, 'b1'),
          rpc(
            'tools/call',
            { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 't' } },
            'b2',
          ),
        ],
        { 'mcp-session-id': sid },
      );
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'text/event-stream');
      // The session answers a batch with one batch, once every item is done.
      const kinds = sseMessages(r.body)
        .flat()
        .map((m: Obj) => m.method ?? `response ${String(m.id)}`);
      assert.deepEqual(kinds, [
        'notifications/progress',
        'notifications/progress',
        'notifications/progress',
        'response b1',
        'response b2',
      ]);
    });

    test('an upgraded stream resumes with Last-Event-ID after the connection drops', async () => {
      const sid = await openLegacySession(f.url, { elicitation: { form: {} } });
      const call = await openStream(f.url, {
        headers: inSession(sid),
        body: rpc('tools/call', { name: 'test_elicitation', arguments: { message: 'Who?' } }, 'r1'),
      });
      const ask = await call.sse.next((m) => m.method === 'elicitation/create');
      const askEvent = call.sse.events.find(
        (e) => e.data !== '' && (JSON.parse(e.data) as Obj).id === ask.id,
      );
      assert.ok(askEvent?.id);
      // The answer must find the stream dropped (or it goes out on the dead connection): wait
      // until the server has closed that connection.
      const open = (): Promise<number> =>
        new Promise((resolve, reject) =>
          f.running.httpServer.getConnections((e, n) => (e ? reject(e) : resolve(n))),
        );
      const before = await open();
      call.abort();
      await call.sse.done;
      await waitFor(async () => (await open()) < before, WAIT_MS, 'the server to see the dropped stream');
      const posted = await postJson(
        f.url,
        {
          jsonrpc: '2.0',
          id: ask.id,
          result: { action: 'accept', content: { username: 'bob', email: 'b@c.d' } },
        },
        inSession(sid),
      );
      assert.equal(posted.status, 202);
      const resumed = await request(f.url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...inSession(sid), 'last-event-id': askEvent.id },
      });
      assert.equal(resumed.status, 200);
      const [result, ...more] = sseMessages(resumed.body);
      assert.deepEqual(more, []);
      assert.equal(result?.id, 'r1');
      assert.match(JSON.stringify(result.result), /bob/);
    });

    for (const getStream of [false, true]) {
      test(`our Client elicits through a JSON-mode server (GET stream ${getStream ? 'allowed' : 'refused'})`, async () => {
        let gets = 0;
        const fetchNoGet: typeof fetch = (input, init) => {
          if ((init?.method ?? 'GET') === 'GET') {
            gets++;
            return Promise.resolve(new Response(null, { status: 405 }));
          }
          return fetch(input, init);
        };
        const client = new Client(
          { name: 'legacy-streams', version: '1.0.0' },
          {
            era: 'legacy',
            timeoutMs: 10_000,
            logger: () => undefined,
            handlers: {
              elicitation: () => ({ action: 'accept', content: { username: 'cy', email: 'c@d.e' } }),
            },
          },
        );
        const transport = new StreamableHttpClientTransport({
          url: f.url,
          ...(getStream ? {} : { fetch: fetchNoGet }),
          onwarning: () => undefined,
        });
        await client.connect(transport);
        try {
          const started = Date.now();
          const r = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
          assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
          assert.match(JSON.stringify(r), /cy/);
          if (!getStream) await waitFor(() => gets >= 1, WAIT_MS, 'the client to try a GET stream');
        } finally {
          await client.close();
        }
      });
    }
  },
);
