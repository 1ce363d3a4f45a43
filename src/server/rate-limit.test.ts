/**
 * Rate limits: the in-memory token buckets (refill, all-or-none, the memory bound), and a
 * server refusing a burst beyond its limit on every transport: in memory and stdio-like
 * connections with a JSON-RPC error carrying `retryAfterMs`, modern HTTP with 429 and
 * `Retry-After`, legacy HTTP in its session's stream. A store that does not answer fails
 * open or closed, as configured, after its timeout, never hanging.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Client } from '../client/client.js';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Transport, TransportSink } from '../jsonrpc/index.js';
import { serve } from '../serve/serve.js';
import { memoryPair } from '../transports/memory/index.js';
import {
  LEGACY,
  POST_HEADERS,
  assertServerMessage,
  modern,
  openLegacySession,
  postJson,
  rpc,
  sseMessages,
} from '../test-support/http-server-harness.js';
import type { Obj } from '../test-support/http-server-harness.js';
import { MemoryRateLimitStore } from './rate-limit-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { RateLimitOptions } from './rate-limit.js';
import { McpServer } from './server.js';
import type { ServerOptions } from './server.js';

const quiet = (): void => undefined;

/** A POST from a chosen local address, to be another caller than 127.0.0.1. */
function postFrom(localAddress: string, url: string, body: Obj, headers: Record<string, string>) {
  return new Promise<{ status: number }>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      localAddress,
      agent: false,
      headers: { ...POST_HEADERS, ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.end(JSON.stringify(body));
  });
}

function limitedServer(rateLimit: RateLimitOptions, options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'limited', version: '1.0.0' },
    { logger: quiet, ...options, rateLimit },
  );
  server.tool({ name: 'fast' }, () => 'fast');
  server.tool({ name: 'slow' }, () => 'slow');
  return server;
}

/** A server-side transport whose frames say they were authenticated as `subject`. */
function authenticated(inner: Transport, subject: string): Transport {
  return {
    kind: inner.kind,
    start: (sink: TransportSink) =>
      inner.start({ ...sink, frame: (frame, info) => sink.frame(frame, { ...info, authInfo: { subject } }) }),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
}

async function connected(server: McpServer, subject?: string): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy', logger: quiet, cache: false });
  const [a, b] = memoryPair();
  await server.connect(subject === undefined ? b : authenticated(b, subject));
  await client.connect(a);
  return client;
}

/** The outcome of one call: 'ok', or the retry hint of a rate limit refusal. */
async function outcome(client: Client, name: string): Promise<'ok' | number> {
  try {
    await client.callTool({ name });
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof WireError, String(e));
    assert.equal(e.code, ErrorCode.RateLimited);
    const ms = (e.data as { retryAfterMs: number }).retryAfterMs;
    assert.ok(Number.isInteger(ms) && ms > 0, `retryAfterMs ${ms}`);
    return ms;
  }
}

describe('MemoryRateLimitStore', () => {
  const one = [{ name: 'requests', perSecond: 2, burst: 3 }];

  test('a full bucket allows its burst, then says when the next token comes, and refills', () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    assert.deepEqual(
      [0, 1, 2].map(() => store.take('a', one)),
      [0, 0, 0],
    );
    assert.equal(store.take('a', one), 500, 'one token every 500 ms');
    now += 250;
    assert.equal(store.take('a', one), 250);
    now += 250;
    assert.equal(store.take('a', one), 0);
    // Another caller has a bucket of its own.
    assert.equal(store.take('b', one), 0);
    now += 60_000;
    assert.deepEqual(
      [0, 1, 2, 3].map(() => store.take('a', one)),
      [0, 0, 0, 500],
      'refilled to burst only',
    );
  });

  test('takes from all of a request’s buckets or from none', () => {
    const now = 0;
    const store = new MemoryRateLimitStore({ now: () => now });
    const general = { name: 'requests', perSecond: 1, burst: 5 };
    const tool = { name: 'tool:slow', perSecond: 1, burst: 1 };
    assert.equal(store.take('a', [general, tool]), 0);
    assert.equal(store.take('a', [general, tool]), 1000);
    // The refused call took nothing from the general bucket: four of five are left.
    assert.deepEqual(
      [0, 1, 2, 3].map(() => store.take('a', [general])),
      [0, 0, 0, 0],
    );
    assert.equal(store.take('a', [general]), 1000);
  });

  test('a flood of distinct callers keeps at most maxKeys buckets', () => {
    const store = new MemoryRateLimitStore({ maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) store.take(`caller-${i}`, one);
    assert.equal(store.size, 100);
    // The most recent callers are the ones kept.
    store.take('caller-9999', one);
    store.take('caller-9999', one);
    assert.ok(store.take('caller-9999', one) > 0);
  });

  test('refuses settings that would mean no limit', () => {
    assert.throws(() => new MemoryRateLimitStore({ maxKeys: 0 }), RangeError);
    assert.throws(() => limitedServer({ requests: { perSecond: 0 } }), RangeError);
    assert.throws(() => limitedServer({ tools: { slow: { perSecond: 1, burst: 0 } } }), RangeError);
  });
});

describe('rate limits on an in-memory connection', () => {
  test('a burst beyond the limit is refused with a retry hint; other connections are not', async () => {
    const server = limitedServer({ requests: { perSecond: 0.5, burst: 3 } });
    const client = await connected(server);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await outcome(client, 'fast'));
    assert.deepEqual(results.slice(0, 3), ['ok', 'ok', 'ok']);
    assert.equal(typeof results[3], 'number');
    assert.ok((results[3] as number) <= 2000);
    // Lists count too: they are requests like any other.
    await assert.rejects(
      client.listTools(),
      (e) => e instanceof WireError && e.code === ErrorCode.RateLimited,
    );
    // Without authentication, each connection is a caller of its own.
    const other = await connected(server);
    assert.equal(await outcome(other, 'fast'), 'ok');
    await client.close();
    await other.close();
    await server.close();
  });

  test('an authenticated principal has one bucket across its connections', async () => {
    const server = limitedServer({ requests: { perSecond: 0.1, burst: 2 } });
    const first = await connected(server, 'alice');
    const second = await connected(server, 'alice');
    const bob = await connected(server, 'bob');
    assert.equal(await outcome(first, 'fast'), 'ok');
    assert.equal(await outcome(second, 'fast'), 'ok');
    assert.equal(typeof (await outcome(first, 'fast')), 'number');
    assert.equal(typeof (await outcome(second, 'fast')), 'number');
    assert.equal(await outcome(bob, 'fast'), 'ok');
    for (const c of [first, second, bob]) await c.close();
    await server.close();
  });

  test('per-tool limits apply to that tool only', async () => {
    const server = limitedServer({ tools: { slow: { perSecond: 0.1, burst: 1 } } });
    const client = await connected(server);
    assert.equal(await outcome(client, 'slow'), 'ok');
    const refused = await outcome(client, 'slow');
    assert.ok(typeof refused === 'number' && refused > 9000 && refused <= 10_000, String(refused));
    for (let i = 0; i < 20; i++) assert.equal(await outcome(client, 'fast'), 'ok');
    await client.close();
    await server.close();
  });

  test('per-method limits', async () => {
    const server = limitedServer({ methods: { 'tools/list': { perSecond: 0.1, burst: 1 } } });
    const client = await connected(server);
    await client.listTools();
    await assert.rejects(
      client.listTools(),
      (e) => e instanceof WireError && e.code === ErrorCode.RateLimited,
    );
    assert.equal(await outcome(client, 'fast'), 'ok');
    await client.close();
    await server.close();
  });
});

/** A store that never answers: what a hung Redis looks like to the limiter. */
const hung: RateLimitStore = { take: () => new Promise<number>(() => undefined) };

describe('a rate limit store that does not answer', () => {
  for (const mode of ['allow', 'refuse'] as const) {
    test(`fails ${mode === 'allow' ? 'open' : 'closed'} after storeTimeoutMs, and says so once`, async () => {
      const warnings: string[] = [];
      const failures: unknown[] = [];
      const server = limitedServer(
        {
          requests: { perSecond: 1 },
          store: hung,
          storeTimeoutMs: 50,
          onStoreError: mode,
          onStoreFailure: (e) => failures.push(e),
        },
        { logger: (level, message) => void (level === 'warning' && warnings.push(message)) },
      );
      const client = await connected(server);
      const started = Date.now();
      const results = [await outcome(client, 'fast'), await outcome(client, 'fast')];
      assert.ok(Date.now() - started < 5000);
      assert.deepEqual(results, mode === 'allow' ? ['ok', 'ok'] : [1000, 1000]);
      assert.equal(failures.length, 2);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0]!, mode === 'allow' ? /allowed/ : /refused/);
      await client.close();
      await server.close();
    });
  }
});

describe('rate limits over HTTP', () => {
  test('a modern request over the limit gets 429 with Retry-After and the hint in the error', async () => {
    const server = limitedServer({ requests: { perSecond: 0.2, burst: 1 } });
    await using running = await serve(server, { port: 0 });
    const call = modern('tools/call', { name: 'fast', arguments: {} });
    const ok = await postJson(running.url, call.body, call.headers);
    assert.equal(ok.status, 200);
    const refused = await postJson(running.url, call.body, call.headers);
    assert.equal(refused.status, 429);
    const error = refused.json?.error as Obj;
    assert.equal(error.code, ErrorCode.RateLimited);
    const ms = (error.data as { retryAfterMs: number }).retryAfterMs;
    assert.ok(ms > 0 && ms <= 5000);
    assert.equal(refused.headers['retry-after'], String(Math.ceil(ms / 1000)));
    assertServerMessage('2026-07-28', refused.json!, 'tools/call');
    await server.close();
  });

  test('unauthenticated HTTP callers are keyed by address, not by a header they send', async () => {
    const server = limitedServer({ requests: { perSecond: 0.2, burst: 1 } });
    await using running = await serve(server, { port: 0 });
    const call = modern('tools/call', { name: 'fast', arguments: {} });
    assert.equal((await postJson(running.url, call.body, call.headers)).status, 200);
    const spoofed = { ...call.headers, 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' };
    assert.equal((await postJson(running.url, call.body, spoofed)).status, 429);
    // Another address is another caller (the whole 127/8 is loopback on Linux).
    assert.equal((await postFrom('127.0.0.2', running.url, call.body, call.headers)).status, 200);
    assert.equal((await postFrom('127.0.0.2', running.url, call.body, call.headers)).status, 429);
    await server.close();
  });

  test('a legacy session gets the refusal in its stream, with the hint', async () => {
    const server = limitedServer({ requests: { perSecond: 0.2, burst: 1 } });
    await using running = await serve(server, { port: 0 });
    const sid = await openLegacySession(running.url);
    const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
    const answers: Obj[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await postJson(running.url, rpc('tools/call', { name: 'fast', arguments: {} }), headers);
      assert.equal(r.status, 200);
      answers.push(r.json ?? sseMessages(r.body)[0]!);
    }
    assert.ok(answers[0]!.result);
    const error = answers[1]!.error as Obj;
    assert.equal(error.code, ErrorCode.RateLimited);
    assert.ok((error.data as { retryAfterMs: number }).retryAfterMs > 0);
    assertServerMessage(LEGACY, answers[1]!, 'tools/call');
    await server.close();
  });
});
