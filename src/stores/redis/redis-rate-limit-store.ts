import type { Redis } from 'ioredis';
import type { RateBucket, RateLimitStore } from '../../server/rate-limit-store.js';
import { guarded } from './redis-errors.js';
import { redisKeys } from './redis-keys.js';
import type { RedisKeys } from './redis-keys.js';

// KEYS: a caller's buckets (one hash tag, so one slot). ARGV: per bucket, tokens per second
// and burst. Refills every bucket by Redis's own clock (nodes' clocks may differ), then takes
// one token from each, or none when any is short; answers the ms until all have a token.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tokens = {}
local wait = 0
for i = 1, #KEYS do
  local rate = tonumber(ARGV[2 * i - 1]) / 1000
  local burst = tonumber(ARGV[2 * i])
  local b = redis.call('HMGET', KEYS[i], 'v', 't')
  local v = tonumber(b[1])
  local at = tonumber(b[2])
  if v == nil or at == nil then
    v = burst
  elseif now > at then
    v = math.min(burst, v + (now - at) * rate)
  end
  tokens[i] = v
  if v < 1 then
    local w = math.ceil((1 - v) / rate)
    if w > wait then wait = w end
  end
end
for i = 1, #KEYS do
  local rate = tonumber(ARGV[2 * i - 1]) / 1000
  local burst = tonumber(ARGV[2 * i])
  local v = tokens[i]
  if wait == 0 then v = v - 1 end
  redis.call('HSET', KEYS[i], 'v', tostring(v), 't', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil((burst - v) / rate) + 1000)
end
return wait`;

type Scripted = Redis & {
  mcpRateTake(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<number>;
};

export interface RedisRateLimitStoreOptions {
  /** Prefix of every key (default `mcp:`, as `connectRedisStores`). */
  keyPrefix?: string;
}

/**
 * Rate limit buckets in Redis, shared by every node: one script takes from all of a
 * caller's buckets atomically, on Redis's clock. A bucket expires once it would be full
 * again, so idle callers cost nothing. Failures reject with `StoreUnavailable`; the limiter
 * then allows or refuses as its `onStoreError` says.
 *
 * @example
 * ```ts
 * import { connectRedisStores } from 'mcpkit/redis';
 *
 * const stores = await connectRedisStores({ url: 'redis://127.0.0.1:6379' });
 * const server = new McpServer(
 *   { name: 'demo', version: '1.0.0' },
 *   { rateLimit: { requests: { perSecond: 5, burst: 10 }, store: new RedisRateLimitStore(stores.redis) } },
 * );
 * ```
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Scripted;
  private readonly keys: RedisKeys;

  constructor(redis: Redis, options: RedisRateLimitStoreOptions = {}) {
    redis.defineCommand('mcpRateTake', { lua: TAKE });
    this.redis = redis as Scripted;
    this.keys = redisKeys(options.keyPrefix ?? 'mcp:');
  }

  take(caller: string, buckets: readonly RateBucket[]): Promise<number> {
    const args: (string | number)[] = [];
    for (const b of buckets) args.push(this.keys.rateBucket(caller, b.name));
    for (const b of buckets) args.push(b.perSecond, b.burst);
    return guarded(this.redis.mcpRateTake(buckets.length, ...args));
  }
}
