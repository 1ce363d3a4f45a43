/**
 * Modern Streamable HTTP (2026-07-28) over a real socket: stateless POSTs, JSON or SSE
 * answers, the request metadata headers (-32020), version and method errors, cancellation
 * by closing the stream, and `subscriptions/listen`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MODERN,
  assertServerMessage,
  errorCode,
  modern,
  openStream,
  postJson,
  request,
  startEverything,
} from '../../test-support/http-server-harness.js';
import type { Fixture, Obj, RawResponse } from '../../test-support/http-server-harness.js';
import { WAIT_MS, waitFor, within } from '../../test-support/waiting.js';
import { MetaKey } from '../../protocol/meta-keys.js';

let f: Fixture;
/** What the `wait_for_abort` tool saw: started, then its signal fired. */
const waits: Array<{ started: number; aborted?: number }> = [];

before(async () => {
  f = await startEverything({ keepAliveMs: 40 });
  f.server.tool(
    {
      name: 'route_query',
      description: 'A tool whose arguments are mirrored into Mcp-Param-* headers',
      input: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          limit: { type: 'integer', 'x-mcp-header': 'Limit' },
          options: {
            type: 'object',
            properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } },
          },
          query: { type: 'string' },
        },
        required: ['query'],
      },
    },
    (args) => `ran ${JSON.stringify(args)}`,
  );
  f.server.tool(
    { name: 'wait_for_abort', description: 'Reports progress, then waits for its signal' },
    async (args, ctx) => {
      const entry: { started: number; aborted?: number } = { started: Date.now() };
      waits.push(entry);
      if ((args as Obj).progress === true) ctx.progress(0, 1);
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      entry.aborted = Date.now();
      return 'aborted';
    },
  );
});
after(() => f.close());

async function send(
  method: string,
  params: Obj = {},
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const m = modern(method, params);
  return postJson(f.url, m.body, { ...m.headers, ...headers });
}

function assertHeaderMismatch(r: RawResponse, what: string): void {
  assert.equal(r.status, 400, `${what}: ${r.body}`);
  assert.equal(errorCode(r), -32020, what);
  assert.equal(r.headers['content-type'], 'application/json');
}

describe('stateless requests', () => {
  test('a plain call is answered with one JSON body, no session', async () => {
    const before = f.running.handler.sessionCount;
    const m = modern('tools/call', { name: 'add', arguments: { a: 20, b: 22 } });
    const r = await postJson(f.url, m.body, m.headers);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['mcp-session-id'], undefined);
    assert.equal(r.json?.id, m.body.id);
    assert.deepEqual((r.json?.result as Obj).structuredContent, { sum: 42 });
    assertServerMessage(MODERN, r.json!, 'tools/call');
    assert.equal(f.running.handler.sessionCount, before);
  });

  test('progress first turns the answer into an SSE stream, ended by the response', async () => {
    const m = modern('tools/call', { name: 'test_tool_with_progress' }, { meta: { progressToken: 'tok' } });
    const s = await openStream(f.url, { headers: m.headers, body: m.body });
    assert.equal(s.response.status, 200);
    assert.equal(s.response.headers.get('content-type'), 'text/event-stream');
    assert.equal(s.response.headers.get('x-accel-buffering'), 'no');
    assert.equal(s.response.headers.get('mcp-session-id'), null);
    await s.sse.done;
    const msgs = s.sse.messages();
    assert.deepEqual(
      msgs.map((x) => x.method ?? 'response'),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response'],
    );
    for (const x of msgs) assertServerMessage(MODERN, x, x.method ? undefined : 'tools/call');
    assert.ok(
      s.sse.events.every((e) => e.id === undefined),
      'modern streams are not resumable: no ids',
    );
  });

  test('GET and DELETE without a session → 405 with Allow', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await request(f.url, { method, headers: { accept: 'text/event-stream' } });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.allow, 'POST');
    }
  });

  test('stray Mcp-Session-Id and Last-Event-ID are ignored: nothing minted or echoed', async () => {
    const before = f.running.handler.sessionCount;
    const r = await send(
      'tools/call',
      { name: 'test_simple_text' },
      {
        'mcp-session-id': 'not-a-session',
        'last-event-id': 'abc.1',
      },
    );
    assert.equal(r.status, 200);
    assert.equal(r.headers['mcp-session-id'], undefined);
    assertServerMessage(MODERN, r.json!, 'tools/call');
    assert.equal(f.running.handler.sessionCount, before);
  });

  test('-32022: an unsupported version → 400 listing the supported ones', async () => {
    const m = modern('tools/list', {}, { version: '2099-01-01' });
    const r = await postJson(f.url, m.body, m.headers);
    assert.equal(r.status, 400);
    assert.equal(errorCode(r), -32022);
    const data = (r.json?.error as Obj).data as Obj;
    assert.ok(Array.isArray(data.supported) && data.supported.includes(MODERN), JSON.stringify(data));
    assertServerMessage(MODERN, r.json!);
  });

  test('an unknown method → 404 with -32601', async () => {
    const r = await send('no/such/method');
    assert.equal(r.status, 404);
    assert.equal(errorCode(r), -32601);
    assertServerMessage(MODERN, r.json!);
  });

  test('a method served, then taken away, then served again: each request sees the handlers of its moment', async () => {
    const first = f.server.method('walk/echo', () => ({ n: 1 }));
    assert.equal(((await send('walk/echo')).json!.result as Obj).n, 1);
    first.remove();
    const gone = await send('walk/echo');
    assert.equal(gone.status, 404);
    assert.equal(errorCode(gone), -32601);
    const second = f.server.method('walk/echo', () => ({ n: 2 }));
    assert.equal(((await send('walk/echo')).json!.result as Obj).n, 2);
    second.remove();
  });
});

describe('request metadata headers', () => {
  test('missing MCP-Protocol-Version, Mcp-Method or Mcp-Name → 400 -32020', async () => {
    const m = modern('tools/call', { name: 'test_simple_text' });
    for (const header of ['mcp-protocol-version', 'mcp-method', 'mcp-name']) {
      const headers = { ...m.headers };
      delete headers[header];
      const r = await postJson(f.url, m.body, headers);
      assertHeaderMismatch(r, `without ${header}`);
      assert.equal(r.json?.id, m.body.id);
    }
    // resources/read and prompts/get need Mcp-Name too; tools/list does not.
    for (const [method, params] of [
      ['resources/read', { uri: 'test://static-text' }],
      ['prompts/get', { name: 'test_simple_prompt' }],
    ] as const) {
      const x = modern(method, params);
      assert.equal((await postJson(f.url, x.body, x.headers)).status, 200, method);
      const { 'mcp-name': _dropped, ...rest } = x.headers;
      assertHeaderMismatch(await postJson(f.url, x.body, rest), `${method} without Mcp-Name`);
    }
    assert.equal((await send('tools/list')).status, 200);
  });

  test('a header that differs from the body → 400 -32020', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['version', { 'mcp-protocol-version': '2025-11-25' }],
      ['method', { 'mcp-method': 'tools/list' }],
      ['method case', { 'mcp-method': 'Tools/Call' }],
      ['name', { 'mcp-name': 'test_image_content' }],
      ['name case', { 'mcp-name': 'TEST_SIMPLE_TEXT' }],
      ['bad sentinel', { 'mcp-name': '=?base64?%%%?=' }],
      ['sentinel of another name', { 'mcp-name': `=?base64?${btoa('echo')}?=` }],
    ];
    for (const [what, headers] of cases) {
      assertHeaderMismatch(await send('tools/call', { name: 'test_simple_text' }, headers), what);
    }
  });

  test('Mcp-Name in the base64 sentinel is decoded before comparing', async () => {
    const r = await send(
      'tools/call',
      { name: 'test_simple_text' },
      { 'mcp-name': `=?base64?${btoa('test_simple_text')}?=` },
    );
    assert.equal(r.status, 200, r.body);
    const uri = 'test://template/ü 42/data';
    const encoded = `=?base64?${Buffer.from(uri).toString('base64')}?=`;
    const read = await send('resources/read', { uri }, { 'mcp-name': encoded });
    assert.notEqual(errorCode(read), -32020, read.body);
  });

  test('Mcp-Param-* headers of x-mcp-header arguments are checked both ways', async () => {
    const call = (args: Obj, headers: Record<string, string>) =>
      send('tools/call', { name: 'route_query', arguments: { query: 'q', ...args } }, headers);
    const ok = await call(
      { region: 'us-west1', limit: 42 },
      { 'mcp-param-region': 'us-west1', 'mcp-param-limit': '42' },
    );
    assert.equal(ok.status, 200, ok.body);
    assert.match(JSON.stringify(ok.json?.result), /ran/);
    // Numbers compare numerically; base64 values are decoded; absent arguments need no header.
    assert.equal((await call({ limit: 42 }, { 'mcp-param-limit': '42.0' })).status, 200);
    const greeting = `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`;
    assert.equal((await call({ region: 'Hello, 世界' }, { 'mcp-param-region': greeting })).status, 200);
    assert.equal((await call({}, {})).status, 200);
    assert.equal((await call({ region: null }, {})).status, 200, 'null means absent');
    assert.equal((await call({ options: { tenant: 'acme' } }, { 'mcp-param-tenant': 'acme' })).status, 200);

    assertHeaderMismatch(await call({ region: 'us-west1' }, {}), 'argument without its header');
    assertHeaderMismatch(await call({}, { 'mcp-param-region': 'us-west1' }), 'header without its argument');
    assertHeaderMismatch(
      await call({ region: 'us-west1' }, { 'mcp-param-region': 'eu-north1' }),
      'different value',
    );
    assertHeaderMismatch(await call({ limit: 42 }, { 'mcp-param-limit': '43' }), 'different number');
    assertHeaderMismatch(await call({ region: 'Hello, 世界' }, { 'mcp-param-region': 'Hello' }), 'undecoded');
    assertHeaderMismatch(
      await call({ options: { tenant: 'acme' } }, {}),
      'nested argument without its header',
    );
    assertHeaderMismatch(
      await call({ region: 'x' }, { 'mcp-param-region': '=?base64?!!!?=' }),
      'malformed base64 sentinel',
    );
  });
});

describe('long-lived streams', () => {
  test('closing the response stream cancels the handler (ctx.signal fires)', async () => {
    for (const progress of [false, true]) {
      const count = waits.length;
      const m = modern(
        'tools/call',
        { name: 'wait_for_abort', arguments: { progress } },
        { meta: { progressToken: 'w' } },
      );
      const ac = new AbortController();
      const response = fetch(f.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...m.headers,
        },
        body: JSON.stringify(m.body),
        signal: ac.signal,
      });
      const entry = await waitFor(() => waits[count], WAIT_MS, 'the tool to start');
      if (progress) {
        // The answer is already an SSE stream when the client goes away.
        const res = await response;
        assert.equal(res.headers.get('content-type'), 'text/event-stream');
      }
      // A barrier instead of a sleep: another exchange served to the end.
      const probe = modern('tools/list', {});
      assert.equal((await postJson(f.url, probe.body, probe.headers)).status, 200);
      assert.equal(entry.aborted, undefined, 'still running while the client listens');
      ac.abort();
      await response.then(
        (r) => r.body?.cancel().catch(() => undefined),
        () => undefined,
      );
      await waitFor(
        () => entry.aborted !== undefined,
        WAIT_MS,
        `the handler's signal (progress: ${progress})`,
      );
    }
  });

  test('subscriptions/listen: acknowledged, then tagged list_changed, keep-alive comments', async () => {
    const m = modern('subscriptions/listen', {
      notifications: { toolsListChanged: true, promptsListChanged: true },
    });
    const s = await openStream(f.url, { headers: m.headers, body: m.body });
    try {
      assert.equal(s.response.status, 200);
      assert.equal(s.response.headers.get('content-type'), 'text/event-stream');
      assert.equal(s.response.headers.get('x-accel-buffering'), 'no');
      const ack = await s.sse.next((x) => x.method === 'notifications/subscriptions/acknowledged');
      assertServerMessage(MODERN, ack);
      assert.deepEqual((ack.params as Obj).notifications, {
        toolsListChanged: true,
        promptsListChanged: true,
      });
      const reg = f.server.tool({ name: 'listen_probe' }, () => 'x');
      reg.remove();
      const changed = await s.sse.next((x) => x.method === 'notifications/tools/list_changed');
      assertServerMessage(MODERN, changed);
      const meta = (changed.params as Obj)._meta as Obj;
      assert.equal(meta['io.modelcontextprotocol/subscriptionId'], m.body.id);
      // Keep-alive comments flow while nothing else does (keepAliveMs: 40).
      const comments = s.sse.comments;
      await waitFor(() => s.sse.comments >= comments + 2, WAIT_MS, 'two keep-alive comments');
      // Progress and log messages never appear on a listen stream.
      assert.ok(
        s.sse
          .messages()
          .every((x) => x.method !== 'notifications/progress' && x.method !== 'notifications/message'),
      );
      assert.equal(s.sse.ended, false);
    } finally {
      s.abort();
    }
  });

  test('a notification POST in the modern era → 202, no body', async () => {
    const r = await postJson(
      f.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'notifications/cancelled' },
    );
    assert.equal(r.status, 202);
    assert.equal(r.body, '');
  });

  test('a notification POST whose params carry the modern _meta → 202, not a request left unanswered', async () => {
    // Found by the coverage-guided fuzzer: it was dispatched as a request and never answered.
    for (const method of ['notifications/initialized', 'tools/list']) {
      const r = await within(
        postJson(
          f.url,
          { jsonrpc: '2.0', method, params: { _meta: { [MetaKey.ProtocolVersion]: MODERN } } },
          { 'mcp-protocol-version': MODERN, 'mcp-method': method },
        ),
        WAIT_MS,
        `the answer to a ${method} notification`,
      );
      assert.equal(r.status, 202, method);
      assert.equal(r.body, '', method);
    }
  });
});
