/**
 * Rate limits on Redis, with a real redis-server: two server instances (each with its own
 * Redis connections, as two nodes would have) share one principal's buckets, so a burst
 * spread over both is refused past the limit on either; per-tool buckets are taken with the
 * general one, all or none; buckets expire once full again; and with Redis stopped each
 * node fails open or closed as configured, at once rather than after a hang.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../client/client.js';
import { ErrorCode, WireError } from '../../jsonrpc/index.js';
import type { Transport, TransportSink } from '../../jsonrpc/index.js';
import { McpServer } from '../../server/server.js';
import type { RateLimitOptions } from '../../server/rate-limit.js';
import { memoryPair } from '../../transports/memory/index.js';
import { startRedis } from '../../test-support/cluster.js';
import type { RedisProcess } from '../../test-support/cluster.js';
import { missing } from '../../test-support/services.js';
import { connectRedisStores } from './connect-redis.js';
import type { RedisStores } from './connect-redis.js';
import { RedisRateLimitStore } from './redis-rate-limit-store.js';

const NO_REDIS = missing('redis');
let redis: RedisProcess;
const opened: RedisStores[] = [];
const closers: Array<() => Promise<void>> = [];
let prefixCounter = 0;

before(async () => {
  if (!NO_REDIS) redis = await startRedis();
});
after(async () => {
  for (const close of closers.splice(0)) await close();
  for (const s of opened.splice(0)) await s.close();
  await redis?.stop();
});

function authenticated(inner: Transport, subject: string): Transport {
  return {
    kind: inner.kind,
    start: (sink: TransportSink) =>
      inner.start({ ...sink, frame: (frame, info) => sink.frame(frame, { ...info, authInfo: { subject } }) }),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
}

/** One node: a server with its own Redis connections, and a client of it as `subject`. */
async function node(
  keyPrefix: string,
  rateLimit: Omit<RateLimitOptions, 'store'>,
  subject = 'alice',
): Promise<{ client: Client; stores: RedisStores }> {
  const stores = await connectRedisStores({ url: redis.url, keyPrefix });
  opened.push(stores);
  const store = new RedisRateLimitStore(stores.redis, { keyPrefix });
  const server = new McpServer(
    { name: 'limited', version: '1.0.0' },
    { logger: () => undefined, rateLimit: { ...rateLimit, store } },
  );
  server.tool({ name: 'fast' }, () => 'fast');
  server.tool({ name: 'slow' }, () => 'slow');
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy', logger: () => undefined });
  const [a, b] = memoryPair();
  await server.connect(authenticated(b, subject));
  await client.connect(a);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, stores };
}

async function outcome(client: Client, name: string): Promise<'ok' | number> {
  try {
    await client.callTool({ name });
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof WireError, String(e));
    assert.equal(e.code, ErrorCode.RateLimited, e.message);
    return (e.data as { retryAfterMs: number }).retryAfterMs;
  }
}

describe('RedisRateLimitStore', { skip: NO_REDIS }, () => {
  test('two nodes share a principal’s bucket: a burst across both is refused past the limit', async () => {
    const prefix = `rl${process.pid}-${prefixCounter++}:`;
    const limit = { requests: { perSecond: 0.1, burst: 4 } };
    const a = await node(prefix, limit);
    const b = await node(prefix, limit);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await outcome(i % 2 === 0 ? a.client : b.client, 'fast'));
    assert.deepEqual(results.slice(0, 4), ['ok', 'ok', 'ok', 'ok']);
    for (const r of results.slice(4)) assert.ok(typeof r === 'number' && r > 0 && r <= 10_000, String(r));
    // Another principal on the same nodes is not affected.
    const bob = await node(prefix, limit, 'bob');
    assert.equal(await outcome(bob.client, 'fast'), 'ok');
    // The bucket is on the caller's slot and expires once it would be full again.
    const keys = await a.stores.redis.keys(`${prefix}{rl:*`);
    assert.equal(keys.length, 2, keys.join(', '));
    for (const key of keys) {
      const ttl = await a.stores.redis.pttl(key);
      assert.ok(ttl > 0 && ttl <= 41_000, `${key}: ${ttl}`);
    }
  });

  test('per-tool buckets are taken with the general one, all or none', async () => {
    const prefix = `rl${process.pid}-${prefixCounter++}:`;
    const limit = { requests: { perSecond: 0.1, burst: 3 }, tools: { slow: { perSecond: 0.1, burst: 1 } } };
    const a = await node(prefix, limit);
    const b = await node(prefix, limit);
    assert.equal(await outcome(a.client, 'slow'), 'ok');
    assert.equal(typeof (await outcome(b.client, 'slow')), 'number');
    // The refused call took nothing from the general bucket: two of three are left.
    assert.equal(await outcome(b.client, 'fast'), 'ok');
    assert.equal(await outcome(a.client, 'fast'), 'ok');
    assert.equal(typeof (await outcome(a.client, 'fast')), 'number');
  });

  // Last: it stops Redis.
  test('with Redis stopped, a node fails open or closed as configured, without hanging', async () => {
    const prefix = `rl${process.pid}-${prefixCounter++}:`;
    const open = await node(prefix, { requests: { perSecond: 0.1, burst: 1 } });
    const closed = await node(
      prefix,
      { requests: { perSecond: 0.1, burst: 1 }, onStoreError: 'refuse' },
      'bob',
    );
    assert.equal(await outcome(open.client, 'fast'), 'ok');
    assert.equal(typeof (await outcome(open.client, 'fast')), 'number');
    await redis.stop();
    const started = Date.now();
    assert.equal(await outcome(open.client, 'fast'), 'ok', 'fails open: the limit is not enforced');
    assert.equal(await outcome(closed.client, 'fast'), 1000, 'fails closed: refused with a retry hint');
    assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
  });
});
