export { connectRedisStores } from './connect-redis.js';
export type { RedisStores, RedisStoresOptions } from './connect-redis.js';
export { RedisLegacySessionStore } from './redis-session-store.js';
export { RedisEventStore } from './redis-event-store.js';
export type { RedisEventStoreOptions } from './redis-event-store.js';
export { RedisClusterBus } from './redis-bus.js';
export { RedisTaskStore } from './redis-task-store.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
