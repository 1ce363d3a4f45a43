import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners, setMaxListeners } from 'node:events';
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { LocalErrorCode } from '../jsonrpc/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { DEFAULT_TIMEOUT_MS } from './options.js';
import type { Progress } from './options.js';
import { Session } from './session.js';
import {
  CLIENT_INFO,
  initializedClient,
  initializedServer,
  makeClient,
  sessionPair,
  quiet,
  rejectionOf,
  stateOf,
  withRawPeer,
  wrappedWithRawPeer,
} from '../test-support/session-peers.js';
import type { Msg } from '../test-support/session-peers.js';
import { settle } from '../test-support/waiting.js';

function tokenOf(req: Msg): unknown {
  const meta = req.params?._meta as Record<string, unknown> | undefined;
  return meta?.progressToken;
}

function isLocal(code: LocalErrorCode) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof LocalError, `expected LocalError ${code}, got ${String(e)}`);
    assert.equal(e.code, code);
    return true;
  };
}

describe('Session outbound: ids', () => {
  test('ids are distinct and never reused, even after answers', async () => {
    const { session, peer } = await withRawPeer('client');
    const seen: unknown[] = [];
    for (let round = 0; round < 3; round++) {
      const calls = [session.request('x/a'), session.request('x/b')];
      await settle();
      const reqs = peer.requests().slice(seen.length);
      assert.equal(reqs.length, 2);
      for (const r of reqs) {
        seen.push(r.id);
        await peer.reply(r.id, { n: r.id });
      }
      const results = await Promise.all(calls);
      assert.deepEqual(
        results.map((r) => r.n),
        reqs.map((r) => r.id),
      );
    }
    assert.equal(new Set(seen).size, 6, `ids reused: ${JSON.stringify(seen)}`);
    for (const id of seen) assert.ok(Number.isSafeInteger(id), `bad id ${String(id)}`);
  });

  test('ids are not reused after a failure (timeout, error, cancel)', async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    const a = session.request('x/a', {}, { signal: ac.signal });
    const b = session.request('x/b', {}, { timeoutMs: 1 });
    const c = session.request('x/c');
    const all = Promise.allSettled([a, b, c]);
    await settle();
    ac.abort();
    await peer.send({
      jsonrpc: '2.0',
      id: peer.requests('x/c')[0]?.id as number,
      error: { code: -1, message: 'no' },
    });
    const outcomes = await all;
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    const d = session.request('x/d');
    await settle();
    const ids = peer.requests().map((r) => r.id);
    assert.equal(ids.length, 4);
    assert.equal(new Set(ids).size, 4);
    await peer.reply(peer.requests('x/d')[0]?.id, {});
    await d;
  });

  test('the request on the wire is exactly jsonrpc, id, method and the params given', async () => {
    const { session, peer } = await withRawPeer('client');
    quiet(session.request('x/with', { a: 1 }));
    quiet(session.request('x/without'));
    await settle();
    const [withParams, without] = peer.requests();
    assert.deepEqual(withParams, {
      jsonrpc: '2.0',
      id: withParams?.id,
      method: 'x/with',
      params: { a: 1 },
    });
    assert.deepEqual(without, { jsonrpc: '2.0', id: without?.id, method: 'x/without' });
    await session.close();
  });
});

describe('Session outbound: connection state', () => {
  test('requests and notifications on an unconnected session reject with NotConnected', async () => {
    const { session } = makeClient();
    await assert.rejects(session.request('x/a'), isLocal('NotConnected'));
    await assert.rejects(session.notify('x/n'), isLocal('NotConnected'));
    await assert.rejects(session.initialize(), isLocal('NotConnected'));
    assert.equal(session.isOpen, false);
  });

  test('connecting twice fails with AlreadyConnected', async () => {
    const { session } = await withRawPeer('client');
    await assert.rejects(session.connect(memoryPair()[0]), isLocal('AlreadyConnected'));
    assert.equal(session.isOpen, true);
  });

  test('requests after close reject with ConnectionClosed and send nothing', async () => {
    const { session, peer } = await withRawPeer('client');
    await session.close();
    assert.equal(session.isOpen, false);
    await assert.rejects(session.request('x/a'), isLocal('ConnectionClosed'));
    await assert.rejects(session.notify('x/n'), isLocal('ConnectionClosed'));
    await settle();
    assert.equal(peer.received.length, 0);
  });

  test('closing rejects every pending request at once with ConnectionClosed', async () => {
    const { session, peer } = await withRawPeer('client');
    const calls = [session.request('x/a'), session.request('x/b'), session.request('x/c')];
    await settle();
    assert.equal(session.pendingCount, 3);
    const outcomes = Promise.allSettled(calls);
    const closing = session.close();
    assert.equal(session.pendingCount, 0, 'pending requests survived close()');
    for (const o of await outcomes) {
      assert.equal(o.status, 'rejected');
      isLocal('ConnectionClosed')(o.reason);
    }
    await closing;
    await settle();
    assert.equal(peer.closed, 1, 'the peer did not see the close');
  });

  test('the peer closing rejects pending requests and calls onclose once', async () => {
    const { session, peer } = await withRawPeer('client');
    let closes = 0;
    session.onclose = () => closes++;
    const call = session.request('x/a');
    await settle();
    await peer.transport.close();
    await assert.rejects(call, isLocal('ConnectionClosed'));
    assert.equal(session.isOpen, false);
    await session.close();
    await settle();
    assert.equal(closes, 1);
  });

  test('a send that rejects fails its request with ConnectionClosed', async () => {
    const { session, wrapped } = await wrappedWithRawPeer('client');
    wrapped.sendError = new Error('pipe broke');
    await assert.rejects(session.request('x/a'), (e: unknown) => {
      isLocal('ConnectionClosed')(e);
      assert.equal((e as Error).cause, wrapped.sendError);
      return true;
    });
    assert.equal(session.pendingCount, 0);
  });

  test('a send that throws fails its request with ConnectionClosed', async () => {
    const { session, wrapped } = await wrappedWithRawPeer('client');
    wrapped.sendError = new Error('sync failure');
    wrapped.throwOnSend = true;
    await assert.rejects(session.request('x/a'), isLocal('ConnectionClosed'));
    assert.equal(session.pendingCount, 0);
  });

  test('an error answer rejects with a WireError carrying code, message and data', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request('x/a');
    const req = await peer.request('x/a');
    await peer.send({
      jsonrpc: '2.0',
      id: req.id,
      error: { code: -32042, message: 'go there', data: { url: 'u' } },
    });
    await assert.rejects(call, (e: unknown) => {
      assert.ok(e instanceof WireError);
      assert.equal(e.code, -32042);
      assert.equal(e.message, 'go there');
      assert.deepEqual(e.data, { url: 'u' });
      return true;
    });
    assert.equal(session.pendingCount, 0);
  });
});

describe('Session outbound: timeouts', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
  afterEach(() => mock.timers.reset());

  test('the default timeout is 60 s; on timeout the peer is told with notifications/cancelled', async () => {
    assert.equal(DEFAULT_TIMEOUT_MS, 60_000);
    const { session, peer } = await withRawPeer('client');
    const call = session.request('x/slow');
    const req = await peer.request('x/slow');
    mock.timers.tick(59_999);
    assert.equal(await stateOf(call), 'pending');
    mock.timers.tick(1);
    isLocal('RequestTimeout')(await rejectionOf(call));
    const cancel = await peer.notification('notifications/cancelled');
    assert.deepEqual(cancel.params, { requestId: req.id, reason: 'Request timed out' });
    assert.equal(session.pendingCount, 0);
  });

  test('the session timeoutMs option replaces the default', async () => {
    const { session } = await withRawPeer('client', { timeoutMs: 500 });
    const call = session.request('x/slow');
    mock.timers.tick(499);
    assert.equal(await stateOf(call), 'pending');
    mock.timers.tick(1);
    isLocal('RequestTimeout')(await rejectionOf(call));
  });

  test('a per-request timeoutMs replaces the session one', async () => {
    const { session } = await withRawPeer('client', { timeoutMs: 500 });
    const long = session.request('x/long', {}, { timeoutMs: 2000 });
    const short = session.request('x/short', {}, { timeoutMs: 10 });
    mock.timers.tick(10);
    isLocal('RequestTimeout')(await rejectionOf(short));
    mock.timers.tick(1000);
    assert.equal(await stateOf(long), 'pending');
    mock.timers.tick(990);
    isLocal('RequestTimeout')(await rejectionOf(long));
  });

  test('an answer in time clears the timer: no cancellation later', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request('x/a', {}, { timeoutMs: 100 });
    const req = await peer.request('x/a');
    await peer.reply(req.id, { ok: true });
    assert.deepEqual(await call, { ok: true });
    mock.timers.tick(1000);
    await settle();
    assert.equal(peer.notifications('notifications/cancelled').length, 0);
  });

  test('a late answer after the timeout is ignored (logged) and the session keeps working', async () => {
    const { session, peer, logs } = await withRawPeer('client');
    const call = session.request('x/a', {}, { timeoutMs: 100 });
    const req = await peer.request('x/a');
    mock.timers.tick(100);
    isLocal('RequestTimeout')(await rejectionOf(call));
    await peer.reply(req.id, { late: true });
    await settle();
    assert.ok(logs.some((l) => l.level === 'warning' && /unknown request id/.test(l.message)));
    const next = session.request('x/b');
    const req2 = await peer.request('x/b');
    await peer.reply(req2.id, { fine: 1 });
    assert.deepEqual(await next, { fine: 1 });
  });

  test('progress does not extend the timeout by default', async () => {
    const { session, peer } = await withRawPeer('client');
    const seen: Progress[] = [];
    const call = session.request('x/a', {}, { timeoutMs: 1000, onprogress: (p) => seen.push(p) });
    const req = await peer.request('x/a');
    mock.timers.tick(900);
    await peer.notify('notifications/progress', { progressToken: tokenOf(req), progress: 1 });
    await settle();
    assert.equal(seen.length, 1);
    mock.timers.tick(100);
    isLocal('RequestTimeout')(await rejectionOf(call));
  });

  test('resetTimeoutOnProgress: each progress restarts the timeout', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request(
      'x/a',
      {},
      {
        timeoutMs: 1000,
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
      },
    );
    const req = await peer.request('x/a');
    const token = tokenOf(req);
    mock.timers.tick(900);
    await peer.notify('notifications/progress', { progressToken: token, progress: 1 });
    await settle();
    mock.timers.tick(999);
    assert.equal(await stateOf(call), 'pending');
    mock.timers.tick(1);
    isLocal('RequestTimeout')(await rejectionOf(call));
  });

  test('progress that does not increase does not restart the timeout', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request(
      'x/a',
      {},
      {
        timeoutMs: 1000,
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
      },
    );
    const req = await peer.request('x/a');
    const token = tokenOf(req);
    await peer.notify('notifications/progress', { progressToken: token, progress: 5 });
    await settle();
    mock.timers.tick(900);
    await peer.notify('notifications/progress', { progressToken: token, progress: 5 });
    await settle();
    mock.timers.tick(100);
    isLocal('RequestTimeout')(await rejectionOf(call));
  });

  test('progress never extends a request past maxTotalTimeoutMs', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request(
      'x/a',
      {},
      {
        timeoutMs: 1000,
        maxTotalTimeoutMs: 2500,
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
      },
    );
    const req = await peer.request('x/a');
    const token = tokenOf(req);
    for (let i = 1; i <= 2; i++) {
      mock.timers.tick(900);
      await peer.notify('notifications/progress', { progressToken: token, progress: i });
      await settle();
    }
    // t = 1800; the last progress would allow until 2800, but the cap is 2500.
    mock.timers.tick(699);
    assert.equal(await stateOf(call), 'pending');
    await peer.notify('notifications/progress', { progressToken: token, progress: 3 });
    await settle();
    mock.timers.tick(1);
    isLocal('RequestTimeout')(await rejectionOf(call));
  });

  test('the session maxTotalTimeoutMs applies when the request gives none', async () => {
    const { session } = await withRawPeer('client', { maxTotalTimeoutMs: 300 });
    const call = session.request('x/a', {}, { timeoutMs: 1000 });
    mock.timers.tick(299);
    assert.equal(await stateOf(call), 'pending');
    mock.timers.tick(1);
    isLocal('RequestTimeout')(await rejectionOf(call));
  });

  test('a timed-out initialize sends no notifications/cancelled', async () => {
    const { session, peer } = await withRawPeer('client');
    const init = session.initialize({ timeoutMs: 50 });
    await peer.request('initialize');
    mock.timers.tick(50);
    isLocal('RequestTimeout')(await rejectionOf(init));
    await settle();
    assert.deepEqual(peer.notifications('notifications/cancelled'), []);
    assert.equal(session.legacyState, 'new');
  });
});

describe('Session outbound: progress', () => {
  test('onprogress adds _meta.progressToken (the request id) without touching the caller params', async () => {
    const { session, peer } = await withRawPeer('client');
    const params = Object.freeze({ name: 't', _meta: Object.freeze({ custom: 1 }) });
    quiet(session.request('x/a', params, { onprogress: () => undefined }));
    const req = await peer.request('x/a');
    assert.deepEqual(req.params, { name: 't', _meta: { custom: 1, progressToken: req.id } });
    assert.deepEqual(params, { name: 't', _meta: { custom: 1 } });
    await session.close();
  });

  test('onprogress with no params sends params with only the token', async () => {
    const { session, peer } = await withRawPeer('client');
    quiet(session.request('x/a', undefined, { onprogress: () => undefined }));
    const req = await peer.request('x/a');
    assert.deepEqual(req.params, { _meta: { progressToken: req.id } });
    await session.close();
  });

  test('without onprogress no progressToken is added', async () => {
    const { session, peer } = await withRawPeer('client');
    quiet(session.request('x/a', { _meta: { custom: 1 } }));
    const req = await peer.request('x/a');
    assert.deepEqual(req.params, { _meta: { custom: 1 } });
    await session.close();
  });

  test('progress reaches the callback; non-increasing, foreign and late updates are dropped', async () => {
    const { session, peer } = await withRawPeer('client');
    const seen: Progress[] = [];
    const call = session.request('x/a', {}, { onprogress: (p) => seen.push(p) });
    const req = await peer.request('x/a');
    const token = tokenOf(req);
    const send = (params: Record<string, unknown>) => peer.notify('notifications/progress', params);
    await send({ progressToken: token, progress: 1, total: 10, message: 'one' });
    await send({ progressToken: token, progress: 1 });
    await send({ progressToken: token, progress: 0.5 });
    await send({ progressToken: String(token), progress: 7 }); // a string token is another token
    await send({ progressToken: 999, progress: 8 });
    await send({ progressToken: token, progress: 'x' });
    await send({ progressToken: token, progress: 2, total: 'ten', message: 3 });
    await settle();
    assert.deepEqual(seen, [{ progress: 1, total: 10, message: 'one' }, { progress: 2 }]);
    await peer.reply(req.id, {});
    await call;
    await send({ progressToken: token, progress: 3 });
    await settle();
    assert.equal(seen.length, 2, 'progress after the answer reached the callback');
  });

  test('a throwing onprogress does not break the request', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request(
      'x/a',
      {},
      {
        onprogress: () => {
          throw new Error('bad callback');
        },
      },
    );
    const req = await peer.request('x/a');
    const token = tokenOf(req);
    await peer.notify('notifications/progress', { progressToken: token, progress: 1 });
    await settle();
    await peer.reply(req.id, { done: true });
    assert.deepEqual(await call, { done: true });
  });

  test('end to end: ctx.progress reaches onprogress', async () => {
    const { server, client } = await sessionPair();
    server.setRequestHandler('x/work', (_p, ctx) => {
      ctx.progress(1, 3);
      ctx.progress(2, 3, 'two');
      ctx.progress(2, 3, 'again'); // not increasing: dropped
      ctx.progress(3, 3);
      return { finished: true };
    });
    // A request before initialize: the server only answers ping, so initialize first.
    await client.initialize();
    const seen: Progress[] = [];
    const out = await client.request('x/work', {}, { onprogress: (p) => seen.push(p) });
    assert.deepEqual(out, { finished: true });
    assert.deepEqual(seen, [
      { progress: 1, total: 3 },
      { progress: 2, total: 3, message: 'two' },
      { progress: 3, total: 3 },
    ]);
  });
});

describe('Session outbound: cancellation', () => {
  test('aborting rejects with Cancelled and sends notifications/cancelled with the reason', async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    const call = session.request('x/a', {}, { signal: ac.signal });
    const req = await peer.request('x/a');
    ac.abort('user pressed stop');
    await assert.rejects(call, (e: unknown) => {
      isLocal('Cancelled')(e);
      assert.equal((e as Error).cause, 'user pressed stop');
      return true;
    });
    assert.equal(session.pendingCount, 0);
    const cancel = await peer.notification('notifications/cancelled');
    assert.deepEqual(cancel.params, { requestId: req.id, reason: 'user pressed stop' });
    // A late answer is ignored and does not disturb anything.
    await peer.reply(req.id, {});
    await settle();
    assert.equal(session.isOpen, true);
  });

  test('an Error reason is sent as its message', async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    const call = session.request('x/a', {}, { signal: ac.signal });
    await peer.request('x/a');
    ac.abort(new Error('changed my mind'));
    await assert.rejects(call, isLocal('Cancelled'));
    const cancel = await peer.notification('notifications/cancelled');
    assert.equal(cancel.params?.reason, 'changed my mind');
  });

  test('abort() without a reason sends a string reason', async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    const call = session.request('x/a', {}, { signal: ac.signal });
    await peer.request('x/a');
    ac.abort();
    await assert.rejects(call, isLocal('Cancelled'));
    const cancel = await peer.notification('notifications/cancelled');
    assert.equal(typeof cancel.params?.reason, 'string');
    assert.ok((cancel.params?.reason as string).length > 0);
  });

  test('an already-aborted signal rejects at once and never sends the request', async () => {
    const { session, peer } = await withRawPeer('client');
    const reason = new Error('too late');
    await assert.rejects(session.request('x/a', {}, { signal: AbortSignal.abort(reason) }), (e: unknown) => {
      isLocal('Cancelled')(e);
      assert.equal((e as Error).cause, reason);
      return true;
    });
    await settle();
    assert.deepEqual(peer.received, []);
    assert.equal(session.pendingCount, 0);
  });

  test('aborting after the answer does nothing', async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    const call = session.request('x/a', {}, { signal: ac.signal });
    const req = await peer.request('x/a');
    await peer.reply(req.id, { r: 1 });
    assert.deepEqual(await call, { r: 1 });
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
    ac.abort();
    await settle();
    assert.deepEqual(peer.notifications('notifications/cancelled'), []);
  });

  test('a transport that cancels by itself (abortRequest) gets no notifications/cancelled', async () => {
    const { session, peer, wrapped } = await wrappedWithRawPeer('client');
    const aborted: unknown[] = [];
    wrapped.abortRequest = (id) => {
      aborted.push(id);
      return true;
    };
    const ac = new AbortController();
    const call = session.request('x/a', {}, { signal: ac.signal });
    const req = await peer.request('x/a');
    ac.abort();
    await assert.rejects(call, isLocal('Cancelled'));
    await settle();
    assert.deepEqual(aborted, [req.id]);
    assert.deepEqual(peer.notifications('notifications/cancelled'), []);
  });

  test('a transport whose abortRequest returns false still gets the notification', async () => {
    const { session, peer, wrapped } = await wrappedWithRawPeer('client');
    wrapped.abortRequest = () => false;
    const ac = new AbortController();
    const call = session.request('x/a', {}, { signal: ac.signal });
    const req = await peer.request('x/a');
    ac.abort('r');
    await assert.rejects(call, isLocal('Cancelled'));
    const cancel = await peer.notification('notifications/cancelled');
    assert.equal(cancel.params?.requestId, req.id);
  });

  test('initialize is never cancelled by notification', async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    const init = session.initialize({ signal: ac.signal });
    await peer.request('initialize');
    ac.abort('stop');
    await assert.rejects(init, isLocal('Cancelled'));
    await settle();
    assert.deepEqual(peer.notifications('notifications/cancelled'), []);
    // Also when sent through request() directly.
    const ac2 = new AbortController();
    const raw = session.request(
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { ...CLIENT_INFO } },
      { signal: ac2.signal },
    );
    await settle();
    ac2.abort();
    await assert.rejects(raw, isLocal('Cancelled'));
    await settle();
    assert.deepEqual(peer.notifications('notifications/cancelled'), []);
  });
});

describe('Session outbound: a shared long-lived AbortSignal', () => {
  const N = 10_000;

  test(`${N} sequential requests leave no abort listeners behind`, async () => {
    const { server, client } = await sessionPair();
    server.setRequestHandler('x/echo', (p) => ({ n: p.n }));
    await client.initialize();
    const ac = new AbortController();
    for (let i = 0; i < N; i++) {
      const r = await client.request('x/echo', { n: i }, { signal: ac.signal });
      if (r.n !== i) assert.fail(`answer ${String(r.n)} for request ${i}`);
    }
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
    assert.equal(client.pendingCount, 0);
  });

  test(`${N} concurrent requests (answered, failed and timed out) leave no listeners behind`, async () => {
    const { server, client } = await sessionPair();
    server.setRequestHandler('x/echo', (p) => {
      if ((p.n as number) % 3 === 1) throw new WireError(ErrorCode.InvalidParams, 'odd one');
      if ((p.n as number) % 3 === 2) return new Promise(() => undefined); // never answers
      return { n: p.n };
    });
    await client.initialize();
    // Fake timers: the unanswered third times out only when the test says so.
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      const ac = new AbortController();
      setMaxListeners(N + 10, ac.signal);
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < N; i++) {
        calls.push(client.request('x/echo', { n: i }, { signal: ac.signal, timeoutMs: 200 }));
      }
      assert.equal(getEventListeners(ac.signal, 'abort').length, N, 'one listener per pending call');
      const all = Promise.allSettled(calls);
      for (let turn = 0; turn < 1000 && client.pendingCount > 3333; turn++) await settle(1);
      assert.equal(client.pendingCount, 3333, 'answers did not arrive');
      assert.equal(getEventListeners(ac.signal, 'abort').length, 3333);
      mock.timers.tick(200);
      const outcomes = await all;
      const counts = { ok: 0, wire: 0, timeout: 0 };
      for (const o of outcomes) {
        if (o.status === 'fulfilled') counts.ok++;
        else if (o.reason instanceof WireError) counts.wire++;
        else if (o.reason instanceof LocalError && o.reason.code === 'RequestTimeout') counts.timeout++;
      }
      assert.deepEqual(counts, { ok: 3334, wire: 3333, timeout: 3333 });
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
      assert.equal(client.pendingCount, 0);
    } finally {
      mock.timers.reset();
    }
  });

  test(`aborting the shared signal cancels all ${N} pending requests and leaves no listeners`, async () => {
    const { session, peer } = await withRawPeer('client');
    const ac = new AbortController();
    setMaxListeners(N + 10, ac.signal);
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < N; i++) calls.push(session.request('x/never', {}, { signal: ac.signal }));
    assert.equal(session.pendingCount, N);
    ac.abort('shutdown');
    const outcomes = await Promise.allSettled(calls);
    assert.ok(
      outcomes.every(
        (o) => o.status === 'rejected' && o.reason instanceof LocalError && o.reason.code === 'Cancelled',
      ),
    );
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
    assert.equal(session.pendingCount, 0);
    await peer.waitFor(
      () => (peer.notifications('notifications/cancelled').length === N ? true : undefined),
      `${N} cancellations`,
    );
  });

  test('closing the connection removes the listeners of every pending request', async () => {
    const { session } = await withRawPeer('client');
    const ac = new AbortController();
    const calls = [1, 2, 3].map(() => session.request('x/never', {}, { signal: ac.signal }));
    assert.equal(getEventListeners(ac.signal, 'abort').length, 3);
    await session.close();
    await Promise.allSettled(calls);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
  });
});

describe('Session outbound: capability gating', () => {
  test('a client refuses tools/call when the server did not declare tools', async () => {
    const { session, peer } = await initializedClient({}, { capabilities: { prompts: {} } });
    await assert.rejects(session.request('tools/call', { name: 'x' }), isLocal('CapabilityNotSupported'));
    await assert.rejects(session.request('tools/list'), isLocal('CapabilityNotSupported'));
    await assert.rejects(
      session.request('resources/read', { uri: 'a:b' }),
      isLocal('CapabilityNotSupported'),
    );
    await settle();
    assert.deepEqual(peer.requests('tools/call'), []);
    assert.deepEqual(peer.requests('tools/list'), []);
    // prompts was declared:
    quiet(session.request('prompts/list'));
    await peer.request('prompts/list');
  });

  test('a client sends tools/call when the server declared tools', async () => {
    const { session, peer } = await initializedClient({}, { capabilities: { tools: {} } });
    const call = session.request('tools/call', { name: 'x' });
    const req = await peer.request('tools/call');
    await peer.reply(req.id, { content: [] });
    assert.deepEqual(await call, { content: [] });
  });

  test('a nested capability path is checked: resources/subscribe needs resources.subscribe', async () => {
    const without = await initializedClient({}, { capabilities: { resources: {} } });
    await assert.rejects(
      without.session.request('resources/subscribe', { uri: 'a:b' }),
      isLocal('CapabilityNotSupported'),
    );
    for (const bad of [false, null]) {
      const c = await initializedClient({}, { capabilities: { resources: { subscribe: bad } } });
      await assert.rejects(
        c.session.request('resources/subscribe', { uri: 'a:b' }),
        isLocal('CapabilityNotSupported'),
      );
    }
    const withIt = await initializedClient({}, { capabilities: { resources: { subscribe: true } } });
    quiet(withIt.session.request('resources/subscribe', { uri: 'a:b' }));
    await withIt.peer.request('resources/subscribe');
  });

  test('completion/complete is not gated in 2024-11-05, and is from 2025-03-26', async () => {
    const old = await initializedClient({}, { protocolVersion: '2024-11-05', capabilities: {} });
    assert.equal(old.session.protocolVersion, '2024-11-05');
    quiet(old.session.request('completion/complete', { ref: {}, argument: { name: 'a', value: '' } }));
    await old.peer.request('completion/complete');

    const newer = await initializedClient({}, { protocolVersion: '2025-03-26', capabilities: {} });
    await assert.rejects(newer.session.request('completion/complete', {}), isLocal('CapabilityNotSupported'));
    const declared = await initializedClient(
      {},
      { protocolVersion: '2025-03-26', capabilities: { completions: {} } },
    );
    quiet(declared.session.request('completion/complete', {}));
    await declared.peer.request('completion/complete');
  });

  test('before initialize, nothing about the peer is known and nothing is gated', async () => {
    const { session, peer } = await withRawPeer('client');
    quiet(session.request('tools/list'));
    await peer.request('tools/list');
    await session.close();
  });

  test('a client refuses to send what only servers send', async () => {
    const { session } = await initializedClient({}, { capabilities: { tools: {} } });
    await assert.rejects(session.request('sampling/createMessage', {}), isLocal('CapabilityNotSupported'));
    await assert.rejects(session.request('roots/list'), isLocal('CapabilityNotSupported'));
    await assert.rejects(
      session.notify('notifications/tools/list_changed'),
      isLocal('CapabilityNotSupported'),
    );
  });

  test('requests and notifications are not interchangeable', async () => {
    const { session } = await initializedClient({}, { capabilities: { tools: {} } });
    await assert.rejects(
      session.request('notifications/cancelled', { requestId: 1 }),
      isLocal('CapabilityNotSupported'),
    );
    await assert.rejects(session.notify('tools/list'), isLocal('CapabilityNotSupported'));
  });

  test('methods outside the negotiated revision are refused', async () => {
    const { session } = await initializedClient({}, { protocolVersion: '2024-11-05', capabilities: {} });
    await assert.rejects(session.request('tasks/get', { taskId: 't' }), isLocal('CapabilityNotSupported'));
  });

  test('a server refuses sampling/createMessage to a client that did not declare sampling', async () => {
    const { session, peer } = await initializedServer({}, { capabilities: { roots: {} } });
    await assert.rejects(
      session.request('sampling/createMessage', { messages: [] }),
      isLocal('CapabilityNotSupported'),
    );
    await assert.rejects(session.request('elicitation/create', {}), isLocal('CapabilityNotSupported'));
    quiet(session.request('roots/list'));
    await peer.request('roots/list');
    await settle();
    assert.deepEqual(peer.requests('sampling/createMessage'), []);
  });

  test('a server sends sampling/createMessage to a client that declared sampling', async () => {
    const { session, peer } = await initializedServer({}, { capabilities: { sampling: {} } });
    const call = session.request('sampling/createMessage', { messages: [], maxTokens: 1 });
    const req = await peer.request('sampling/createMessage');
    await peer.reply(req.id, {
      role: 'assistant',
      content: { type: 'text', text: 'hi' },
      model: 'm',
    });
    assert.equal((await call).model, 'm');
  });

  test('a server refuses to send notifications for capabilities it did not declare', async () => {
    const without = await initializedServer();
    await assert.rejects(
      without.session.notify('notifications/tools/list_changed'),
      isLocal('CapabilityNotSupported'),
    );
    await assert.rejects(
      without.session.notify('notifications/message', { level: 'info', data: 'x' }),
      isLocal('CapabilityNotSupported'),
    );
    const withTools = await initializedServer({ capabilities: { tools: { listChanged: true } } });
    await withTools.session.notify('notifications/tools/list_changed');
    await withTools.peer.notification('notifications/tools/list_changed');
  });

  test('custom methods are never gated', async () => {
    const { session, peer } = await initializedClient({}, { capabilities: {} });
    quiet(session.request('vendor/thing', { a: 1 }));
    await peer.request('vendor/thing');
    await session.notify('vendor/event', { b: 2 });
    const n = await peer.notification('vendor/event');
    assert.deepEqual(n.params, { b: 2 });
  });
});

describe('Session outbound: a session is usable right after construction', () => {
  test('a fresh Session has nothing pending and no era', () => {
    const s = new Session({ role: 'client', info: { ...CLIENT_INFO } });
    assert.equal(s.pendingCount, 0);
    assert.equal(s.inboundCount, 0);
    assert.equal(s.era, undefined);
    assert.equal(s.protocolVersion, undefined);
    assert.equal(s.legacyState, 'new');
    assert.equal(s.isOpen, false);
  });
});
