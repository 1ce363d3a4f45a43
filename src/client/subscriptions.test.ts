import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError, WireError } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { connectedPair, createTestServer, keepAlive } from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import type { ChangeEvent } from './types.js';
import { WAIT_MS, delay, settle, waitFor, within } from '../test-support/waiting.js';

function nextEvent(it: AsyncIterator<ChangeEvent>, ms = 2000): Promise<IteratorResult<ChangeEvent>> {
  return within(it.next(), ms, 'the next event');
}

describe('subscriptions (modern)', () => {
  let release: () => void;
  before(() => (release = keepAlive()));
  after(() => release());

  test('concurrent subscriptions are demultiplexed by subscription id', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern' }, server);
    const tools = await client.subscribe({ toolsListChanged: true });
    const res = await client.subscribe({ resources: ['test://a'] });
    const [idTools, idRes] = [...server.listens.keys()];
    const send = (id: unknown, method: string, params: Obj = {}) =>
      server.listens
        .get(id as number)!
        .ctx.notify(method, { ...params, _meta: { [MetaKey.SubscriptionId]: id } });
    // The listen request ids are the subscription ids the server uses.
    const listenIds = server.wire.filter((m) => m.method === 'subscriptions/listen').map((m) => m.id);
    assert.deepEqual(listenIds, [idTools, idRes]);
    send(idRes, 'notifications/resources/updated', { uri: 'test://a' });
    send(idTools, 'notifications/tools/list_changed');
    send(idTools, 'notifications/prompts/list_changed'); // not requested: dropped
    server.session.sendRaw({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [MetaKey.SubscriptionId]: 999 } },
    }); // unknown: dropped
    assert.deepEqual((await nextEvent(tools[Symbol.asyncIterator]())).value, { kind: 'tools' });
    assert.deepEqual((await nextEvent(res[Symbol.asyncIterator]())).value, {
      kind: 'resource',
      uri: 'test://a',
    });
    const listenParams = server.wire.find((m) => m.method === 'subscriptions/listen')!.params as Obj;
    assert.deepEqual(listenParams.notifications, { toolsListChanged: true });
    await tools.close();
    await res.close();
    await client.close();
  });

  test('the acknowledged filter is what the server agreed to', async () => {
    const server = createTestServer();
    server.handle('subscriptions/listen', (_params, ctx) => {
      ctx.notify('notifications/subscriptions/acknowledged', {
        _meta: { [MetaKey.SubscriptionId]: ctx.requestId },
        notifications: { toolsListChanged: true },
      });
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({})));
    });
    const { client } = await connectedPair({ era: 'modern' }, server);
    const sub = await client.subscribe({ toolsListChanged: true, promptsListChanged: true });
    assert.deepEqual(sub.acknowledged, { toolsListChanged: true });
    await sub.close();
    await client.close();
  });

  test('a stream the server ends is re-established, and missed changes are reported', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern' }, server);
    const sub = await client.subscribe({ toolsListChanged: true, resources: ['test://a'] });
    const it = sub[Symbol.asyncIterator]();
    const [firstId, first] = [...server.listens][0]!;
    first.end({ _meta: { [MetaKey.SubscriptionId]: firstId } }); // graceful end
    await waitFor(() => server.listens.size > 0, WAIT_MS, 'the client to listen again');
    assert.equal(server.listens.size, 1);
    const [secondId] = [...server.listens.keys()];
    assert.notEqual(secondId, firstId);
    assert.deepEqual((await nextEvent(it)).value, { kind: 'tools' });
    assert.deepEqual((await nextEvent(it)).value, { kind: 'resource', uri: 'test://a' });
    server.broadcast('notifications/tools/list_changed');
    assert.deepEqual((await nextEvent(it)).value, { kind: 'tools' });
    await sub.close();
    await settle();
    assert.equal(server.listens.size, 0);
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('re-listening gives up after bounded attempts and ends the iterator with an error', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern', resubscribe: { baseDelayMs: 5 } }, server);
    const sub = await client.subscribe({ toolsListChanged: true });
    const it = sub[Symbol.asyncIterator]();
    const original = [...server.listens.values()][0]!;
    let refused = 0;
    server.handle('subscriptions/listen', () => {
      refused++;
      throw new WireError(-32603, 'shutting down');
    });
    original.end({});
    await assert.rejects(
      nextEvent(it, 10_000),
      (e: unknown) =>
        e instanceof LocalError && e.code === 'ConnectionClosed' && /5 attempts/.test(e.message),
    );
    assert.equal(refused, 5);
    assert.ok(sub.closed);
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('a server that never acknowledges: subscribe times out and cancels the request', async () => {
    const server = createTestServer();
    server.handle(
      'subscriptions/listen',
      (_p, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({}))),
    );
    const { client } = await connectedPair({ era: 'modern' }, server);
    await assert.rejects(
      client.subscribe({ toolsListChanged: true, timeoutMs: 50 }),
      (e: unknown) => e instanceof LocalError && e.code === 'RequestTimeout',
    );
    await settle();
    assert.equal(client.pendingCount, 0);
    assert.ok(server.wire.some((m) => m.method === 'notifications/cancelled'));
    await client.close();
  });

  test('a server that refuses subscriptions/listen: subscribe rejects with its error', async () => {
    const server = createTestServer();
    server.handle('subscriptions/listen', () => {
      throw new WireError(-32601, 'no subscriptions here');
    });
    const { client } = await connectedPair({ era: 'modern' }, server);
    await assert.rejects(
      client.subscribe({ toolsListChanged: true }),
      (e: unknown) => e instanceof WireError && e.code === -32601,
    );
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('aborting subscribe() before the acknowledgement cancels it', async () => {
    const server = createTestServer();
    server.handle(
      'subscriptions/listen',
      (_p, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({}))),
    );
    const { client } = await connectedPair({ era: 'modern' }, server);
    const ac = new AbortController();
    const p = client.subscribe({ toolsListChanged: true, signal: ac.signal });
    await delay(5);
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof LocalError && e.code === 'Cancelled');
    await client.close();
  });

  test('break in for-await closes the subscription', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern' }, server);
    const sub = await client.subscribe({ promptsListChanged: true });
    server.broadcast('notifications/prompts/list_changed');
    for await (const e of sub) {
      assert.equal(e.kind, 'prompts');
      break;
    }
    await settle();
    assert.ok(sub.closed);
    assert.equal(server.listens.size, 0);
    await client.close();
  });

  test('client close ends iterators quietly; a lost connection ends them with an error', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern' }, server);
    const sub = await client.subscribe({ toolsListChanged: true });
    const waiting = sub[Symbol.asyncIterator]().next();
    await client.close();
    assert.equal((await waiting).done, true);

    const server2 = createTestServer();
    const { client: c2, clientSide } = await connectedPair({ era: 'modern' }, server2);
    const sub2 = await c2.subscribe({ toolsListChanged: true });
    const waiting2 = sub2[Symbol.asyncIterator]().next();
    clientSide.deliver(
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}',
    );
    // The transport reports an abnormal close.
    (clientSide as unknown as { sink: { closed(e: Error): void } }).sink.closed(new Error('pipe broke'));
    await assert.rejects(waiting2, (e: unknown) => e instanceof LocalError && e.code === 'ConnectionClosed');
    await c2.close();
  });
});

describe('subscriptions (legacy)', () => {
  test('resources/subscribe is sent once per URI and unsubscribed when the last one closes', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'legacy' }, server);
    const a = await client.subscribe({ resources: ['test://a'] });
    const b = await client.subscribe({ resources: ['test://a', 'test://b'] });
    const subs = server.requests.filter((r) => r.method === 'resources/subscribe').map((r) => r.params.uri);
    assert.deepEqual(subs, ['test://a', 'test://b']);
    await server.session.notify('notifications/resources/updated', { uri: 'test://a' });
    assert.deepEqual((await nextEvent(a[Symbol.asyncIterator]())).value, {
      kind: 'resource',
      uri: 'test://a',
    });
    assert.deepEqual((await nextEvent(b[Symbol.asyncIterator]())).value, {
      kind: 'resource',
      uri: 'test://a',
    });
    await a.close();
    assert.deepEqual([...server.subscribed].sort(), ['test://a', 'test://b']);
    await b.close();
    assert.equal(server.subscribed.size, 0);
    await client.close();
  });

  test('a server without resources.subscribe: subscribing to a URI fails clearly; list changes still work', async () => {
    const server = createTestServer({
      capabilities: { tools: { listChanged: true }, resources: {} },
    });
    const { client } = await connectedPair({ era: 'legacy' }, server);
    await assert.rejects(
      client.subscribe({ resources: ['test://a'] }),
      (e: unknown) => e instanceof LocalError && e.code === 'CapabilityNotSupported',
    );
    const sub = await client.subscribe({ toolsListChanged: true, promptsListChanged: true });
    assert.deepEqual(sub.acknowledged, { toolsListChanged: true });
    await sub.close();
    await client.close();
  });

  test('a failing resources/subscribe rolls back the ones already made', async () => {
    const server = createTestServer();
    server.handle('resources/subscribe', (params) => {
      if (params.uri === 'test://bad') throw WireError.invalidParams('no such resource');
      server.subscribed.add(String(params.uri));
      return {};
    });
    const { client } = await connectedPair({ era: 'legacy' }, server);
    await assert.rejects(
      client.subscribe({ resources: ['test://a', 'test://bad'] }),
      (e: unknown) => e instanceof WireError,
    );
    assert.equal(server.subscribed.size, 0);
    await client.close();
  });
});
