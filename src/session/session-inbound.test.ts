import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners, setMaxListeners } from 'node:events';
import { ErrorCode, LocalError, WireError, parseFrame } from '../jsonrpc/index.js';
import type { JsonRpcNotification } from '../jsonrpc/index.js';
import type { RequestContext } from './request-context.js';
import type { RequestHandler } from './session-types.js';
import {
  CLIENT_INFO,
  SERVER_INFO,
  initializedClient,
  initializedServer,
  sessionPair,
  quiet,
  stateOf,
  withRawPeer,
  wrappedWithRawPeer,
} from '../test-support/session-peers.js';
import type { Msg } from '../test-support/session-peers.js';
import { settle, deferred } from '../test-support/waiting.js';

function assertError(m: Msg, id: unknown, code: number): void {
  assert.equal(m.id, id, `wrong id in ${JSON.stringify(m)}`);
  assert.equal(m.result, undefined, `expected an error, got ${JSON.stringify(m)}`);
  assert.equal(m.error?.code, code, `wrong code in ${JSON.stringify(m)}`);
}

describe('Session inbound: the handler context', () => {
  test('carries id, method, params, meta, peer info, capabilities, version and era', async () => {
    const { session, peer } = await initializedServer(
      {},
      { protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: true } } },
    );
    let ctx: RequestContext | undefined;
    let got: unknown;
    session.setRequestHandler('x/inspect', (params, c) => {
      got = params;
      ctx = c;
      return {};
    });
    const params = { a: 1, _meta: { progressToken: 'tok', vendor: 'v' } };
    const res = await peer.call('q1', 'x/inspect', params);
    assert.deepEqual(res.result, {});
    assert.ok(ctx);
    assert.deepEqual(got, params);
    assert.equal(ctx.requestId, 'q1');
    assert.equal(ctx.method, 'x/inspect');
    assert.deepEqual(ctx.params, params);
    assert.deepEqual(ctx.meta, { progressToken: 'tok', vendor: 'v' });
    assert.equal(ctx.progressToken, 'tok');
    assert.deepEqual(ctx.peerInfo, CLIENT_INFO);
    assert.deepEqual(ctx.peerCapabilities, { roots: { listChanged: true } });
    assert.equal(ctx.protocolVersion, '2025-06-18');
    assert.equal(ctx.era, 'legacy');
    assert.equal(ctx.signal.aborted, false);
    assert.equal(ctx.authInfo, undefined);
  });

  test('a request without params gives the handler an empty object and no meta', async () => {
    const { session, peer } = await initializedServer();
    let got: unknown;
    let meta: unknown = 'unset';
    session.setRequestHandler('x/bare', (params, ctx) => {
      got = params;
      meta = ctx.meta;
      return {};
    });
    await peer.call(1, 'x/bare');
    assert.deepEqual(got, {});
    assert.equal(meta, undefined);
  });

  test('the client side sees the server as peer', async () => {
    const { server, client } = await sessionPair({
      capabilities: { tools: {} },
      instructions: 'be nice',
    });
    await client.initialize();
    let ctx: RequestContext | undefined;
    client.setRequestHandler('x/from-server', (_p, c) => {
      ctx = c;
      return { ok: 1 };
    });
    assert.deepEqual(await server.request('x/from-server'), { ok: 1 });
    assert.ok(ctx);
    assert.deepEqual(ctx.peerInfo, SERVER_INFO);
    assert.deepEqual(ctx.peerCapabilities, { tools: {} });
    assert.equal(ctx.protocolVersion, '2025-11-25');
    assert.equal(ctx.era, 'legacy');
  });

  test('FrameInfo: authInfo reaches the context, and its signal cancels the request', async () => {
    const { session, peer } = await initializedServer();
    const started = deferred<RequestContext>();
    const finish = deferred<unknown>();
    session.setRequestHandler('x/stream', (_p, ctx) => {
      started.resolve(ctx);
      return finish.promise;
    });
    const streamClosed = new AbortController();
    session.receive(parseFrame('{"jsonrpc":"2.0","id":"s1","method":"x/stream"}'), {
      authInfo: { token: 'abc' },
      signal: streamClosed.signal,
    });
    const ctx = await started.promise;
    assert.deepEqual(ctx.authInfo, { token: 'abc' });
    const signal = ctx.signal;
    streamClosed.abort();
    assert.equal(signal.aborted, true);
    finish.resolve({ late: true });
    await settle();
    assert.deepEqual(peer.responsesTo('s1'), [], 'answered a request whose stream closed');
    assert.equal(session.inboundCount, 0);
  });

  test('FrameInfo: an already-aborted signal cancels before the handler runs', async () => {
    const { session, peer } = await initializedServer();
    let abortedAtStart: boolean | undefined;
    session.setRequestHandler('x/stream', (_p, ctx) => {
      abortedAtStart = ctx.signal.aborted;
      return {};
    });
    session.receive(parseFrame('{"jsonrpc":"2.0","id":"s2","method":"x/stream"}'), {
      signal: AbortSignal.abort(),
    });
    await settle();
    assert.equal(abortedAtStart, true);
    assert.deepEqual(peer.responsesTo('s2'), []);
  });
});

describe('Session inbound: a FrameInfo signal shared by many requests', () => {
  test('leaves no abort listeners behind once the requests are answered', {}, async () => {
    const { session, peer } = await initializedServer();
    session.setRequestHandler('x/echo', (p) => ({ n: p.n }));
    const stream = new AbortController();
    setMaxListeners(2000, stream.signal);
    for (let i = 0; i < 1000; i++) {
      session.receive(parseFrame(`{"jsonrpc":"2.0","id":${i},"method":"x/echo","params":{"n":${i}}}`), {
        signal: stream.signal,
      });
    }
    await peer.waitFor(() => (peer.messages.length === 1000 ? true : undefined), '1000 answers');
    assert.equal(session.inboundCount, 0);
    assert.equal(getEventListeners(stream.signal, 'abort').length, 0);
  });
});

describe('Session inbound: answers', () => {
  test('an object result is sent as it is', async () => {
    const { session, peer } = await initializedServer();
    session.setRequestHandler('x/obj', () => ({ a: [1, { b: 2 }], s: 'x' }));
    const res = await peer.call(7, 'x/obj');
    assert.deepEqual(res, { jsonrpc: '2.0', id: 7, result: { a: [1, { b: 2 }], s: 'x' } });
  });

  for (const [name, handler] of [
    ['undefined', () => undefined],
    ['null', () => null],
    ['a promise of undefined', async () => undefined],
    ['a promise of null', () => Promise.resolve(null)],
  ] as Array<[string, RequestHandler]>) {
    test(`a handler returning ${name} answers {}`, async () => {
      const { session, peer } = await initializedServer();
      session.setRequestHandler('x/none', handler);
      const res = await peer.call('n', 'x/none');
      assert.deepEqual(res, { jsonrpc: '2.0', id: 'n', result: {} });
    });
  }

  for (const value of ['text', 42, true, [1, 2]]) {
    test(`a handler returning ${JSON.stringify(value)} (not an object) answers -32603`, async () => {
      const { session, peer, logs } = await initializedServer();
      session.setRequestHandler('x/bad', () => value);
      const res = await peer.call(1, 'x/bad');
      assertError(res, 1, ErrorCode.InternalError);
      assert.ok(logs.some((l) => l.level === 'error' && l.detail === value));
    });
  }

  for (const mode of ['throws', 'rejects'] as const) {
    test(`a handler that ${mode} a plain Error answers -32603 'Internal error' with no detail`, async () => {
      const { session, peer, logs } = await initializedServer();
      const secret = new Error('db password is hunter2');
      session.setRequestHandler('x/boom', () => {
        if (mode === 'throws') throw secret;
        return Promise.reject(secret);
      });
      const res = await peer.call(3, 'x/boom');
      assert.deepEqual(res, {
        jsonrpc: '2.0',
        id: 3,
        error: { code: ErrorCode.InternalError, message: 'Internal error' },
      });
      const wire = JSON.stringify(peer.received);
      assert.ok(!wire.includes('hunter2'), 'the error message crossed the wire');
      assert.ok(!wire.includes('at '), 'a stack crossed the wire');
      const entry = logs.find((l) => l.level === 'error');
      assert.ok(entry, 'the logger was not told');
      assert.equal(entry.detail, secret);
      assert.match(entry.message, /x\/boom/);
    });
  }

  for (const [name, thrown] of [
    ['undefined', undefined],
    ['null', null],
    ['a string', 'nope'],
    ['a LocalError', new LocalError('RequestTimeout', 'inner timeout')],
  ] as Array<[string, unknown]>) {
    test(`a handler rejecting with ${name} still gets an answer (-32603)`, async () => {
      const { session, peer } = await initializedServer();
      session.setRequestHandler('x/odd', () => Promise.reject(thrown));
      const res = await peer.call('o', 'x/odd');
      assert.deepEqual(res.error, { code: ErrorCode.InternalError, message: 'Internal error' });
      session.setRequestHandler('x/odd-sync', () => {
        throw thrown;
      });
      const res2 = await peer.call('o2', 'x/odd-sync');
      assert.deepEqual(res2.error, { code: ErrorCode.InternalError, message: 'Internal error' });
    });
  }

  test('a thrown WireError is sent as it is: code, message and data', async () => {
    const { session, peer, logs } = await initializedServer();
    session.setRequestHandler('x/wire', () => {
      throw new WireError(-32042, 'Open this URL', { elicitations: [{ url: 'https://x' }] });
    });
    session.setRequestHandler('x/wire-async', async () => {
      throw WireError.invalidParams('bad name');
    });
    session.setRequestHandler('x/wire-custom', () => Promise.reject(new WireError(1234, 'custom')));
    assert.deepEqual((await peer.call(1, 'x/wire')).error, {
      code: -32042,
      message: 'Open this URL',
      data: { elicitations: [{ url: 'https://x' }] },
    });
    const e2 = (await peer.call(2, 'x/wire-async')).error;
    assert.deepEqual(e2, { code: -32602, message: 'bad name' });
    assert.equal(Object.hasOwn(e2 ?? {}, 'data'), false);
    assert.deepEqual((await peer.call(3, 'x/wire-custom')).error, {
      code: 1234,
      message: 'custom',
    });
    assert.equal(logs.filter((l) => l.level === 'error').length, 0, 'WireErrors are not internal errors');
  });

  test('an unknown method answers -32601 echoing the id', async () => {
    const { peer } = await initializedServer();
    const res = await peer.call('u', 'x/unknown');
    assertError(res, 'u', ErrorCode.MethodNotFound);
    assert.match(res.error?.message ?? '', /x\/unknown/);
  });

  for (const method of [
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    '__defineGetter__',
    'toLocaleString',
  ]) {
    test(`method ${method} answers -32601, never an Object.prototype function`, async () => {
      const shared = new Map<string, RequestHandler>([['x/real', () => ({})]]);
      const { peer } = await initializedServer({ requestHandlers: shared });
      const res = await peer.call(1, method);
      assertError(res, 1, ErrorCode.MethodNotFound);
      // And as a notification: nothing happens, nothing breaks.
      await peer.notify(method, { a: 1 });
      assert.deepEqual((await peer.call(2, 'x/real')).result, {});
    });
  }

  test('own handlers win over shared ones; shared ones serve the rest', async () => {
    const shared = new Map<string, RequestHandler>([
      ['x/a', () => ({ from: 'shared' })],
      ['x/b', () => ({ from: 'shared' })],
    ]);
    const { session, peer } = await initializedServer({ requestHandlers: shared });
    session.setRequestHandler('x/a', () => ({ from: 'own' }));
    assert.deepEqual((await peer.call(1, 'x/a')).result, { from: 'own' });
    assert.deepEqual((await peer.call(2, 'x/b')).result, { from: 'shared' });
    assert.equal(shared.size, 2, 'the shared map was written to');
  });

  test('string and numeric ids with the same digits are different requests', async () => {
    const { session, peer } = await initializedServer();
    const gate = deferred();
    session.setRequestHandler('x/wait', async (p) => {
      await gate.promise;
      return { which: p.which };
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'x/wait', params: { which: 'number' } });
    await peer.send({ jsonrpc: '2.0', id: '1', method: 'x/wait', params: { which: 'string' } });
    await settle();
    assert.equal(session.inboundCount, 2);
    gate.resolve(undefined);
    assert.deepEqual((await peer.response(1)).result, { which: 'number' });
    assert.deepEqual((await peer.response('1')).result, { which: 'string' });
  });
});

describe('Session inbound: duplicate ids', () => {
  test('a duplicate id while the first is in flight gets -32600; the first completes normally', async () => {
    const { session, peer } = await initializedServer();
    const gate = deferred();
    let calls = 0;
    session.setRequestHandler('x/slow', async (p) => {
      calls++;
      await gate.promise;
      return { value: p.v };
    });
    await peer.send({ jsonrpc: '2.0', id: 'dup', method: 'x/slow', params: { v: 1 } });
    await settle();
    await peer.send({ jsonrpc: '2.0', id: 'dup', method: 'x/other', params: { v: 2 } });
    const refusal = await peer.response('dup');
    assertError(refusal, 'dup', ErrorCode.InvalidRequest);
    assert.equal(calls, 1);
    gate.resolve(undefined);
    await peer.waitFor(() => (peer.responsesTo('dup').length === 2 ? true : undefined), 'the first answer');
    assert.deepEqual(peer.responsesTo('dup')[1], {
      jsonrpc: '2.0',
      id: 'dup',
      result: { value: 1 },
    });
    assert.equal(session.inboundCount, 0);
  });

  test('an id may come again once its request is answered', async () => {
    const { session, peer } = await initializedServer();
    let n = 0;
    session.setRequestHandler('x/count', () => ({ n: ++n }));
    assert.deepEqual((await peer.call(5, 'x/count')).result, { n: 1 });
    await peer.send({ jsonrpc: '2.0', id: 5, method: 'x/count' });
    await peer.waitFor(() => (peer.responsesTo(5).length === 2 ? true : undefined), 'second answer');
    assert.deepEqual(peer.responsesTo(5)[1]?.result, { n: 2 });
  });
});

describe('Session inbound: cancellation', () => {
  test('notifications/cancelled fires ctx.signal and suppresses the answer', async () => {
    const { session, peer } = await initializedServer();
    const seen = deferred<unknown>();
    session.setRequestHandler('x/long', (_p, ctx) => {
      return new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          seen.resolve(ctx.signal.reason);
          resolve({ partial: true });
        });
      });
    });
    await peer.send({ jsonrpc: '2.0', id: 'c1', method: 'x/long' });
    await settle();
    assert.equal(session.inboundCount, 1);
    await peer.notify('notifications/cancelled', { requestId: 'c1', reason: 'user stop' });
    assert.equal(await seen.promise, 'user stop');
    await settle();
    assert.deepEqual(peer.responsesTo('c1'), []);
    assert.equal(session.inboundCount, 0);
  });

  test('a handler failing after cancellation sends nothing either', async () => {
    const { session, peer } = await initializedServer();
    const gate = deferred();
    session.setRequestHandler('x/long', async () => {
      await gate.promise;
      throw new WireError(-32000, 'after cancel');
    });
    await peer.send({ jsonrpc: '2.0', id: 9, method: 'x/long' });
    await settle();
    await peer.notify('notifications/cancelled', { requestId: 9 });
    await settle();
    gate.resolve(undefined);
    await settle();
    assert.deepEqual(peer.responsesTo(9), []);
  });

  test('ctx.signal read after the cancellation is already aborted, with the reason', async () => {
    const { session, peer } = await initializedServer();
    const gate = deferred();
    const state = deferred<[boolean, unknown]>();
    session.setRequestHandler('x/late-look', async (_p, ctx) => {
      await gate.promise;
      state.resolve([ctx.signal.aborted, ctx.signal.reason]);
    });
    await peer.send({ jsonrpc: '2.0', id: 'l', method: 'x/late-look' });
    await settle();
    await peer.notify('notifications/cancelled', { requestId: 'l', reason: 'why' });
    await settle();
    gate.resolve(undefined);
    assert.deepEqual(await state.promise, [true, 'why']);
  });

  test('cancellations for unknown or invalid ids are ignored', async () => {
    const { session, peer } = await initializedServer();
    const gate = deferred();
    let aborted = false;
    session.setRequestHandler('x/long', async (_p, ctx) => {
      ctx.signal.addEventListener('abort', () => (aborted = true));
      await gate.promise;
      return { done: true };
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'x/long' });
    await settle();
    for (const requestId of ['1', 2, 1.5, null, undefined, { id: 1 }]) {
      await peer.notify('notifications/cancelled', requestId === undefined ? {} : { requestId });
    }
    await peer.notify('notifications/cancelled');
    await settle();
    assert.equal(aborted, false);
    gate.resolve(undefined);
    assert.deepEqual((await peer.response(1)).result, { done: true });
  });

  test('closing the connection fires ctx.signal of every request in flight', async () => {
    const { session, peer } = await initializedServer();
    const reasons: unknown[] = [];
    const started = deferred();
    let n = 0;
    session.setRequestHandler('x/hang', (_p, ctx) => {
      ctx.signal.addEventListener('abort', () => reasons.push(ctx.signal.reason));
      if (++n === 2) started.resolve(undefined);
      return new Promise(() => undefined);
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'x/hang' });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'x/hang' });
    await started.promise;
    await peer.transport.close();
    await settle();
    assert.deepEqual(reasons, ['The connection closed', 'The connection closed']);
    assert.equal(session.inboundCount, 0);
    assert.equal(session.isOpen, false);
  });

  test('a handler finishing after close sends nothing and does not throw', async () => {
    const { session, peer } = await initializedServer();
    const gate = deferred();
    session.setRequestHandler('x/slow', async () => {
      await gate.promise;
      return { late: 1 };
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'x/slow' });
    await settle();
    await session.close();
    gate.resolve(undefined);
    await settle();
    assert.deepEqual(peer.responsesTo(1), []);
  });
});

describe('Session inbound: progress, logs and notifications from a handler', () => {
  test('ctx.progress sends increasing notifications/progress with the peer token', async () => {
    const { session, peer } = await initializedServer();
    session.setRequestHandler('x/p', (_p, ctx) => {
      ctx.progress(0, 2);
      ctx.progress(0);
      ctx.progress(1, 2, 'half');
      ctx.progress(0.5);
      ctx.progress(2, 2);
      return {};
    });
    await peer.call(1, 'x/p', { _meta: { progressToken: 0 } });
    const sent = peer.notifications('notifications/progress').map((n) => n.params);
    assert.deepEqual(sent, [
      { progressToken: 0, progress: 0, total: 2 },
      { progressToken: 0, progress: 1, total: 2, message: 'half' },
      { progressToken: 0, progress: 2, total: 2 },
    ]);
    // Notifications come before the answer.
    const idx = peer.received.findIndex((m) => !Array.isArray(m) && m.id === 1);
    const lastProgress = peer.received.findLastIndex(
      (m) => !Array.isArray(m) && m.method === 'notifications/progress',
    );
    assert.ok(lastProgress < idx);
  });

  test('ctx.progress is a no-op without a token, or with an unusable one', async () => {
    const { session, peer } = await initializedServer();
    session.setRequestHandler('x/p', (_p, ctx) => {
      ctx.progress(1, 2);
      return {};
    });
    await peer.call(1, 'x/p');
    await peer.call(2, 'x/p', { _meta: { progressToken: null } });
    await peer.call(3, 'x/p', { _meta: { progressToken: { t: 1 } } });
    await settle();
    assert.deepEqual(peer.notifications('notifications/progress'), []);
  });

  test('ctx.progress, ctx.log and ctx.notify send nothing after the answer or a cancel', async () => {
    const { session, peer } = await initializedServer({ capabilities: { logging: {} } });
    let kept: RequestContext | undefined;
    const gate = deferred();
    session.setRequestHandler('x/keep', (_p, ctx) => {
      kept = ctx;
      return {};
    });
    session.setRequestHandler('x/cancelled', async (_p, ctx) => {
      await gate.promise;
      ctx.progress(1);
      ctx.log('error', 'after cancel');
      ctx.notify('vendor/after', {});
    });
    await peer.call(1, 'x/keep', { _meta: { progressToken: 't' } });
    assert.ok(kept);
    kept.progress(1);
    kept.log('emergency', 'too late');
    kept.notify('vendor/late', {});
    await peer.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'x/cancelled',
      params: { _meta: { progressToken: 'u' } },
    });
    await settle();
    await peer.notify('notifications/cancelled', { requestId: 2 });
    await settle();
    gate.resolve(undefined);
    await settle();
    assert.deepEqual(
      peer.messages.filter((m) => m.id === undefined),
      [],
      'something was sent for a finished request',
    );
  });

  test('ctx.notify sends any notification', async () => {
    const { session, peer } = await initializedServer();
    session.setRequestHandler('x/n', (_p, ctx) => {
      ctx.notify('vendor/event', { k: 'v' });
      return {};
    });
    await peer.call(1, 'x/n');
    assert.deepEqual(peer.notifications('vendor/event')[0], {
      jsonrpc: '2.0',
      method: 'vendor/event',
      params: { k: 'v' },
    });
  });
});

describe('Session inbound: send options for transports', () => {
  test('answers, progress, logs and requests made back carry relatedRequestId', async () => {
    const { session, peer, wrapped } = await wrappedWithRawPeer('server', {
      capabilities: { logging: {} },
    });
    await peer.call('i', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: { ...CLIENT_INFO },
    });
    session.setRequestHandler('x/work', async (_p, ctx) => {
      ctx.progress(1);
      ctx.log('info', 'working');
      const roots = ctx.request('roots/list');
      const rootsReq = await peer.request('roots/list');
      await peer.reply(rootsReq.id, { roots: [] });
      await roots;
      return { ok: true };
    });
    wrapped.sent.length = 0;
    await peer.call('w', 'x/work', { _meta: { progressToken: 'p' } });
    const byKind = wrapped.sent.map(({ message, options }) => {
      const m = message as Msg;
      const kind = m.method ?? (m.result ? 'result' : 'error');
      return [kind, options?.relatedRequestId];
    });
    assert.deepEqual(byKind, [
      ['notifications/progress', 'w'],
      ['notifications/message', 'w'],
      ['roots/list', 'w'],
      ['result', 'w'],
    ]);
  });

  test('requests the session makes on its own carry no relatedRequestId', async () => {
    const { session, wrapped } = await wrappedWithRawPeer('client');
    quiet(session.request('x/a'));
    await session.notify('x/n');
    assert.deepEqual(
      wrapped.sent.map((s) => s.options),
      [undefined, undefined],
    );
    await session.close();
  });
});

describe('Session inbound: notifications', () => {
  test('a notification handler gets the params and the session', async () => {
    const { session, peer } = await initializedServer();
    const got: Array<[unknown, unknown]> = [];
    session.setNotificationHandler('vendor/ping', (params, s) => {
      got.push([params, s]);
    });
    await peer.notify('vendor/ping', { x: 1 });
    await peer.notify('vendor/ping');
    await settle();
    assert.deepEqual(got, [
      [{ x: 1 }, session],
      [{}, session],
    ]);
  });

  test('shared notification handlers are used when there is no own one', async () => {
    const calls: string[] = [];
    const shared = new Map([['vendor/a', () => void calls.push('shared-a')]]);
    const { session, peer } = await initializedServer({ notificationHandlers: shared });
    session.setNotificationHandler('vendor/b', () => void calls.push('own-b'));
    await peer.notify('vendor/a');
    await peer.notify('vendor/b');
    await settle();
    assert.deepEqual(calls, ['shared-a', 'own-b']);
  });

  test('notifications nobody handles go to onnotification', async () => {
    const { session, peer } = await initializedServer();
    const seen: JsonRpcNotification[] = [];
    session.onnotification = (n) => seen.push(n);
    session.setNotificationHandler('vendor/handled', () => undefined);
    await peer.notify('vendor/unhandled', { a: 1 });
    await peer.notify('vendor/handled', { b: 2 });
    await settle();
    assert.deepEqual(seen, [{ jsonrpc: '2.0', method: 'vendor/unhandled', params: { a: 1 } }]);
  });

  test('notifications are never answered, even unknown ones', async () => {
    const { peer } = await initializedServer();
    await peer.notify('vendor/unknown', { a: 1 });
    await peer.notify('notifications/progress', { progressToken: 'none', progress: 1 });
    await settle();
    assert.deepEqual(peer.messages, [], 'a notification was answered');
  });

  test('a throwing or rejecting notification handler is logged and the session keeps working', async () => {
    const { session, peer, logs } = await initializedServer();
    session.setNotificationHandler('vendor/throws', () => {
      throw new Error('sync boom');
    });
    session.setNotificationHandler('vendor/rejects', () => Promise.reject(new Error('async boom')));
    session.setRequestHandler('x/alive', () => ({ alive: true }));
    await peer.notify('vendor/throws');
    await peer.notify('vendor/rejects');
    await settle();
    const details = logs.filter((l) => l.level === 'error').map((l) => (l.detail as Error).message);
    assert.deepEqual(details.sort(), ['async boom', 'sync boom']);
    assert.deepEqual((await peer.call(1, 'x/alive')).result, { alive: true });
  });
});

describe('Session inbound: capability and direction gating', () => {
  test('a server that did not declare tools answers tools/list with -32601 and never calls the handler', async () => {
    const { session, peer } = await initializedServer({ capabilities: { prompts: {} } });
    let called = 0;
    session.setRequestHandler('tools/list', () => {
      called++;
      return { tools: [] };
    });
    session.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    assertError(await peer.call(1, 'tools/list'), 1, ErrorCode.MethodNotFound);
    assertError(await peer.call(2, 'tools/call', { name: 'x' }), 2, ErrorCode.MethodNotFound);
    assert.equal(called, 0);
    assert.deepEqual((await peer.call(3, 'prompts/list')).result, { prompts: [] });
  });

  test('a server that declared tools serves tools/list', async () => {
    const { session, peer } = await initializedServer({ capabilities: { tools: {} } });
    session.setRequestHandler('tools/list', () => ({
      tools: [{ name: 't', inputSchema: { type: 'object' } }],
    }));
    const res = await peer.call(1, 'tools/list');
    assert.equal((res.result?.tools as unknown[]).length, 1);
  });

  test('a declared capability with no handler is still -32601', async () => {
    const { peer } = await initializedServer({ capabilities: { tools: {} } });
    assertError(await peer.call(1, 'tools/list'), 1, ErrorCode.MethodNotFound);
  });

  test('resources/subscribe needs resources.subscribe, not just resources', async () => {
    const { session, peer } = await initializedServer({ capabilities: { resources: {} } });
    session.setRequestHandler('resources/subscribe', () => ({}));
    assertError(await peer.call(1, 'resources/subscribe', { uri: 'a:b' }), 1, ErrorCode.MethodNotFound);
    const other = await initializedServer({ capabilities: { resources: { subscribe: true } } });
    other.session.setRequestHandler('resources/subscribe', () => ({}));
    assert.deepEqual((await other.peer.call(1, 'resources/subscribe', { uri: 'a:b' })).result, {});
  });

  test('completion/complete is not gated in 2024-11-05, and is gated from 2025-03-26', async () => {
    const handler: RequestHandler = () => ({ completion: { values: [] } });
    const old = await initializedServer({}, { protocolVersion: '2024-11-05' });
    old.session.setRequestHandler('completion/complete', handler);
    assert.deepEqual((await old.peer.call(1, 'completion/complete', {})).result, {
      completion: { values: [] },
    });
    const newer = await initializedServer({}, { protocolVersion: '2025-03-26' });
    newer.session.setRequestHandler('completion/complete', handler);
    assertError(await newer.peer.call(1, 'completion/complete', {}), 1, ErrorCode.MethodNotFound);
  });

  test('a method outside the negotiated revision is -32601 even with a handler', async () => {
    const { session, peer } = await initializedServer({}, { protocolVersion: '2024-11-05' });
    session.setRequestHandler('tasks/list', () => ({ tasks: [] }));
    assertError(await peer.call(1, 'tasks/list'), 1, ErrorCode.MethodNotFound);
  });

  test('a server answers server-to-client methods with -32601', async () => {
    const { session, peer } = await initializedServer({ capabilities: { tools: {} } });
    session.setRequestHandler('sampling/createMessage', () => ({}));
    session.setRequestHandler('roots/list', () => ({ roots: [] }));
    assertError(await peer.call(1, 'sampling/createMessage', {}), 1, ErrorCode.MethodNotFound);
    assertError(await peer.call(2, 'roots/list'), 2, ErrorCode.MethodNotFound);
  });

  test('a client answers a request for a capability it did not declare with -32601', async () => {
    const { session, peer } = await initializedClient({ capabilities: {} });
    let called = 0;
    session.setRequestHandler('sampling/createMessage', () => {
      called++;
      return { model: 'm' };
    });
    assertError(await peer.call('s', 'sampling/createMessage', {}), 's', ErrorCode.MethodNotFound);
    assert.equal(called, 0);
  });

  test('a client that declared sampling answers sampling/createMessage', async () => {
    const { session, peer } = await initializedClient({ capabilities: { sampling: {} } });
    session.setRequestHandler('sampling/createMessage', () => ({ model: 'm' }));
    assert.deepEqual((await peer.call('s', 'sampling/createMessage', {})).result, { model: 'm' });
  });

  test('a client answers client-to-server methods and server/discover with -32601, and ping with {}', async () => {
    const { session, peer } = await initializedClient();
    session.setRequestHandler('tools/list', () => ({ tools: [] }));
    assertError(await peer.call(1, 'tools/list'), 1, ErrorCode.MethodNotFound);
    assertError(await peer.call(2, 'server/discover', {}), 2, ErrorCode.MethodNotFound);
    assertError(await peer.call(3, 'logging/setLevel', { level: 'info' }), 3, ErrorCode.MethodNotFound);
    assert.deepEqual((await peer.call(4, 'ping')).result, {});
  });
});

describe('Session inbound: requests a handler makes back (legacy)', () => {
  test('ctx.request reaches the client and the answer comes back', async () => {
    const { server, client } = await sessionPair(
      { capabilities: { tools: {} } },
      { capabilities: { sampling: {} } },
    );
    client.setRequestHandler('sampling/createMessage', (p) => ({
      role: 'assistant',
      content: { type: 'text', text: `echo ${String((p as { prompt?: string }).prompt)}` },
      model: 'm',
    }));
    server.setRequestHandler('tools/call', async (_p, ctx) => {
      const r = await ctx.request('sampling/createMessage', {
        prompt: 'hi',
        messages: [],
        maxTokens: 5,
      });
      return { content: [r.content] };
    });
    await client.initialize();
    const out = await client.request('tools/call', { name: 'x' });
    assert.deepEqual(out, { content: [{ type: 'text', text: 'echo hi' }] });
  });

  test('cancelling the outer request cancels the request it made', async () => {
    const { server, client } = await sessionPair(
      { capabilities: { tools: {} } },
      { capabilities: { sampling: {} } },
    );
    const innerAborted = deferred<unknown>();
    const innerOutcome = deferred<unknown>();
    client.setRequestHandler('sampling/createMessage', (_p, ctx) => {
      ctx.signal.addEventListener('abort', () => innerAborted.resolve(ctx.signal.reason));
      return new Promise(() => undefined);
    });
    server.setRequestHandler('tools/call', (_p, ctx) => {
      ctx.request('sampling/createMessage', { messages: [], maxTokens: 5 }).then(
        () => innerOutcome.resolve('resolved'),
        (e: unknown) => innerOutcome.resolve(e),
      );
      return new Promise(() => undefined);
    });
    await client.initialize();
    const ac = new AbortController();
    const outer = client.request('tools/call', { name: 'x' }, { signal: ac.signal });
    await settle();
    assert.equal(server.pendingCount, 1);
    ac.abort('outer cancelled');
    await assert.rejects(outer, LocalError);
    const inner = await innerOutcome.promise;
    assert.ok(inner instanceof LocalError);
    assert.equal(inner.code, 'Cancelled');
    assert.equal(await innerAborted.promise, 'outer cancelled');
    assert.equal(server.pendingCount, 0);
  });
});

describe('Session inbound: invalid frames', () => {
  test('invalid JSON answers -32700 with a null id', async () => {
    const { peer } = await initializedServer();
    peer.deliverText('{"jsonrpc":"2.0","id":1,"method":');
    const res = await peer.response(null);
    assertError(res, null, ErrorCode.ParseError);
  });

  test('envelope errors answer -32600 echoing a valid id, null otherwise', async () => {
    const { peer } = await initializedServer();
    peer.deliverText('{"jsonrpc":"2.0","id":"p","method":"x/y","params":[1,2]}');
    assertError(await peer.response('p'), 'p', ErrorCode.InvalidRequest);
    peer.deliverText('{"jsonrpc":"2.0","id":1.5,"method":"x/y"}');
    peer.deliverText('{"jsonrpc":"2.0","id":null,"method":"x/y"}');
    peer.deliverText('"just a string"');
    await peer.waitFor(
      () => (peer.responsesTo(null).length === 3 ? true : undefined),
      'three null-id errors',
    );
    for (const m of peer.responsesTo(null)) assertError(m, null, ErrorCode.InvalidRequest);
  });

  test('a notification with bad params reaches no handler; any answer has a null id', async () => {
    const { session, peer } = await initializedServer();
    let calls = 0;
    session.setNotificationHandler('x/y', () => void calls++);
    peer.deliverText('{"jsonrpc":"2.0","method":"x/y","params":"nope"}');
    await settle();
    assert.equal(calls, 0);
    for (const m of peer.messages) assertError(m, null, ErrorCode.InvalidRequest);
  });

  test('a response for an unknown id is ignored and the session keeps working', async () => {
    const { session, peer, logs } = await initializedServer();
    session.setRequestHandler('x/alive', () => ({ alive: true }));
    await peer.reply(12345, { stray: true });
    await peer.send({ jsonrpc: '2.0', id: 'nope', error: { code: -1, message: 'stray error' } });
    await peer.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    await settle();
    assert.deepEqual(peer.messages, [], 'a response was answered');
    assert.equal(logs.filter((l) => l.level === 'warning').length, 3);
    assert.deepEqual((await peer.call(1, 'x/alive')).result, { alive: true });
  });

  const malformed: Array<[string, (id: number) => string]> = [
    ['a result that is not an object', (id) => `{"jsonrpc":"2.0","id":${id},"result":"ok"}`],
    ['a null result', (id) => `{"jsonrpc":"2.0","id":${id},"result":null}`],
    [
      'both result and error',
      (id) => `{"jsonrpc":"2.0","id":${id},"result":{},"error":{"code":1,"message":"m"}}`,
    ],
    ['an error without a code', (id) => `{"jsonrpc":"2.0","id":${id},"error":{"message":"m"}}`],
    [
      'an error with a fractional code',
      (id) => `{"jsonrpc":"2.0","id":${id},"error":{"code":1.5,"message":"m"}}`,
    ],
    ['an error without a message', (id) => `{"jsonrpc":"2.0","id":${id},"error":{"code":1}}`],
  ];
  for (const [name, text] of malformed) {
    test(`a malformed response (${name}) rejects the pending request with InvalidMessage`, async () => {
      const { session, peer } = await withRawPeer('client');
      const call = session.request('x/a');
      const req = await peer.request('x/a');
      peer.deliverText(text(req.id as number));
      await assert.rejects(call, (e: unknown) => {
        assert.ok(e instanceof LocalError);
        assert.equal(e.code, 'InvalidMessage');
        return true;
      });
      await settle();
      assert.deepEqual(peer.messages.slice(1), [], 'a response was answered');
      assert.equal(session.pendingCount, 0);
    });
  }

  test('a response-shaped message with a wrong jsonrpc rejects the pending request and is not answered', async () => {
    const { session, peer } = await withRawPeer('client');
    const call = session.request('x/a');
    const outcome = call.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    const req = await peer.request('x/a');
    peer.deliverText(`{"jsonrpc":"1.0","id":${String(req.id)},"result":{}}`);
    const e = await outcome;
    assert.ok(e instanceof LocalError, `got ${String(e)}`);
    assert.equal(e.code, 'InvalidMessage');
    await settle();
    assert.deepEqual(peer.messages.slice(1), [], 'a response-shaped message was answered');
  });

  test(
    'a response with neither result nor error for a pending id does not leave the request hanging',
    {},
    async () => {
      const { session, peer } = await withRawPeer('client');
      const call = quiet(session.request('x/a', {}, { timeoutMs: 2000 }));
      const req = await peer.request('x/a');
      peer.deliverText(`{"jsonrpc":"2.0","id":${String(req.id)}}`);
      await settle();
      assert.equal(await stateOf(call), 'rejected', 'the pending request was left hanging');
      await session.close();
    },
  );

  test('frames after close are ignored', async () => {
    const { session, peer } = await initializedServer();
    let calls = 0;
    session.setRequestHandler('x/a', () => {
      calls++;
      return {};
    });
    await session.close();
    session.receive(parseFrame('{"jsonrpc":"2.0","id":1,"method":"x/a"}'));
    await settle();
    assert.equal(calls, 0);
    assert.deepEqual(peer.responsesTo(1), []);
  });
});

describe('Session inbound: input ended', () => {
  test('requests in flight still get their answers, then the session closes', async () => {
    const { session, peer, wrapped } = await wrappedWithRawPeer('server');
    const gate = deferred();
    session.setRequestHandler('x/slow', async () => {
      await gate.promise;
      return { finished: true };
    });
    let closes = 0;
    session.onclose = () => closes++;
    // ping is served before initialize; use initialize to get the custom handler served.
    await peer.call('i', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { ...CLIENT_INFO },
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'x/slow' });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'x/slow' });
    await settle();
    assert.equal(session.inboundCount, 2);
    wrapped.sink?.ended?.();
    await settle();
    assert.equal(session.isOpen, true, 'closed before the answers were sent');
    gate.resolve(undefined);
    assert.deepEqual((await peer.response(1)).result, { finished: true });
    assert.deepEqual((await peer.response(2)).result, { finished: true });
    await settle();
    assert.equal(session.isOpen, false);
    assert.equal(closes, 1);
    assert.equal(peer.closed, 1);
  });

  test('with nothing in flight the session closes at once', async () => {
    const { session, wrapped, peer } = await wrappedWithRawPeer('server');
    wrapped.sink?.ended?.();
    await settle();
    assert.equal(session.isOpen, false);
    assert.equal(peer.closed, 1);
  });

  test('our own pending requests fail with ConnectionClosed when input ends', async () => {
    const { session, wrapped } = await wrappedWithRawPeer('client');
    const call = session.request('x/a');
    await settle();
    wrapped.sink?.ended?.();
    await assert.rejects(call, (e: unknown) => {
      assert.ok(e instanceof LocalError);
      assert.equal(e.code, 'ConnectionClosed');
      return true;
    });
  });

  test('a request sent while draining fails at once instead of waiting for its timeout', {}, async () => {
    const { session, peer, wrapped } = await wrappedWithRawPeer('server');
    const gate = deferred();
    session.setRequestHandler('x/slow', async () => {
      await gate.promise;
      return {};
    });
    await peer.call('i', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: { ...CLIENT_INFO },
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'x/slow' });
    await settle();
    wrapped.sink?.ended?.();
    const late = session.request('roots/list', undefined, { timeoutMs: 5000 });
    late.catch(() => undefined);
    assert.equal(await stateOf(late), 'rejected', 'the request waits for an answer that cannot come');
    gate.resolve(undefined);
    await settle();
  });
});

describe('Session inbound: ping', () => {
  test('ping is answered with {} by both roles, before any initialize', async () => {
    const srv = await withRawPeer('server');
    assert.deepEqual(await srv.peer.call(1, 'ping'), { jsonrpc: '2.0', id: 1, result: {} });
    const cli = await withRawPeer('client');
    assert.deepEqual(await cli.peer.call(1, 'ping'), { jsonrpc: '2.0', id: 1, result: {} });
  });
});
