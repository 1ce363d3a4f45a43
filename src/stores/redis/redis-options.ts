/**
 * The options of the Redis stores, apart from the stores themselves: they name no ioredis
 * type, so `serve()`'s options (which take them) type-check in a project without the
 * optional ioredis package.
 */

export interface RedisEventStoreOptions {
  /** Most events kept per stream (approximately; default 1000). */
  maxEventsPerStream?: number;
  /** A stream nobody writes for this long is deleted (default 10 minutes). */
  ttlMs?: number;
  /** How often a follower checks that the writing node is alive (default 1 s). */
  livenessMs?: number;
}

export interface RedisStoresOptions extends RedisEventStoreOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /** Prefix of every key and channel, so several servers can share one Redis (default `mcp:`). */
  keyPrefix?: string;
  /** This node's id in the cluster (default: random). */
  nodeId?: string;
  /**
   * This node's lease (ms, default 3 s; renewed every third of it): once it runs out, other
   * nodes treat the node as gone. Its unfinished tasks are then failed, and the requests of
   * its resumed streams get an error. Shorter finds dead nodes sooner; too short for the
   * node's pauses (a long GC, a loaded machine) fails tasks that were still running.
   */
  nodeLeaseMs?: number;
  /** How long to wait for Redis at start-up before failing (default 5 s). */
  connectTimeoutMs?: number;
  /** A command not answered in this time fails, so a hung Redis gives 503s rather than hangs (default 2 s). */
  commandTimeoutMs?: number;
  /**
   * The MRTR `requestState` key. Default: one random key kept in Redis, the same for every
   * node; set it to keep Redis out of the trust chain for request state.
   */
  requestStateKey?: Uint8Array;
}
