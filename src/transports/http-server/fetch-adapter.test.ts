/**
 * The same HTTP core through the web-standard binding: `fetchHandler` called in
 * process with `Request` objects, no socket at all.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEverythingServer } from '../../demo/everything-server.js';
import type { McpServer } from '../../server/server.js';
import { FetchExchange, fetchHandler } from './fetch-adapter.js';
import type { McpHttpHandler } from './mcp-http-handler.js';
import {
  LEGACY,
  MODERN,
  POST_HEADERS,
  SseReader,
  assertServerMessage,
  initializeRequest,
  modern,
  notification,
  rpc,
  sseMessages,
} from '../../test-support/http-server-harness.js';
import type { Obj } from '../../test-support/http-server-harness.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';

const URL_ = 'http://127.0.0.1/mcp';
let server: McpServer;
let handle: (request: Request) => Promise<Response>;
let handler: McpHttpHandler;
const waits: Array<{ aborted: boolean }> = [];

before(() => {
  server = createEverythingServer({ stepMs: 10 });
  server.tool({ name: 'wait_for_abort', description: 'Waits for its signal' }, async (_args, ctx) => {
    const entry = { aborted: false };
    waits.push(entry);
    ctx.progress(0, 1);
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    entry.aborted = true;
    return 'aborted';
  });
  ({ fetch: handle, handler } = fetchHandler(server, { maxBodyBytes: 1 << 20 }));
});
after(async () => {
  await handler.close();
  await server.close();
});

function post(
  body: unknown,
  headers: Record<string, string> = {},
  init: RequestInit = {},
): Promise<Response> {
  return handle(
    new Request(URL_, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    }),
  );
}

async function errorOf(res: Response): Promise<number | undefined> {
  const body = (await res.json()) as Obj;
  return (body.error as Obj | undefined)?.code as number | undefined;
}

describe('legacy era through fetch', () => {
  test('initialize + tools/call, the SSE answers read from the Response streams', async () => {
    const init = await post(initializeRequest(LEGACY, { elicitation: { form: {} } }));
    assert.equal(init.status, 200);
    assert.equal(init.headers.get('content-type'), 'text/event-stream');
    const sid = init.headers.get('mcp-session-id');
    assert.ok(sid);
    const [initResult] = sseMessages(await init.text());
    assertServerMessage(LEGACY, initResult!, 'initialize');
    const session = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
    const ready = await post(notification('notifications/initialized'), session);
    assert.equal(ready.status, 202);
    assert.equal(await ready.text(), '');

    // The first call of a raw-schema tool loads its validator, which may outlast the tick
    // (then the answer is a live stream, also correct); the shape checked is the next one's.
    await (await post(rpc('tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, 'c0'), session)).text();
    const call = await post(rpc('tools/call', { name: 'add', arguments: { a: 1, b: 2 } }, 'c1'), session);
    assert.equal(call.headers.get('content-type'), 'text/event-stream');
    // Answered within its turn: one complete body, without the live-stream hints.
    assert.equal(call.headers.get('cache-control'), null);
    const [result] = sseMessages(await call.text());
    assertServerMessage(LEGACY, result!, 'tools/call');
    assert.deepEqual((result!.result as Obj).structuredContent, { sum: 3 });

    // A server-to-client request on the POST stream, answered with a 202 POST.
    const ask = await post(
      rpc('tools/call', { name: 'test_elicitation', arguments: { message: 'hi' } }, 'c2'),
      session,
    );
    // Still open when its turn is over: a live stream, with them.
    assert.equal(ask.headers.get('cache-control'), 'no-cache, no-transform');
    const sse = new SseReader(ask.body!);
    const question = await sse.next((m) => m.method === 'elicitation/create');
    assertServerMessage(LEGACY, question);
    const answer = { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } };
    assert.equal((await post(answer, session)).status, 202);
    const done = await sse.response('c2');
    assertServerMessage(LEGACY, done, 'tools/call');
    await sse.done;

    // The GET stream gets a runtime change; DELETE ends the session.
    const get = await handle(new Request(URL_, { headers: { accept: 'text/event-stream', ...session } }));
    assert.equal(get.status, 200);
    const standalone = new SseReader(get.body!);
    server.tool({ name: 'fetch_probe' }, () => 'x').remove();
    await standalone.next((m) => m.method === 'notifications/tools/list_changed');
    const del = await handle(new Request(URL_, { method: 'DELETE', headers: session }));
    assert.equal(del.status, 200);
    await standalone.done;
    assert.equal((await post(rpc('ping'), session)).status, 404);
  });
});

describe('modern era through fetch', () => {
  test('a stateless call answers with JSON; progress makes it SSE', async () => {
    const m = modern('tools/call', { name: 'test_simple_text' });
    const res = await post(m.body, m.headers);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('mcp-session-id'), null);
    assertServerMessage(MODERN, (await res.json()) as Obj, 'tools/call');

    const p = modern('tools/call', { name: 'test_tool_with_progress' }, { meta: { progressToken: 7 } });
    const streamed = await post(p.body, p.headers);
    assert.equal(streamed.headers.get('content-type'), 'text/event-stream');
    const messages = sseMessages(await streamed.text());
    assert.deepEqual(
      messages.map((x) => x.method ?? 'response'),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response'],
    );
  });

  test('header mismatch → 400 -32020; unknown method → 404 -32601', async () => {
    const m = modern('tools/call', { name: 'test_simple_text' });
    const bad = await post(m.body, { ...m.headers, 'mcp-name': 'other' });
    assert.equal(bad.status, 400);
    assert.equal(await errorOf(bad), -32020);
    const u = modern('nope/nothing');
    const unknown = await post(u.body, u.headers);
    assert.equal(unknown.status, 404);
    assert.equal(await errorOf(unknown), -32601);
  });

  test('cancelling the response body, or aborting the request, cancels the handler', async () => {
    for (const how of ['cancel body', 'abort request']) {
      const count = waits.length;
      const ac = new AbortController();
      const m = modern('tools/call', { name: 'wait_for_abort' }, { meta: { progressToken: 'w' } });
      const res = await post(m.body, m.headers, { signal: ac.signal });
      assert.equal(res.headers.get('content-type'), 'text/event-stream');
      const entry = await waitFor(() => waits[count]);
      if (how === 'cancel body') await res.body!.cancel();
      else ac.abort();
      await waitFor(() => entry.aborted, WAIT_MS, how);
    }
  });
});

describe('refusals through fetch', () => {
  test('bad Host or Origin → 403; a Request without Host uses its URL', async () => {
    const evilHost = await post(initializeRequest(), { host: 'evil.example.com' });
    assert.equal(evilHost.status, 403);
    const evilOrigin = await post(initializeRequest(), { origin: 'https://evil.example.com' });
    assert.equal(evilOrigin.status, 403);
    const viaUrl = await handle(
      new Request('http://evil.example.com/mcp', {
        method: 'POST',
        headers: POST_HEADERS,
        body: JSON.stringify(initializeRequest()),
      }),
    );
    assert.equal(viaUrl.status, 403);
    const ok = await post(initializeRequest(), { origin: 'http://localhost:3000' });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  });

  test('wrong Content-Type → 415; wrong Accept → 406; PUT → 405', async () => {
    assert.equal((await post(initializeRequest(), { 'content-type': 'text/plain' })).status, 415);
    assert.equal((await post(initializeRequest(), { accept: 'text/html' })).status, 406);
    const put = await handle(new Request(URL_, { method: 'PUT', headers: POST_HEADERS, body: '{}' }));
    assert.equal(put.status, 405);
  });

  test('over maxBodyBytes → 413: by Content-Length, and from a streamed body, read no further', async () => {
    const big = JSON.stringify({ ...rpc('ping'), pad: 'x'.repeat(2 << 20) });
    const honest = await post(big, { 'content-length': String(big.length) });
    assert.equal(honest.status, 413);
    assert.equal(await errorOf(honest), -32600);

    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled += chunk.length;
        if (pulled > 50 << 20) c.close();
        else c.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const streamed = await handle(
      new Request(URL_, {
        method: 'POST',
        headers: POST_HEADERS,
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    assert.equal(streamed.status, 413);
    assert.ok(cancelled, 'the body stream was cancelled');
    assert.ok(pulled < 4 << 20, `read ${pulled} bytes of an endless body`);
  });

  test('a Request declaring a smaller Content-Length than its body holds is still refused past the limit', async () => {
    const big = JSON.stringify({ ...rpc('ping'), pad: 'x'.repeat(2 << 20) });
    const lying = await post(big, { 'content-length': '100' });
    assert.equal(lying.status, 413);
    assert.equal(await errorOf(lying), -32600);
  });

  test('malformed JSON → 400 -32700', async () => {
    const res = await post('{"jsonrpc":"2.0",');
    assert.equal(res.status, 400);
    assert.equal(await errorOf(res), -32700);
  });
});

describe('FetchExchange.onClose', () => {
  test('tells a listener about a client that left, whether before or after it was set, once', async () => {
    const gone = new AbortController();
    gone.abort();
    const early = new FetchExchange(new Request('http://127.0.0.1/mcp', { signal: gone.signal }));
    let calls = 0;
    early.onClose(() => calls++);
    await Promise.resolve();
    assert.equal(calls, 1, 'a client gone before onClose is still reported');

    const live = new AbortController();
    const later = new FetchExchange(new Request('http://127.0.0.1/mcp', { signal: live.signal }));
    later.onClose(() => calls++);
    live.abort();
    live.abort();
    await Promise.resolve();
    assert.equal(calls, 2);
  });
});
