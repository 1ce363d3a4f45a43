import type { Redis, RedisOptions } from 'ioredis';
import { LocalError } from '../../jsonrpc/index.js';
import { importOptionalPeer } from '../../jsonrpc/optional-peer.js';
import type { SharedStores } from '../../transports/http-server/shared-state.js';
import { RedisChannels, RedisClusterBus } from './redis-bus.js';
import { guarded } from './redis-errors.js';
import { redisKeys } from './redis-keys.js';
import { RedisEventStore } from './redis-event-store.js';
import type { RedisStoresOptions } from './redis-options.js';

export type { RedisStoresOptions } from './redis-options.js';
import { RedisLegacySessionStore } from './redis-session-store.js';
import { RedisTaskStore } from './redis-task-store.js';

/** The shared stores on Redis, with what a test or a dashboard may want to read. */
export interface RedisStores extends SharedStores {
  readonly nodeId: string;
  /** The command connection (for metrics; do not close it yourself). */
  readonly redis: Redis;
  /** Tasks, shared by every node (a server's `tasks.store` option, if set, wins). */
  readonly taskStore: RedisTaskStore;
}

function randomHex(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}

function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, '0');
  return s;
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Where the URL points, without its password, for messages. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.username = '';
    return u.toString();
  } catch {
    return 'the configured Redis URL';
  }
}

async function open(
  ctor: new (url: string, o: RedisOptions) => Redis,
  url: string,
  o: RedisOptions,
  timeoutMs: number,
): Promise<Redis> {
  const client = new ctor(url, { ...o, lazyConnect: true });
  // Until it is up, errors are reported by connect() below; later ones by failing commands.
  client.on('error', () => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return client;
  } catch (e) {
    client.disconnect();
    throw new LocalError(
      'StoreUnavailable',
      `Cannot reach Redis at ${shown(url)}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connects the stores that let many nodes serve one MCP endpoint behind a load balancer
 * without sticky sessions. Fails fast, with a clear `StoreUnavailable` error, when Redis
 * cannot be reached; later outages make requests that need it fail with 503 until Redis is
 * back, and the connection recovers by itself. Needs the optional peer package `ioredis`
 * (`npm install ioredis`); without it this rejects with a `PackageMissing` error.
 *
 * @example
 * ```ts
 * const stores = await connectRedisStores({ url: 'redis://127.0.0.1:6379' });
 * const running = await serve(server, { port: 3000, stores });
 * ```
 */
export async function connectRedisStores(options: RedisStoresOptions | string): Promise<RedisStores> {
  const o: RedisStoresOptions = typeof options === 'string' ? { url: options } : options;
  const ctor: new (url: string, o: RedisOptions) => Redis = (
    await importOptionalPeer('ioredis', 'Redis support', () => import('ioredis'))
  ).Redis;
  const prefix = o.keyPrefix ?? 'mcp:';
  const nodeId = o.nodeId ?? randomHex(6);
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(nodeId)) {
    throw new LocalError('InvalidConfiguration', 'nodeId must be 1 to 32 letters, digits, - or _');
  }
  const settings: RedisOptions = {
    // Fail at once while disconnected rather than queue: callers answer 503, nobody waits.
    enableOfflineQueue: false,
    // Commands of one tick (a touch, a priming event, a drop) leave in one write.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    commandTimeout: o.commandTimeoutMs ?? 2000,
    retryStrategy: (times) => Math.min(50 * times, 1000),
  };
  const timeout = o.connectTimeoutMs ?? 5000;
  const redis = await open(ctor, o.url, settings, timeout);
  let sub: Redis;
  try {
    // The subscriber keeps its subscriptions across reconnects (ioredis resubscribes).
    sub = await open(ctor, o.url, { ...settings, commandTimeout: undefined }, timeout);
  } catch (e) {
    redis.disconnect();
    throw e;
  }
  const channels = new RedisChannels(sub);
  const bus = new RedisClusterBus(nodeId, redis, prefix);
  const leaseMs = o.nodeLeaseMs ?? 3000;
  if (!(Number.isFinite(leaseMs) && leaseMs >= 300)) {
    redis.disconnect();
    sub.disconnect();
    throw new LocalError('InvalidConfiguration', 'nodeLeaseMs must be a number of at least 300');
  }
  // The lease holds this process's own token, so a node restarted under the same id does not
  // revive the leases of tasks its earlier process was running.
  const instance = randomHex(6);
  const nodeKey = redisKeys(prefix).node(nodeId);
  const beat = (): Promise<unknown> => redis.set(nodeKey, instance, 'PX', leaseMs);
  let requestStateKey = o.requestStateKey;
  try {
    await bus.start(channels);
    await beat();
    if (!requestStateKey) {
      await redis.set(`${prefix}mrtr-key`, randomHex(32), 'NX');
      requestStateKey = fromHex((await redis.get(`${prefix}mrtr-key`)) ?? '');
    }
  } catch (e) {
    redis.disconnect();
    sub.disconnect();
    throw new LocalError('StoreUnavailable', `Redis at ${shown(o.url)} failed at start-up: ${String(e)}`, {
      cause: e,
    });
  }
  // The heartbeat tells followers of this node's streams that it is alive.
  const heartbeat = setInterval(() => void beat().catch(() => undefined), Math.floor(leaseMs / 3));
  heartbeat.unref?.();
  const reconnectListeners: Array<() => void> = [];
  const key = requestStateKey;
  redis.on('ready', () => {
    // Back after an outage; a Redis restarted without persistence has lost everything.
    void beat().catch(() => undefined);
    if (!o.requestStateKey) void redis.set(`${prefix}mrtr-key`, toHex(key), 'NX').catch(() => undefined);
    for (const l of reconnectListeners) l();
  });
  return {
    nodeId,
    redis,
    sessions: new RedisLegacySessionStore(redis, prefix),
    events: new RedisEventStore(redis, channels, prefix, o),
    taskStore: new RedisTaskStore(redis, channels, prefix, {
      self: `${nodeId}/${instance}`,
      leaseMs,
      alive: async (runner) => {
        const slash = runner.lastIndexOf('/');
        const token = await guarded(redis.get(redisKeys(prefix).node(runner.slice(0, slash))));
        return token === runner.slice(slash + 1);
      },
    }),
    bus,
    requestStateKey,
    onReconnect: (listener) => void reconnectListeners.push(listener),
    close: async () => {
      clearInterval(heartbeat);
      await redis.del(nodeKey).catch(() => undefined);
      redis.disconnect();
      sub.disconnect();
    },
  };
}
