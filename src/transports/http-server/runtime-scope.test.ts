/**
 * What Cloudflare Workers ask of code at global scope and after a response: building a
 * server and its HTTP handler draws no random number and starts no timer, and a list
 * change made by a request reaches subscribers without a timer firing after the response.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpServer } from '../../server/server.js';
import { fetchHandler } from './fetch-adapter.js';
import { McpHttpHandler } from './mcp-http-handler.js';
import {
  POST_HEADERS,
  SseReader,
  initializeRequest,
  modern,
  notification,
} from '../../test-support/http-server-harness.js';
import type { Obj } from '../../test-support/http-server-harness.js';

type Patch = [target: object, key: string];

/** Replaces each function with one that records its calls (and throws, when asked), until `restore`. */
function guard(patches: readonly Patch[], throws: boolean): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const saved = patches.map(
    ([target, key]) => [target, key, Object.getOwnPropertyDescriptor(target, key)] as const,
  );
  for (const [target, key] of patches) {
    const original = (target as Record<string, (...a: unknown[]) => unknown>)[key]!;
    Object.defineProperty(target, key, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        calls.push(key);
        if (throws) throw new Error(`${key} called where the runtime forbids it`);
        return original.apply(this, args);
      },
    });
  }
  return {
    calls,
    restore() {
      for (const [target, key, descriptor] of saved) {
        if (descriptor) Object.defineProperty(target, key, descriptor);
        else delete (target as Record<string, unknown>)[key];
      }
    },
  };
}

const TIMERS: Patch[] = [
  [globalThis, 'setTimeout'],
  [globalThis, 'setInterval'],
];
const RANDOM: Patch[] = [
  [crypto, 'getRandomValues'],
  [crypto, 'randomUUID'],
  [crypto.subtle, 'generateKey'],
  [crypto.subtle, 'importKey'],
];

describe('Workers: global scope', () => {
  test('a server and its handlers are built without randomness, timers or crypto', async () => {
    const g = guard([...TIMERS, ...RANDOM], true);
    let server: McpServer;
    let handler: McpHttpHandler;
    let fetchFn: ReturnType<typeof fetchHandler>;
    try {
      server = new McpServer({ name: 'global-scope', version: '1.0.0' });
      server.tool({ name: 'echo', description: 'echo' }, () => 'ok');
      server.prompt({ name: 'hello' }, () => [{ role: 'user', content: { type: 'text', text: 'hi' } }]);
      server.resource({ uri: 'mem://a', name: 'a' }, () => [{ uri: 'mem://a', text: 'a' }]);
      handler = new McpHttpHandler(server);
      fetchFn = fetchHandler(server, { legacySse: null });
    } finally {
      g.restore();
    }
    assert.deepEqual(g.calls, []);
    // They work once a request comes: the key and the sweeper are made on first use.
    const m = modern('tools/call', { name: 'echo', arguments: {} });
    const res = await fetchFn.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...POST_HEADERS, ...m.headers },
        body: JSON.stringify(m.body),
      }),
    );
    assert.equal(res.status, 200);
    await handler.close();
    await fetchFn.handler.close();
    await server.close();
  });
});

describe('Workers: nothing scheduled after the response', () => {
  const server = new McpServer({ name: 'changes', version: '1.0.0' });
  let added = 0;
  server.tool({ name: 'add_tool', description: 'registers another tool' }, () => {
    server.tool({ name: `added_${++added}` }, () => 'x');
    return 'added';
  });
  const { fetch, handler } = fetchHandler(server);
  after(async () => {
    await handler.close();
    await server.close();
  });
  const post = (body: Obj, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...POST_HEADERS, ...headers },
        body: JSON.stringify(body),
      }),
    );

  test('a tool that registers another: both eras hear each change, with no timer after the response', async () => {
    // A modern listen stream and a legacy session's GET stream.
    const l = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const listen = new SseReader((await post(l.body, l.headers)).body!);
    await listen.next((x) => x.method === 'notifications/subscriptions/acknowledged');
    const init = await post(initializeRequest());
    const sid = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const session = { 'mcp-session-id': sid };
    assert.equal((await post(notification('notifications/initialized'), session)).status, 202);
    const get = await fetch(
      new Request('http://127.0.0.1/mcp', { headers: { accept: 'text/event-stream', ...session } }),
    );
    const standalone = new SseReader(get.body!);

    const changes = (reader: SseReader): number =>
      reader.messages().filter((x) => x.method === 'notifications/tools/list_changed').length;
    for (let round = 1; round <= 2; round++) {
      const waits: Promise<unknown>[] = [];
      const ctx = { waitUntil: (p: Promise<unknown>) => void waits.push(p) };
      const m = modern('tools/call', { name: 'add_tool', arguments: {} });
      // Workers cancel a request's timers when its response ends: none may be needed.
      const g = guard(TIMERS, false);
      try {
        const res = await fetch(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: { ...POST_HEADERS, ...m.headers },
            body: JSON.stringify(m.body),
          }),
          {},
          ctx,
        );
        assert.equal(res.status, 200);
        assert.equal(((await res.json()) as { result: Obj }).result.isError, undefined);
        await Promise.all(waits);
      } finally {
        g.restore();
      }
      assert.deepEqual(g.calls, [], 'no timer on the path of a call that changes the tool list');
      assert.equal(waits.length, 1, "the handler's work went to waitUntil");
      await listen.next(() => changes(listen) === round);
      await standalone.next(() => changes(standalone) === round);
    }
    await fetch(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: session }));
  });
});
