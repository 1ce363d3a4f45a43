import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import { assertWireMessage } from '../test-support/wire-schema.js';
import { CLIENT_INFO, initializedServer, withRawPeer } from '../test-support/session-peers.js';
import type { Msg } from '../test-support/session-peers.js';
import { deferred, settle, waitFor } from '../test-support/waiting.js';

const BATCH_VERSION = '2025-03-26';

function assertError(m: Msg | undefined, id: unknown, code: number): void {
  assert.ok(m, 'missing message');
  assert.equal(m.id, id, `wrong id in ${JSON.stringify(m)}`);
  assert.equal(m.result, undefined, `expected an error, got ${JSON.stringify(m)}`);
  assert.equal(m.error?.code, code, `wrong code in ${JSON.stringify(m)}`);
}

const req = (id: string | number, method: string, params?: Record<string, unknown>): Msg =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

async function batchServer(version = BATCH_VERSION) {
  const r = await initializedServer({ capabilities: { tools: {} } }, { protocolVersion: version });
  const calls: string[] = [];
  r.session.setRequestHandler('x/echo', (p) => {
    calls.push(`echo:${String(p.v)}`);
    return { v: p.v };
  });
  r.session.setRequestHandler('x/slow', async (p) => {
    calls.push(`slow:${String(p.v)}`);
    await new Promise((res) => setImmediate(res));
    return { v: p.v };
  });
  r.session.setRequestHandler('x/fail', () => {
    throw new WireError(ErrorCode.InvalidParams, 'bad v');
  });
  r.session.setRequestHandler('tools/list', () => ({ tools: [] }));
  return { ...r, calls };
}

describe('Batches refused outside 2025-03-26', () => {
  test('before initialize: one -32600 with a null id, not an array; nothing runs', async () => {
    const { session, peer } = await withRawPeer('server');
    let called = 0;
    session.setRequestHandler('x/echo', () => {
      called++;
      return {};
    });
    await peer.send([req(1, 'ping'), req(2, 'x/echo')]);
    const res = await peer.response(null);
    assertError(res, null, ErrorCode.InvalidRequest);
    await settle();
    assert.equal(peer.received.filter(Array.isArray).length, 0);
    assert.equal(peer.received.length, 1);
    assert.equal(called, 0);
  });

  for (const version of ['2024-11-05', '2025-06-18', '2025-11-25']) {
    test(`negotiated ${version}: refused with one -32600 (id null)`, async () => {
      const { peer, calls } = await batchServer(version);
      await peer.send([req(1, 'x/echo', { v: 1 }), req(2, 'x/echo', { v: 2 })]);
      assertError(await peer.response(null), null, ErrorCode.InvalidRequest);
      await settle();
      assert.deepEqual(calls, []);
      assert.equal(peer.received.length, 1);
    });
  }

  test('an initialize inside a batch before initialize is refused and does not initialize', async () => {
    const { session, peer } = await withRawPeer('server');
    await peer.send([
      req(1, 'initialize', {
        protocolVersion: BATCH_VERSION,
        capabilities: {},
        clientInfo: { ...CLIENT_INFO },
      }),
    ]);
    assertError(await peer.response(null), null, ErrorCode.InvalidRequest);
    assert.equal(session.legacyState, 'new');
    assert.equal(session.protocolVersion, undefined);
  });

  test('an empty array is an invalid request (-32600, id null)', async () => {
    const { peer } = await batchServer();
    peer.deliverText('[]');
    assertError(await peer.response(null), null, ErrorCode.InvalidRequest);
  });
});

describe('Batches in 2025-03-26', () => {
  test('every request is answered, together, in one array', async () => {
    const { peer, calls } = await batchServer();
    await peer.send([
      req('a', 'x/slow', { v: 1 }),
      req('b', 'x/echo', { v: 2 }),
      req('c', 'x/fail'),
      req('d', 'x/missing'),
      req('e', 'tools/list'),
    ]);
    const batch = await peer.batch();
    assert.equal(peer.received.length, 1, 'answers were not sent as one frame');
    assert.deepEqual(calls.sort(), ['echo:2', 'slow:1']);
    const byId = new Map(batch.map((m) => [m.id, m]));
    assert.equal(batch.length, 5);
    assert.deepEqual(byId.get('a'), { jsonrpc: '2.0', id: 'a', result: { v: 1 } });
    assert.deepEqual(byId.get('b'), { jsonrpc: '2.0', id: 'b', result: { v: 2 } });
    assertError(byId.get('c'), 'c', ErrorCode.InvalidParams);
    assertError(byId.get('d'), 'd', ErrorCode.MethodNotFound);
    assert.deepEqual(byId.get('e')?.result, { tools: [] });
    assertWireMessage(BATCH_VERSION, batch, { sender: 'server' });
  });

  test('notifications inside a batch get no answer, but are handled', async () => {
    const { session, peer } = await batchServer();
    const heard: unknown[] = [];
    session.setNotificationHandler('vendor/note', (p) => void heard.push(p));
    await peer.send([
      { jsonrpc: '2.0', method: 'vendor/note', params: { n: 1 } },
      req(1, 'x/echo', { v: 'only' }),
      { jsonrpc: '2.0', method: 'vendor/note', params: { n: 2 } },
    ]);
    const batch = await peer.batch();
    assert.deepEqual(batch, [{ jsonrpc: '2.0', id: 1, result: { v: 'only' } }]);
    assert.deepEqual(heard, [{ n: 1 }, { n: 2 }]);
  });

  test('a batch of only notifications gets no answer at all', async () => {
    const { session, peer } = await batchServer();
    const heard: unknown[] = [];
    session.setNotificationHandler('vendor/note', (p) => void heard.push(p));
    await peer.send([
      { jsonrpc: '2.0', method: 'vendor/note', params: { n: 1 } },
      { jsonrpc: '2.0', method: 'vendor/note', params: { n: 2 } },
    ]);
    await settle();
    assert.equal(heard.length, 2);
    assert.deepEqual(peer.received, []);
  });

  test('initialize inside a batch is refused with -32600 echoing its id; the rest is served', async () => {
    const { session, peer } = await batchServer();
    await peer.send([
      req('i', 'initialize', {
        protocolVersion: BATCH_VERSION,
        capabilities: {},
        clientInfo: { ...CLIENT_INFO },
      }),
      req('e', 'x/echo', { v: 3 }),
    ]);
    const batch = await peer.batch();
    const byId = new Map(batch.map((m) => [m.id, m]));
    assert.equal(batch.length, 2);
    assertError(byId.get('i'), 'i', ErrorCode.InvalidRequest);
    assert.deepEqual(byId.get('e')?.result, { v: 3 });
    assert.equal(session.legacyState, 'ready');
  });

  test('invalid items are answered inside the array with -32600', async () => {
    const { peer } = await batchServer();
    peer.deliverText(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'ok', method: 'x/echo', params: { v: 1 } },
        { jsonrpc: '2.0', id: 'bad-params', method: 'x/echo', params: [1] },
        { jsonrpc: '2.0', id: 1.5, method: 'x/echo' },
        42,
      ]),
    );
    const batch = await peer.batch();
    assert.equal(batch.length, 4);
    assert.deepEqual(batch.find((m) => m.id === 'ok')?.result, { v: 1 });
    assertError(
      batch.find((m) => m.id === 'bad-params'),
      'bad-params',
      ErrorCode.InvalidRequest,
    );
    const nulls = batch.filter((m) => m.id === null);
    assert.equal(nulls.length, 2);
    for (const m of nulls) assertError(m, null, ErrorCode.InvalidRequest);
  });

  test('a duplicate id inside one batch: the second is refused, the first answered', async () => {
    const { peer, calls } = await batchServer();
    await peer.send([req(7, 'x/slow', { v: 'first' }), req(7, 'x/echo', { v: 'second' })]);
    const batch = await peer.batch();
    assert.equal(batch.length, 2);
    assert.deepEqual(calls, ['slow:first']);
    assertError(
      batch.find((m) => m.error !== undefined),
      7,
      ErrorCode.InvalidRequest,
    );
    assert.deepEqual(batch.find((m) => m.result !== undefined)?.result, { v: 'first' });
  });

  test('requests outside a batch are still answered singly on a batch-capable connection', async () => {
    const { peer } = await batchServer();
    assert.deepEqual(await peer.call(1, 'x/echo', { v: 'single' }), {
      jsonrpc: '2.0',
      id: 1,
      result: { v: 'single' },
    });
  });

  test('a request cancelled inside a batch is left out of the answer array', {}, async () => {
    const { session, peer } = await batchServer();
    const gate = deferred();
    session.setRequestHandler('x/wait', async () => {
      await gate.promise;
      return { late: true };
    });
    await peer.send([req('w', 'x/wait'), req('e', 'x/echo', { v: 1 })]);
    await settle();
    await peer.notify('notifications/cancelled', { requestId: 'w' });
    await settle();
    gate.resolve(undefined);
    const batch = await peer.batch();
    assert.deepEqual(batch, [{ jsonrpc: '2.0', id: 'e', result: { v: 1 } }]);
  });

  test('a batch whose only request is cancelled gets no answer at all', {}, async () => {
    const { session, peer } = await batchServer();
    const gate = deferred();
    session.setRequestHandler('x/wait', async () => {
      await gate.promise;
      return {};
    });
    await peer.send([req('w', 'x/wait')]);
    await settle();
    await peer.notify('notifications/cancelled', { requestId: 'w' });
    await settle();
    gate.resolve(undefined);
    await settle();
    assert.deepEqual(peer.received, []);
  });
});

describe('large batches yield', () => {
  test('a batch of 100 is dispatched in slices: a timer set before it runs before the last item', async () => {
    const { peer, calls } = await batchServer();
    let timerAt = -1;
    setTimeout(() => (timerAt = calls.length), 0);
    await peer.send(Array.from({ length: 100 }, (_, i) => req(i + 1, 'x/echo', { v: i })));
    const batch = await waitFor(() => peer.received.find((m): m is Msg[] => Array.isArray(m)));
    assert.equal(batch?.length, 100, 'every item answered, in one batch response');
    assert.equal(calls.length, 100);
    assert.ok(timerAt >= 0 && timerAt < 100, `other work ran during the batch (after ${timerAt} items)`);
  });
});
