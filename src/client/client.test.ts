import { describe, test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { LocalErrorCode } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { Progress } from '../session/options.js';
import { Client } from './client.js';
import {
  CLIENT_INFO,
  MODERN,
  SERVER_INFO,
  collect,
  connectedPair,
  createTestServer,
} from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import type { ClientOptions, HandlerContext } from './types.js';
import { WAIT_MS, settle, waitFor } from '../test-support/waiting.js';

/**
 * Settles `p` on the mock clock (`setTimeout` and `Date` mocked by the caller): 10 ms a tick,
 * with the in-memory transport's microtasks run between ticks, so that a race between timers
 * is decided by the numbers in the test, never by how loaded the machine is.
 */
async function onMockClock<T>(t: TestContext, p: Promise<T>): Promise<T> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let ms = 0; !done && ms < 60_000; ms += 10) {
    t.mock.timers.tick(10);
    await settle();
  }
  return p;
}

function isLocal(code: LocalErrorCode, includes?: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof LocalError, `expected LocalError ${code}, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (includes) assert.ok(e.message.includes(includes), e.message);
    return true;
  };
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

const handlerCalls: Array<{ method: string; params: unknown; ctx: HandlerContext }> = [];

function withHandlers(era: 'legacy' | 'modern', extra: ClientOptions = {}): ClientOptions {
  return {
    era,
    handlers: {
      elicitation: async (params, ctx) => {
        handlerCalls.push({ method: 'elicitation/create', params, ctx });
        return { action: 'accept', content: { name: 'Ada' } };
      },
      sampling: {
        handler: async (params, ctx) => {
          handlerCalls.push({ method: 'sampling/createMessage', params, ctx });
          return { role: 'assistant', content: { type: 'text', text: '4' }, model: 'test-model' };
        },
        tools: true,
      },
      roots: [{ uri: 'file:///work', name: 'work' }],
    },
    ...extra,
  };
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`Client against a hand-built server (${era})`, () => {
    test('connects and exposes the server identity', async () => {
      const server = createTestServer({ instructions: 'Be nice' });
      const { client } = await connectedPair({ era }, server);
      assert.equal(client.era, era);
      assert.equal(client.protocolVersion, era === 'modern' ? MODERN : '2025-11-25');
      assert.deepEqual(client.serverInfo, SERVER_INFO);
      assert.equal(client.instructions, 'Be nice');
      assert.ok(client.serverCapabilities?.tools);
      assert.ok(client.isConnected);
      const methods = server.wire.map((m) => m.method);
      if (era === 'legacy') assert.deepEqual(methods, ['initialize', 'notifications/initialized']);
      else assert.deepEqual(methods, ['server/discover']);
      await client.close();
      assert.equal(client.isConnected, false);
    });

    test('declares capabilities from the handlers registered', async () => {
      const server = createTestServer();
      const { client } = await connectedPair(
        withHandlers(era, { capabilities: { experimental: { x: {} } } }),
        server,
      );
      const expected = {
        sampling: { tools: {} },
        elicitation: { form: {} },
        roots: { listChanged: true },
        experimental: { x: {} },
      };
      assert.deepEqual(client.clientCapabilities, expected);
      const first = server.wire[0]!;
      const sent =
        era === 'legacy'
          ? (first.params as Obj).capabilities
          : ((first.params as Obj)._meta as Obj)[MetaKey.ClientCapabilities];
      assert.deepEqual(sent, expected);
      await client.close();
    });

    test('tools() follows every cursor; listTools gives one page', async () => {
      const { client } = await connectedPair({ era });
      const names: string[] = [];
      for await (const tool of client.tools()) names.push(tool.name);
      assert.deepEqual(names, [
        'echo',
        'add',
        'bad-structured',
        'fail',
        'slow',
        'progress',
        'ask',
        'sample',
        'roots',
      ]);
      const page = await client.listTools();
      assert.equal(page.tools.length, 4);
      assert.equal(page.nextCursor, '4');
      await client.close();
    });

    test('callTool returns the result; structuredContent is checked against outputSchema', async () => {
      const { client } = await connectedPair({ era });
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'hi');
      await collect(client.tools());
      const ok = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      assert.deepEqual(ok.structuredContent, { sum: 5 });
      await assert.rejects(
        client.callTool({ name: 'bad-structured' }),
        isLocal('InvalidResult', 'structuredContent/sum must be number'),
      );
      // isError results are not validated.
      const failed = await client.callTool({ name: 'fail' });
      assert.equal(failed.isError, true);
      // The connection stays usable.
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still' } })), 'still');
      await client.close();
    });

    test('a protocol error from a tool is a WireError', async () => {
      const { client } = await connectedPair({ era });
      await assert.rejects(
        client.callTool({ name: 'nope' }),
        (e: unknown) => e instanceof WireError && e.code === -32602,
      );
      await client.close();
    });

    test('elicitation: the handler answers, and schema defaults fill omitted fields', async () => {
      handlerCalls.length = 0;
      const { client } = await connectedPair(withHandlers(era));
      const r = await client.callTool({ name: 'ask' });
      assert.deepEqual(JSON.parse(textOf(r)), {
        action: 'accept',
        content: { name: 'Ada', age: 30, score: 95.5, status: 'active', verified: true },
      });
      const call = handlerCalls.find((c) => c.method === 'elicitation/create')!;
      assert.equal(call.ctx.era, era);
      assert.equal(call.ctx.protocolVersion, client.protocolVersion);
      assert.ok(call.ctx.signal instanceof AbortSignal);
      assert.equal((call.params as Obj).message, 'Who are you?');
      await client.close();
    });

    test('sampling and roots handlers answer in this era too', async () => {
      const { client } = await connectedPair(withHandlers(era));
      const s = JSON.parse(textOf(await client.callTool({ name: 'sample' }))) as Obj;
      assert.equal(s.model, 'test-model');
      const r = JSON.parse(textOf(await client.callTool({ name: 'roots' }))) as Obj;
      assert.deepEqual(r.roots, [{ uri: 'file:///work', name: 'work' }]);
      await client.setRoots([{ uri: 'file:///other' }]);
      const r2 = JSON.parse(textOf(await client.callTool({ name: 'roots' }))) as Obj;
      assert.deepEqual(r2.roots, [{ uri: 'file:///other' }]);
      await client.close();
    });

    test('resources, templates, prompts and completions', async () => {
      const { client } = await connectedPair({ era });
      assert.deepEqual(
        (await collect(client.resources())).map((r) => r.uri),
        ['test://a', 'test://b'],
      );
      assert.deepEqual(
        (await collect(client.resourceTemplates())).map((t) => t.uriTemplate),
        ['test://item/{id}'],
      );
      const read = await client.readResource({ uri: 'test://a' });
      assert.match((read.contents[0] as { text: string }).text, /^read test:\/\/a/);
      assert.deepEqual(
        (await collect(client.prompts())).map((p) => p.name),
        ['greet'],
      );
      const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'world' } });
      assert.deepEqual(prompt.messages[0]!.content, { type: 'text', text: 'Hello world' });
      const c = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'wo' },
      });
      assert.deepEqual(c.completion.values, ['wo-done']);
      await client.close();
    });

    test('progress callbacks, and progress resets the timeout only when asked', async (t) => {
      const { client } = await connectedPair({ era });
      const seen: Progress[] = [];
      await client.callTool(
        { name: 'progress', arguments: { steps: 3 } },
        { onprogress: (p) => seen.push(p) },
      );
      assert.deepEqual(
        seen.map((p) => p.progress),
        [1, 2, 3],
      );
      assert.equal(seen[0]!.message, 'step 1');
      // Time is the subject: the server's steps and the client's timeout run on one mock clock.
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      // 6 steps of 30 ms against a 70 ms timeout: fails without reset, passes with it.
      await assert.rejects(
        onMockClock(
          t,
          client.callTool(
            { name: 'progress', arguments: { steps: 6, stepMs: 30 } },
            { timeoutMs: 70, onprogress: () => undefined },
          ),
        ),
        isLocal('RequestTimeout'),
      );
      await onMockClock(
        t,
        client.callTool(
          { name: 'progress', arguments: { steps: 6, stepMs: 30 } },
          { timeoutMs: 70, resetTimeoutOnProgress: true, onprogress: () => undefined },
        ),
      );
      // ...but never past the hard maximum.
      await assert.rejects(
        onMockClock(
          t,
          client.callTool(
            { name: 'progress', arguments: { steps: 6, stepMs: 30 } },
            {
              timeoutMs: 70,
              resetTimeoutOnProgress: true,
              maxTotalTimeoutMs: 100,
              onprogress: () => undefined,
            },
          ),
        ),
        isLocal('RequestTimeout'),
      );
      t.mock.timers.reset();
      await client.close();
    });

    test('timeouts and aborts reject the call, tell the server, and keep the connection', async () => {
      const server = createTestServer();
      const { client } = await connectedPair({ era }, server);
      await assert.rejects(client.callTool({ name: 'slow' }, { timeoutMs: 30 }), isLocal('RequestTimeout'));
      const ac = new AbortController();
      const p = client.callTool({ name: 'slow' }, { signal: ac.signal });
      await waitFor(() => server.wire.filter((m) => m.method === 'tools/call').length === 2);
      ac.abort(new Error('user pressed stop'));
      await assert.rejects(p, isLocal('Cancelled'));
      await settle();
      const cancels = server.wire.filter((m) => m.method === 'notifications/cancelled');
      assert.equal(cancels.length, 2);
      assert.equal((cancels[1]!.params as Obj).reason, 'user pressed stop');
      // An already-aborted signal never sends anything.
      const before = server.wire.length;
      await assert.rejects(
        client.callTool({ name: 'echo' }, { signal: AbortSignal.abort() }),
        isLocal('Cancelled'),
      );
      assert.equal(server.wire.length, before);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'ok' } })), 'ok');
      assert.equal(client.pendingCount, 0);
      await client.close();
    });

    test('close() rejects everything pending at once', async () => {
      const { client } = await connectedPair({ era });
      const calls = [client.callTool({ name: 'slow' }), client.callTool({ name: 'slow' })];
      await settle();
      // 'slow' answers only when aborted: rejecting them at all is rejecting them at once.
      await client.close();
      for (const c of calls) await assert.rejects(c, isLocal('ConnectionClosed'));
      await assert.rejects(client.listTools(), isLocal('ConnectionClosed'));
    });

    test('calls before connect fail with NotConnected', async () => {
      const client = new Client(CLIENT_INFO, { era });
      await assert.rejects(client.listTools(), isLocal('NotConnected'));
      await assert.rejects(client.ping(), isLocal('NotConnected'));
    });

    test('ping and discover', async () => {
      const { client } = await connectedPair({ era });
      if (era === 'legacy') {
        await client.ping();
      } else {
        await assert.rejects(client.ping(), isLocal('CapabilityNotSupported', 'discover()'));
      }
      const d = await client.discover();
      assert.ok(d.supportedVersions.includes(client.protocolVersion!));
      assert.ok(d.capabilities.tools);
      assert.deepEqual(d._meta?.[MetaKey.ServerInfo], SERVER_INFO);
      await client.close();
    });

    test('setLoggingLevel', async () => {
      const server = createTestServer();
      const { client } = await connectedPair({ era }, server);
      await client.setLoggingLevel('warning');
      await assert.rejects(client.setLoggingLevel('loud' as never), TypeError);
      if (era === 'legacy') {
        assert.equal(server.session.legacyLogLevel, 'warning');
      } else {
        assert.ok(!server.wire.some((m) => m.method === 'logging/setLevel'));
        await client.callTool({ name: 'echo', arguments: { text: 'x' } });
        const last = server.wire.at(-1)!;
        assert.equal(((last.params as Obj)._meta as Obj)[MetaKey.LogLevel], 'warning');
        assert.equal(((last.params as Obj)._meta as Obj)[MetaKey.ProtocolVersion], MODERN);
      }
      await client.close();
    });

    test('subscribe(): list changes and resource updates, one API', async () => {
      const server = createTestServer();
      const { client } = await connectedPair({ era }, server);
      const sub = await client.subscribe({ toolsListChanged: true, resources: ['test://a'] });
      assert.equal(sub.era, era);
      assert.deepEqual(sub.acknowledged, {
        toolsListChanged: true,
        resourceSubscriptions: ['test://a'],
      });
      if (era === 'legacy') {
        assert.deepEqual([...server.subscribed], ['test://a']);
        await server.session.notify('notifications/tools/list_changed');
        await server.session.notify('notifications/prompts/list_changed'); // not asked for
        await server.session.notify('notifications/resources/updated', { uri: 'test://b' }); // not watched
        await server.session.notify('notifications/resources/updated', { uri: 'test://a' });
      } else {
        assert.equal(server.listens.size, 1);
        server.broadcast('notifications/tools/list_changed');
        server.broadcast('notifications/resources/updated', { uri: 'test://a' });
      }
      const it = sub[Symbol.asyncIterator]();
      assert.deepEqual((await it.next()).value, { kind: 'tools' });
      assert.deepEqual((await it.next()).value, { kind: 'resource', uri: 'test://a' });
      await sub.close();
      assert.equal((await it.next()).done, true);
      await settle();
      if (era === 'legacy') assert.equal(server.subscribed.size, 0);
      else assert.equal(server.listens.size, 0);
      assert.equal(client.pendingCount, 0);
      await client.close();
    });

    test('autoRefreshTools refetches the list on tools/list_changed', async () => {
      const server = createTestServer();
      const changed: string[][] = [];
      const { client } = await connectedPair(
        { era, autoRefreshTools: true, ontoolschanged: (t) => changed.push(t.map((x) => x.name)) },
        server,
      );
      if (era === 'legacy') await server.session.notify('notifications/tools/list_changed');
      else server.broadcast('notifications/tools/list_changed');
      await waitFor(() => changed.length > 0, WAIT_MS, 'the changed tool list');
      assert.equal(changed.length, 1);
      assert.equal(changed[0]!.length, 9);
      await client.close();
    });

    test('onnotification sees server notifications, such as logs', async () => {
      const server = createTestServer();
      const seen: string[] = [];
      const { client } = await connectedPair({ era }, server);
      client.onnotification = (n) => seen.push(n.method);
      if (era === 'legacy')
        await server.session.notify('notifications/message', { level: 'info', data: 'x' });
      else
        server.session.sendRaw({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: 'x' },
        });
      await settle();
      assert.deepEqual(seen, ['notifications/message']);
      await client.close();
    });

    test('await using closes the client', async () => {
      const server = createTestServer();
      {
        await using client = new Client(CLIENT_INFO, { era });
        const { memoryPair } = await import('../transports/memory/index.js');
        const [a, b] = memoryPair();
        await server.session.connect(b);
        await client.connect(a);
        assert.ok(client.isConnected);
      }
      await settle();
      assert.equal(server.session.isOpen, false);
    });
  });
}

describe('Client result cache (modern)', () => {
  test('fresh results are served from the cache; notifications invalidate them', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern' }, server);
    const reads = (): number => server.requests.filter((r) => r.method === 'resources/read').length;
    const a1 = await client.readResource({ uri: 'test://a' });
    const a2 = await client.readResource({ uri: 'test://a' });
    assert.deepEqual(a1, a2);
    assert.equal(reads(), 1);
    await client.readResource({ uri: 'test://b' });
    assert.equal(reads(), 2, 'a different uri is a different key');
    // A caller changing its copy does not change the cache.
    (a2.contents[0] as { text: string }).text = 'mutated';
    assert.notEqual(
      ((await client.readResource({ uri: 'test://a' })).contents[0] as { text: string }).text,
      'mutated',
    );
    const sub = await client.subscribe({ resources: ['test://a'] });
    server.broadcast('notifications/resources/updated', { uri: 'test://a' });
    await sub[Symbol.asyncIterator]().next();
    await client.readResource({ uri: 'test://a' });
    assert.equal(reads(), 3, 'the update invalidated the entry');
    await client.listResources();
    await client.listResources();
    assert.equal(server.requests.filter((r) => r.method === 'resources/list').length, 1);
    client.clearCache();
    await client.listResources();
    assert.equal(server.requests.filter((r) => r.method === 'resources/list').length, 2);
    await sub.close();
    await client.close();
  });

  test('results without ttlMs, and with cache: false, are never cached', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern', cache: false }, server);
    await client.readResource({ uri: 'test://a' });
    await client.readResource({ uri: 'test://a' });
    assert.equal(server.requests.filter((r) => r.method === 'resources/read').length, 2);
    await client.listTools();
    await client.listTools();
    assert.equal(server.requests.filter((r) => r.method === 'tools/list').length, 2);
    await client.close();
  });

  test('the legacy era never caches', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'legacy' }, server);
    await client.readResource({ uri: 'test://a' });
    await client.readResource({ uri: 'test://a' });
    assert.equal(server.requests.filter((r) => r.method === 'resources/read').length, 2);
    await client.close();
  });
});
