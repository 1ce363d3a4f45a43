/**
 * Legacy Streamable HTTP (2025-03-26 to 2025-11-25) over a real socket: sessions, the GET
 * stream, JSON and SSE answers, server-to-client requests, resumability and SSE polling,
 * idle expiry and the session cap.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LEGACY,
  assertServerMessage,
  errorCode,
  initializeRequest,
  notification,
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

let f: Fixture;
before(async () => {
  f = await startEverything();
});
after(() => f.close());

const inSession = (sid: string, version = LEGACY): Record<string, string> => ({
  'mcp-session-id': sid,
  'mcp-protocol-version': version,
});

describe('sessions', () => {
  test('initialize mints a session id: visible ASCII, ≥128 bits, unique and uniform over 1000 sessions', async () => {
    const g = await startEverything({ responseMode: 'json' });
    try {
      const ids: string[] = [];
      const one = async (): Promise<void> => {
        const r = await postJson(g.url, initializeRequest());
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-type'], 'application/json');
        ids.push(String(r.headers['mcp-session-id']));
      };
      for (let batch = 0; batch < 40; batch++) await Promise.all(Array.from({ length: 25 }, one));
      assert.equal(ids.length, 1000);
      assert.equal(new Set(ids).size, 1000, 'every id is unique');
      for (const id of ids) {
        assert.match(id, /^[\x21-\x7e]+$/, 'visible ASCII only');
        assert.match(id, /^[0-9a-f]{32,}$/, 'hex, so 4 bits per character: at least 128 bits');
      }
      // A counter or a clock would skew the digits; 16 random bytes spread them evenly.
      const counts = new Map<string, number>();
      for (const id of ids) for (const c of id) counts.set(c, (counts.get(c) ?? 0) + 1);
      assert.equal(counts.size, 16);
      for (const [c, n] of counts) assert.ok(n > 1500 && n < 2500, `digit ${c} appears ${n} times of 32000`);
      assert.equal(g.running.handler.sessionCount, 1000);
    } finally {
      await g.close();
    }
  });

  test('a request other than initialize without a session id → 400', async () => {
    for (const body of [rpc('tools/list'), rpc('ping'), [rpc('ping'), rpc('ping')]]) {
      const r = await postJson(f.url, body, { 'mcp-protocol-version': LEGACY });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(errorCode(r), -32600);
      assert.match(String((r.json?.error as Obj).message), /Mcp-Session-Id/);
    }
  });

  test('unknown session → 404; DELETE ends a session, after which it is 404 everywhere', async () => {
    const unknown = { 'mcp-session-id': 'f'.repeat(32) };
    assert.equal((await postJson(f.url, rpc('ping'), unknown)).status, 404);
    const sid = await openLegacySession(f.url);
    const before = f.running.handler.sessionCount;
    assert.equal((await postJson(f.url, rpc('ping'), inSession(sid))).status, 200);
    const del = await request(f.url, { method: 'DELETE', headers: inSession(sid) });
    assert.equal(del.status, 200);
    assert.equal(f.running.handler.sessionCount, before - 1);
    const post = await postJson(f.url, rpc('ping'), inSession(sid));
    assert.equal(post.status, 404);
    assert.equal(errorCode(post), -32600);
    const get = await request(f.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(sid) },
    });
    assert.equal(get.status, 404);
    assert.equal((await request(f.url, { method: 'DELETE', headers: inSession(sid) })).status, 404);
  });

  test('MCP-Protocol-Version: absent means 2025-03-26 (accepted); an unknown value → 400', async () => {
    const sid = await openLegacySession(f.url);
    const absent = await postJson(f.url, rpc('ping', undefined, 'p1'), { 'mcp-session-id': sid });
    assert.equal(absent.status, 200);
    assert.deepEqual(sseMessages(absent.body), [{ jsonrpc: '2.0', id: 'p1', result: {} }]);
    for (const v of ['1999-01-01', 'garbage', '2026-07-28']) {
      const r = await postJson(f.url, rpc('ping'), inSession(sid, v));
      assert.equal(r.status, 400, v);
      assert.equal(errorCode(r), -32600);
    }
  });
});

describe('mirrored headers on a legacy POST', () => {
  test('Mcp-Method or Mcp-Name that disagree with the body get 400 -32020 and run nothing; agreeing or absent ones pass', async () => {
    const sid = await openLegacySession(f.url);
    const call = (): Obj => rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    for (const mirror of [{ 'mcp-method': 'tools/list' }, { 'mcp-name': 'add' }] as Record<
      string,
      string
    >[]) {
      const r = await postJson(f.url, call(), { ...inSession(sid), ...mirror });
      assert.equal(r.status, 400, JSON.stringify(mirror));
      assert.equal(errorCode(r), -32020, JSON.stringify(mirror));
    }
    for (const mirror of [{}, { 'mcp-method': 'tools/call', 'mcp-name': 'echo' }] as Record<
      string,
      string
    >[]) {
      const r = await postJson(f.url, call(), { ...inSession(sid), ...mirror });
      assert.equal(r.status, 200, JSON.stringify(mirror));
      const [answer] = sseMessages(r.body);
      assert.deepEqual((answer?.result as Obj | undefined)?.content, [{ type: 'text', text: 'hi' }]);
    }
  });
});

describe('streams', () => {
  test('SSE mode: priming event, then the answer; JSON mode: one application/json body', async () => {
    const sid = await openLegacySession(f.url);
    // The first call of a raw-schema tool loads its validator, which may outlast the tick
    // (then the answer is a live stream, also correct); the shape checked is the next one's.
    await postJson(
      f.url,
      rpc('tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, 'a0'),
      inSession(sid),
    );
    const r = await postJson(
      f.url,
      rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }, 'a1'),
      inSession(sid),
    );
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/event-stream');
    assert.equal(r.headers['mcp-session-id'], sid);
    // Ended within its first tick: one complete response, without the live-stream hints.
    assert.equal(r.headers['content-length'], String(Buffer.byteLength(r.body)));
    assert.equal(r.headers['x-accel-buffering'], undefined);
    assert.match(r.body, /^id: \S+\nretry: \d+\ndata: \n\n/, 'priming event first');
    const [answer, ...rest] = sseMessages(r.body);
    assert.deepEqual(rest, []);
    assert.deepEqual(answer?.result && (answer.result as Obj).structuredContent, { sum: 5 });
    assertServerMessage(LEGACY, answer!, 'tools/call');

    const g = await startEverything({ responseMode: 'json' });
    try {
      const jsid = await openLegacySession(g.url);
      const j = await postJson(
        g.url,
        rpc('tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, 'j1'),
        inSession(jsid),
      );
      assert.equal(j.status, 200);
      assert.equal(j.headers['content-type'], 'application/json');
      assert.equal(j.json?.id, 'j1');
      assert.deepEqual((j.json?.result as Obj).structuredContent, { sum: 2 });
      assertServerMessage(LEGACY, j.json!, 'tools/call');
    } finally {
      await g.close();
    }
  });

  for (const version of ['2025-03-26', '2025-06-18']) {
    test(`a ${version} client gets no priming event (no empty data) and no early close`, async () => {
      const init = await postJson(f.url, initializeRequest(version));
      assert.equal(init.status, 200);
      const sid = init.headers['mcp-session-id'] as string;
      assert.doesNotMatch(init.body, /^data: *$/m, 'no empty data in the initialize answer');
      assert.match(init.body, /^id: \S+\nevent: message\ndata: \{/, 'the answer is the first event');
      const done = await postJson(f.url, notification('notifications/initialized'), inSession(sid, version));
      assert.equal(done.status, 202);
      const r = await postJson(
        f.url,
        rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }, 'old1'),
        inSession(sid, version),
      );
      assert.doesNotMatch(r.body, /^data: *$/m);
      // Shaped for the client's revision: structured content exists only from 2025-06-18 on.
      assert.equal(((sseMessages(r.body)[0]?.result as Obj).content as Obj[])[0]?.text, '5');
      // Such a client could not resume from an early close: the answer comes on the same stream.
      const call = await openStream(f.url, {
        headers: inSession(sid, version),
        body: rpc('tools/call', { name: 'test_reconnection', arguments: {} }, 'old2'),
      });
      const answer = await call.sse.response('old2');
      assert.equal(
        ((answer.result as Obj).content as Obj[])[0]?.text,
        'Reconnection test completed successfully',
      );
      assert.ok(
        call.sse.events.every((e) => e.data !== ''),
        'no event with empty data',
      );
    });
  }

  test('a 2025-11-25 initialize answer opens with the priming event', async () => {
    const init = await postJson(f.url, initializeRequest('2025-11-25'));
    assert.match(init.body, /^id: \S+\nretry: 1000\ndata: \n\n/);
  });

  test('GET stream: a runtime tool change arrives there and only there; a second GET → 409', async () => {
    const sid = await openLegacySession(f.url);
    const opened = Date.now();
    const get = await openStream(f.url, { method: 'GET', headers: inSession(sid) });
    try {
      // Far below the 15 s keep-alive that would be the first event, yet safe on a loaded machine.
      assert.ok(Date.now() - opened < 5000, 'the headers come at once, before any event');
      assert.equal(get.response.status, 200);
      assert.equal(get.response.headers.get('content-type'), 'text/event-stream');
      // A live stream tells proxies not to buffer or cache it.
      assert.equal(get.response.headers.get('x-accel-buffering'), 'no');
      assert.equal(get.response.headers.get('cache-control'), 'no-cache, no-transform');
      const second = await request(f.url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...inSession(sid) },
      });
      assert.equal(second.status, 409);
      // A call with progress is running on its own POST stream while the tool list changes.
      const call = await openStream(f.url, {
        headers: inSession(sid),
        body: rpc(
          'tools/call',
          { name: 'slow_count', arguments: { n: 3 }, _meta: { progressToken: 'pt' } },
          'c1',
        ),
      });
      await call.sse.next((m) => m.method === 'notifications/progress');
      const reg = f.server.tool({ name: 'runtime_tool', description: 'added at runtime' }, () => 'ok');
      const changed = await get.sse.next((m) => m.method === 'notifications/tools/list_changed');
      assertServerMessage(LEGACY, changed);
      await call.sse.response('c1');
      await call.sse.done;
      reg.remove();
      const changes = () => get.sse.messages().filter((m) => m.method === 'notifications/tools/list_changed');
      await waitFor(() => changes().length === 2, WAIT_MS, 'the second list_changed');
      // Each message travelled on exactly one stream.
      const onGet = get.sse.messages();
      const onPost = call.sse.messages();
      assert.deepEqual(
        onGet.map((m) => m.method),
        ['notifications/tools/list_changed', 'notifications/tools/list_changed'],
      );
      assert.deepEqual(
        onPost.map((m) => m.method ?? `response ${String(m.id)}`),
        ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response c1'],
      );
      for (const m of onPost) assertServerMessage(LEGACY, m, m.id === 'c1' ? 'tools/call' : undefined);
    } finally {
      get.abort();
    }
    // Once the first GET is gone (the server sees it close a moment later), a new one is allowed.
    const again = await waitFor(
      async () => {
        const s = await openStream(f.url, { method: 'GET', headers: inSession(sid) });
        if (s.response.status === 200) return s;
        assert.equal(s.response.status, 409, 'refused only while the first GET is still open');
        s.abort();
        return undefined;
      },
      WAIT_MS,
      'a second GET stream to be accepted',
    );
    again.abort();
  });

  test('elicitation travels on the POST stream; the answer POST gets 202 and the result follows', async () => {
    const sid = await openLegacySession(f.url, { elicitation: { form: {} } });
    const call = await openStream(f.url, {
      headers: inSession(sid),
      body: rpc('tools/call', { name: 'test_elicitation', arguments: { message: 'Who?' } }, 'e1'),
    });
    const ask = await call.sse.next((m) => m.method === 'elicitation/create');
    assertServerMessage(LEGACY, ask);
    assert.notEqual(ask.id, undefined);
    const answer = {
      jsonrpc: '2.0',
      id: ask.id,
      result: { action: 'accept', content: { username: 'ann', email: 'a@b.c' } },
    };
    const posted = await postJson(f.url, answer, inSession(sid));
    assert.equal(posted.status, 202);
    assert.equal(posted.body, '');
    const result = await call.sse.response('e1');
    assertServerMessage(LEGACY, result, 'tools/call');
    assert.match(JSON.stringify(result.result), /ann/);
    await call.sse.done;
    assert.deepEqual(
      call.sse.messages().map((m) => m.method ?? 'response'),
      ['elicitation/create', 'response'],
    );
  });

  test('a JSON-RPC batch is refused with -32600 in 2025-11-25, at once; 2025-03-26 answers it', async () => {
    const sid = await openLegacySession(f.url);
    const r = await postJson(f.url, [rpc('ping'), rpc('ping')], inSession(sid));
    assert.equal(r.status, 400);
    assert.equal(errorCode(r), -32600);
    assert.equal((await postJson(f.url, rpc('ping'), inSession(sid))).status, 200, 'the session lives on');

    const old = await openLegacySession(f.url, {}, '2025-03-26');
    const both = await postJson(f.url, [rpc('ping', undefined, 'b1'), rpc('ping', undefined, 'b2')], {
      'mcp-session-id': old,
    });
    assert.equal(both.status, 200);
    // Both answers on the POST's stream, as separate events or as one batch event.
    assert.deepEqual(sseMessages(both.body).flat(), [
      { jsonrpc: '2.0', id: 'b1', result: {} },
      { jsonrpc: '2.0', id: 'b2', result: {} },
    ]);
  });
});

describe('resumability', () => {
  /** Starts test_reconnection and waits until the server closes the connection mid-call. */
  async function dropped(sid: string, id: string): Promise<{ primingId: string; retry: number | undefined }> {
    const call = await openStream(f.url, {
      headers: inSession(sid),
      body: rpc('tools/call', { name: 'test_reconnection', arguments: {} }, id),
    });
    await call.sse.done;
    const [priming, ...rest] = call.sse.events;
    assert.equal(rest.length, 0, 'nothing but the priming event before the close');
    assert.ok(priming?.id, 'the priming event has an id');
    assert.equal(priming.data, '', 'and empty data');
    return { primingId: priming.id, retry: priming.retry };
  }

  test('SSE polling: the server closes mid-call; GET with Last-Event-ID delivers the result', async () => {
    const sid = await openLegacySession(f.url, {}, '2025-11-25');
    const { primingId, retry } = await dropped(sid, 'r1');
    assert.equal(retry, 1000, 'the retry field comes with the priming event');
    // Resumed at once, probably before the result exists: the headers must not wait for it.
    const opened = Date.now();
    const resumed = await openStream(f.url, {
      method: 'GET',
      headers: { ...inSession(sid, '2025-11-25'), 'last-event-id': primingId },
    });
    assert.ok(Date.now() - opened < 1000, 'the resumed stream answers at once');
    assert.equal(resumed.response.status, 200);
    const result = await resumed.sse.response('r1');
    assertServerMessage('2025-03-26', result, 'tools/call');
    assert.match(JSON.stringify(result.result), /Reconnection test completed successfully/);
    await resumed.sse.done;
    assert.ok(
      resumed.sse.events.every((e) => e.id !== undefined),
      'replayed events carry ids',
    );
    // The stream is finished and forgotten: resuming it again is refused.
    const stale = await request(f.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(sid), 'last-event-id': primingId },
    });
    assert.equal(stale.status, 400);
  });

  test('replay is limited to the requesting stream and session', async () => {
    const a = await openLegacySession(f.url);
    const b = await openLegacySession(f.url);
    const [one, two] = await Promise.all([dropped(a, 's1'), dropped(a, 's2')]);
    assert.notEqual(one.primingId, two.primingId);
    // Session b cannot read session a's streams: 400, and a's events stay there.
    const foreign = await request(f.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(b), 'last-event-id': one.primingId },
    });
    assert.equal(foreign.status, 400);
    const first = await request(f.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(a), 'last-event-id': one.primingId },
    });
    assert.deepEqual(
      sseMessages(first.body).map((m) => m.id),
      ['s1'],
      'only the first stream is replayed',
    );
    const second = await request(f.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(a), 'last-event-id': two.primingId },
    });
    assert.deepEqual(
      sseMessages(second.body).map((m) => m.id),
      ['s2'],
    );
  });

  test('hostile Last-Event-ID values get 4xx and the server carries on', async () => {
    const sid = await openLegacySession(f.url);
    const { primingId } = await dropped(sid, 'h1');
    const stream = primingId.slice(0, primingId.lastIndexOf('.'));
    const hostile = [
      'x'.repeat(10_000),
      '../..',
      '..',
      '.',
      '',
      ' ',
      `${stream}.`,
      `${stream}.-1`,
      `${stream}.1e3`,
      `${stream}.99999999999999999999`,
      `${stream}.0x1`,
      `../${primingId}`,
      `${primingId}/../..`,
      '__proto__.0',
      'constructor.1',
    ];
    for (const id of hostile) {
      const r = await request(f.url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...inSession(sid), 'last-event-id': id },
      });
      assert.ok(r.status >= 400 && r.status < 500, `${JSON.stringify(id.slice(0, 40))} → ${r.status}`);
    }
    // The real id still works afterwards.
    const ok = await request(f.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...inSession(sid), 'last-event-id': primingId },
    });
    assert.deepEqual(
      sseMessages(ok.body).map((m) => m.id),
      ['h1'],
    );
  });
});

describe('limits', () => {
  test('idle sessions expire (sessionIdleMs); one in use does not', async () => {
    // The busy session is used every few ms until the sweep takes the idle one away: the
    // order of events, not a race between 75 ms sleeps and a 150 ms limit, decides.
    const g = await startEverything({ sessionIdleMs: 1000 });
    try {
      const idle = await openLegacySession(g.url);
      const busy = await openLegacySession(g.url);
      await waitFor(
        async () => {
          assert.equal((await postJson(g.url, rpc('ping'), inSession(busy))).status, 200, 'the busy session');
          return g.running.handler.sessionCount === 1;
        },
        30_000,
        'the idle session to expire',
      );
      const r = await postJson(g.url, rpc('ping'), inSession(idle));
      assert.equal(r.status, 404, 'the idle session is gone');
      assert.equal(g.running.handler.sessionCount, 1);
    } finally {
      await g.close();
    }
  });

  test('maxSessions: 2 → the least recently used idle session makes room; 503 only when all are busy', async () => {
    const g = await startEverything({ maxSessions: 2 });
    const streams: Array<{ abort(): void }> = [];
    try {
      const first = await openLegacySession(g.url);
      const second = await openLegacySession(g.url);
      assert.equal((await postJson(g.url, rpc('ping'), inSession(first))).status, 200);
      // `second` is now the least recently used: the newcomer takes its place.
      const third = await postJson(g.url, initializeRequest());
      assert.equal(third.status, 200);
      const thirdId = third.headers['mcp-session-id'] as string;
      assert.equal((await postJson(g.url, rpc('ping'), inSession(second))).status, 404);
      assert.equal((await postJson(g.url, rpc('ping'), inSession(first))).status, 200);
      assert.equal(g.running.handler.sessionCount, 2);
      // Both busy (a GET stream open each): a newcomer gets 503 with Retry-After.
      for (const sid of [first, thirdId]) {
        streams.push(await openStream(g.url, { method: 'GET', headers: inSession(sid) }));
      }
      const fourth = await postJson(g.url, initializeRequest());
      assert.equal(fourth.status, 503);
      assert.ok(fourth.headers['retry-after']);
      assert.equal(fourth.headers['mcp-session-id'], undefined);
      await request(g.url, { method: 'DELETE', headers: inSession(first) });
      await openLegacySession(g.url);
      assert.equal(g.running.handler.sessionCount, 2);
    } finally {
      for (const s of streams) s.abort();
      await g.close();
    }
  });

  test('a notification outside any session is accepted and dropped (202)', async () => {
    const r = await postJson(f.url, notification('notifications/initialized'));
    assert.equal(r.status, 202);
    assert.equal(r.headers['mcp-session-id'], undefined);
  });
});
