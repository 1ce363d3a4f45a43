/**
 * The client's result cache against a real McpServer (modern era), point by point with
 * SEP-2549: which results carry hints and how the server sets them (per method, and a read
 * handler's own), which notification makes which cached results stale
 * (`tools|prompts|resources/list_changed`, `resources/updated` for its URI), a cursor that
 * became invalid dropping every cached page of its list, and a reconnection or a change of
 * user dropping this client's private results.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from './client.js';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Transport, TransportSink } from '../jsonrpc/index.js';
import { McpServer } from '../server/server.js';
import type { ServerOptions } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { waitFor, WAIT_MS } from '../test-support/waiting.js';

const MINUTE = 60_000;

/** The server's side of a connection, counting the requests that reach it by method. */
function counting(inner: Transport, counts: Map<string, number>): Transport {
  return {
    kind: inner.kind,
    start: (sink: TransportSink) =>
      inner.start({
        ...sink,
        frame: (frame, info) => {
          const method = (frame as { method?: unknown; id?: unknown }).method;
          if (typeof method === 'string' && 'id' in frame) counts.set(method, (counts.get(method) ?? 0) + 1);
          sink.frame(frame, info);
        },
      }),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
}

function makeServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'cached', version: '1.0.0' },
    {
      cache: {
        ttlMs: MINUTE,
        scope: 'public',
        methods: { 'resources/read': { ttlMs: MINUTE, scope: 'private' } },
      },
      ...options,
    },
  );
  server.tool({ name: 'one' }, () => 'one');
  server.prompt({ name: 'p1' }, () => [{ role: 'user', content: { type: 'text', text: 'hi' } }]);
  server.resource({ uri: 'test://a', name: 'a' }, () => [{ uri: 'test://a', text: 'A' }]);
  server.resource({ uri: 'test://b', name: 'b' }, () => [{ uri: 'test://b', text: 'B' }]);
  server.resource({ uri: 'test://short', name: 'short' }, () => ({
    contents: [{ uri: 'test://short', text: 'S' }],
    ttlMs: 5,
    cacheScope: 'public' as const,
  }));
  server.resourceTemplate({ uriTemplate: 'test://t/{id}', name: 't' }, (uri) => [{ uri, text: 'T' }]);
  return server;
}

async function setup(options: ServerOptions = {}) {
  const server = makeServer(options);
  const counts = new Map<string, number>();
  const client = new Client({ name: 'c', version: '1' }, { era: 'modern', authContext: 'alice' });
  const connect = async (): Promise<void> => {
    const [a, b] = memoryPair();
    await server.connect(counting(b, counts));
    await client.connect(a);
  };
  await connect();
  const count = (method: string): number => counts.get(method) ?? 0;
  return { server, client, count, connect };
}

describe('the result cache against McpServer (SEP-2549)', () => {
  test('the server puts its hints on lists and reads; a read handler’s own hints win', async () => {
    const { server, client } = await setup();
    const tools = await client.listTools();
    assert.equal(tools.ttlMs, MINUTE);
    assert.equal(tools.cacheScope, 'public');
    for (const r of [
      await client.listPrompts(),
      await client.listResources(),
      await client.listResourceTemplates(),
    ]) {
      assert.equal(r.ttlMs, MINUTE);
      assert.equal(r.cacheScope, 'public');
    }
    const a = await client.readResource({ uri: 'test://a' });
    assert.equal(a.ttlMs, MINUTE);
    assert.equal(a.cacheScope, 'private');
    const short = await client.readResource({ uri: 'test://short' });
    assert.equal(short.ttlMs, 5);
    assert.equal(short.cacheScope, 'public');
    await client.close();
    await server.close();
  });

  test('a server without hints says ttlMs 0, private: nothing is cached', async () => {
    const { server, client, count } = await setup({ cache: undefined });
    const tools = await client.listTools();
    assert.equal(tools.ttlMs, 0);
    assert.equal(tools.cacheScope, 'private');
    await client.listTools();
    assert.equal(count('tools/list'), 2);
    await client.close();
    await server.close();
  });

  test('refuses hints that mean nothing', () => {
    assert.throws(() => makeServer({ cache: { ttlMs: -1, scope: 'public' } }), RangeError);
    assert.throws(
      () =>
        makeServer({
          cache: {
            ttlMs: 0,
            scope: 'public',
            methods: { 'tools/list': { ttlMs: 1, scope: 'x' as 'public' } },
          },
        }),
      RangeError,
    );
  });

  test('each list_changed notification makes its lists stale, and only those', async () => {
    const { server, client, count } = await setup();
    const sub = await client.subscribe({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    const fetchAll = async () => {
      await client.listTools();
      await client.listPrompts();
      await client.listResources();
      await client.listResourceTemplates();
    };
    await fetchAll();
    await fetchAll();
    const seen = () =>
      ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'].map(count);
    assert.deepEqual(seen(), [1, 1, 1, 1]);

    const changes: string[] = [];
    client.onnotification = (n) => changes.push(n.method);
    server.tool({ name: 'two' }, () => 'two');
    await waitFor(() => changes.includes('notifications/tools/list_changed'), WAIT_MS, 'tools/list_changed');
    await fetchAll();
    assert.deepEqual(seen(), [2, 1, 1, 1]);
    assert.equal((await client.listTools()).tools.length, 2);

    server.prompt({ name: 'p2' }, () => [{ role: 'user', content: { type: 'text', text: 'hi' } }]);
    await waitFor(
      () => changes.includes('notifications/prompts/list_changed'),
      WAIT_MS,
      'prompts/list_changed',
    );
    await fetchAll();
    assert.deepEqual(seen(), [2, 2, 1, 1]);

    // One notification for both resource lists.
    server.resource({ uri: 'test://c', name: 'c' }, () => [{ uri: 'test://c', text: 'C' }]);
    await waitFor(
      () => changes.includes('notifications/resources/list_changed'),
      WAIT_MS,
      'resources/list_changed',
    );
    await fetchAll();
    assert.deepEqual(seen(), [2, 2, 2, 2]);
    await sub.close();
    await client.close();
    await server.close();
  });

  test('resources/updated makes that URI’s read stale, not another’s', async () => {
    const { server, client, count } = await setup();
    const sub = await client.subscribe({ resources: ['test://a'] });
    await client.readResource({ uri: 'test://a' });
    await client.readResource({ uri: 'test://b' });
    await client.readResource({ uri: 'test://a' });
    await client.readResource({ uri: 'test://b' });
    assert.equal(count('resources/read'), 2);
    const changes: string[] = [];
    client.onnotification = (n) => changes.push(n.method);
    server.resourceUpdated('test://a');
    await waitFor(() => changes.includes('notifications/resources/updated'), WAIT_MS, 'resources/updated');
    await client.readResource({ uri: 'test://a' });
    await client.readResource({ uri: 'test://b' });
    assert.equal(count('resources/read'), 3, 'only test://a was fetched again');
    await sub.close();
    await client.close();
    await server.close();
  });

  test('a result is fresh for ttlMs, then fetched again', async () => {
    const { server, client, count } = await setup();
    await client.readResource({ uri: 'test://short' });
    const reads = count('resources/read');
    await waitFor(
      async () => {
        await client.readResource({ uri: 'test://short' });
        return count('resources/read') > reads;
      },
      WAIT_MS,
      'the 5 ms entry to go stale',
    );
    await client.close();
    await server.close();
  });

  test('a cursor that became invalid drops every cached page of its list', async () => {
    const { server, client, count } = await setup({ pageSize: 1 });
    const extra = [server.tool({ name: 'two' }, () => 'two'), server.tool({ name: 'three' }, () => 'three')];
    const first = await client.listTools();
    assert.equal(first.tools.length, 1);
    const second = await client.listTools({ cursor: first.nextCursor! });
    assert.ok(second.nextCursor);
    // The list shrinks; no subscription, so the client is not told.
    for (const r of extra) r.remove();
    await assert.rejects(
      client.listTools({ cursor: second.nextCursor }),
      (e) => e instanceof WireError && e.code === ErrorCode.InvalidParams,
    );
    const before = count('tools/list');
    const again = await client.listTools();
    assert.equal(count('tools/list'), before + 1, 'the first page was fetched again');
    assert.equal(again.nextCursor, undefined);
    await client.close();
    await server.close();
  });

  test('reconnecting, or a change of user, drops this client’s private results; public ones stay', async () => {
    const { server, client, count, connect } = await setup();
    await client.readResource({ uri: 'test://a' });
    await client.listTools();
    await client.close();
    await connect();
    await client.readResource({ uri: 'test://a' });
    await client.listTools();
    assert.equal(count('resources/read'), 2, 'the private read was fetched again');
    assert.equal(count('tools/list'), 1, 'the public list was not');
    client.setAuthContext('bob');
    await client.readResource({ uri: 'test://a' });
    await client.listTools();
    assert.equal(count('resources/read'), 3);
    assert.equal(count('tools/list'), 1);
    await client.close();
    await server.close();
  });
});
