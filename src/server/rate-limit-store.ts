/**
 * Token buckets kept per caller: the store seam of the server's rate limits, and its
 * in-memory implementation (one process). `RedisRateLimitStore` (mcpkit/stores/redis) is the
 * one several nodes share.
 */

/** One limit a request is counted against. */
export interface RateBucket {
  /** Which limit: `requests`, `method:<name>` or `tool:<name>`. */
  readonly name: string;
  /** Tokens added per second. */
  readonly perSecond: number;
  /** Most tokens the bucket holds: how many requests may come at once after a quiet spell. */
  readonly burst: number;
}

/**
 * Where the buckets live. `take` takes one token from each of a caller's buckets, all or
 * none, and answers 0 when it did, or how many ms until every bucket has a token again.
 * It may throw or reject when the store is out of reach; the limiter then applies
 * `onStoreError`.
 *
 * @example
 * ```ts
 * const store: RateLimitStore = new MemoryRateLimitStore({ maxKeys: 50_000 });
 * const server = new McpServer(
 *   { name: 'demo', version: '1.0.0' },
 *   { rateLimit: { requests: { perSecond: 10, burst: 20 }, store } },
 * );
 * ```
 */
export interface RateLimitStore {
  take(caller: string, buckets: readonly RateBucket[]): number | Promise<number>;
  close?(): Promise<void>;
}

export interface MemoryRateLimitStoreOptions {
  /**
   * Most buckets kept (default 10,000): past it the least recently used go, so a flood of
   * distinct callers cannot grow memory without bound. A caller whose bucket was dropped
   * starts again with a full one.
   */
  maxKeys?: number;
  /** Clock in ms, for tests (default `Date.now`). */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** When it was last put at the end of the Map's order. */
  seq: number;
}

/**
 * Token buckets in this process's memory, least recently used dropped past `maxKeys`.
 *
 * @example
 * ```ts
 * const store = new MemoryRateLimitStore({ maxKeys: 1000 });
 * store.take('alice', [{ name: 'requests', perSecond: 1, burst: 1 }]); // 0: allowed
 * store.take('alice', [{ name: 'requests', perSecond: 1, burst: 1 }]); // about 1000: retry then
 * ```
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private readonly half: number;
  private seq = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    const max = options.maxKeys ?? 10_000;
    if (!(Number.isInteger(max) && max > 0)) throw new RangeError('maxKeys must be a positive integer');
    this.maxKeys = max;
    this.half = max >> 1;
    this.now = options.now ?? Date.now;
  }

  /** Buckets held. */
  get size(): number {
    return this.buckets.size;
  }

  take(caller: string, buckets: readonly RateBucket[]): number {
    const now = this.now();
    // One or two buckets per request: refill and check them all before taking from any.
    let wait = 0;
    const n = buckets.length;
    const found = n === 1 ? undefined : new Array<Bucket>(n);
    let only: Bucket | undefined;
    for (let i = 0; i < n; i++) {
      const b = buckets[i]!;
      const key = caller + '\u0000' + b.name;
      let entry = this.buckets.get(key);
      if (entry === undefined) {
        entry = { tokens: b.burst, at: now, seq: ++this.seq };
        this.buckets.set(key, entry);
      } else {
        if (now > entry.at) {
          entry.tokens = Math.min(b.burst, entry.tokens + ((now - entry.at) * b.perSecond) / 1000);
          entry.at = now;
        }
        // Approximately least recently used: an entry moves to the end of the Map's order only
        // once it has fallen into its older half, so a busy caller costs no re-insert per call.
        if (this.seq - entry.seq > this.half) {
          this.buckets.delete(key);
          this.buckets.set(key, entry);
          entry.seq = ++this.seq;
        }
      }
      if (found) found[i] = entry;
      else only = entry;
      if (entry.tokens < 1) wait = Math.max(wait, Math.ceil(((1 - entry.tokens) * 1000) / b.perSecond));
    }
    if (wait === 0) {
      if (found) for (const e of found) e.tokens -= 1;
      else only!.tokens -= 1;
    }
    while (this.buckets.size > this.maxKeys) {
      this.buckets.delete(this.buckets.keys().next().value as string);
    }
    return wait;
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
