// `serve({ redis })`: the Redis stores a server opens for itself, and closes with itself.
// The Redis code (and the optional `ioredis` package) loads only when Redis is configured.
import type { SharedStores } from '../transports/http-server/index.js';
import type { RedisStoresOptions } from '../stores/redis/redis-options.js';

/**
 * The stores a server should use: the ones it was given, or, when only `redis` is set, its
 * own connection to Redis (returned as `own`, for the server to close). Fails when Redis
 * cannot be reached.
 */
export async function storesFor(options: {
  stores?: SharedStores;
  redis?: string | RedisStoresOptions;
}): Promise<{ stores?: SharedStores; own?: SharedStores }> {
  if (options.stores) return { stores: options.stores };
  if (options.redis === undefined) return {};
  const { connectRedisStores } = await import('../stores/redis/connect-redis.js');
  const own = await connectRedisStores(options.redis);
  return { stores: own, own };
}
