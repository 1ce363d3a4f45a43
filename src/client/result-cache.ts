/**
 * A cache for results the server marks fresh (`ttlMs`, `cacheScope`; 2026-07-28).
 * Keys are the method plus the parameters that shape the result (never `_meta`).
 * `public` results are shared by every client of the same namespace (server); `private`
 * ones only within one authorization context.
 */

/** The longest freshness honoured, whatever the server says (24 h). */
export const MAX_TTL_MS = 86_400_000;

export interface ResultCacheOptions {
  /** Most entries kept; the least recently stored go first (default 1000). */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Where a client's entries live inside a (possibly shared) cache. */
export interface CachePartition {
  /** The server: public results are shared within it. */
  namespace: string;
  /** The authorization context: private results are kept within it. */
  authContext: string;
}

interface Entry {
  value: Record<string, unknown>;
  expiresAt: number;
  namespace: string;
  /** `public`, or `private:` and the authorization context. */
  scope: string;
  method: string;
  uri: string | undefined;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => k !== '_meta' && obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The freshness a result asks for, in ms; 0 when it must not be cached. */
export function freshnessOf(result: Record<string, unknown>): number {
  const ttl = result.ttlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) return 0;
  return Math.min(Math.floor(ttl), MAX_TTL_MS);
}

/**
 * A bounded map of fresh results. Entries are cloned on the way in and out, so callers
 * may change what they get without touching the cache.
 *
 * @example
 * ```ts
 * const shared = new ResultCache({ maxEntries: 500 });
 * const a = new Client(info, { cache: shared, cacheNamespace: 'https://mcp.example.com' });
 * const b = new Client(info, { cache: shared, cacheNamespace: 'https://mcp.example.com', authContext: 'user-2' });
 * ```
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: ResultCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 1000);
    this.now = options.now ?? Date.now;
  }

  /** Number of entries held, fresh or not yet swept. */
  get size(): number {
    return this.entries.size;
  }

  private key(namespace: string, scope: string, method: string, params: unknown): string {
    return `${namespace}\u0000${scope}\u0000${method}\u0000${canonical(params ?? {})}`;
  }

  /** A fresh result for this request, public or private to `partition`, or undefined. */
  get(partition: CachePartition, method: string, params: unknown): Record<string, unknown> | undefined {
    const now = this.now();
    for (const scope of ['private:' + partition.authContext, 'public']) {
      const key = this.key(partition.namespace, scope, method, params);
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (now < entry.expiresAt) return structuredClone(entry.value);
      this.entries.delete(key);
    }
    return undefined;
  }

  /** Stores a complete result when its `ttlMs` makes it fresh; returns whether it did. */
  set(partition: CachePartition, method: string, params: unknown, result: Record<string, unknown>): boolean {
    const ttl = freshnessOf(result);
    if (ttl === 0) return false;
    const scope = result.cacheScope === 'public' ? 'public' : 'private:' + partition.authContext;
    const key = this.key(partition.namespace, scope, method, params);
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    this.entries.delete(key);
    this.entries.set(key, {
      value: structuredClone(result),
      expiresAt: this.now() + ttl,
      namespace: partition.namespace,
      scope,
      method,
      uri: typeof uri === 'string' ? uri : undefined,
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return true;
  }

  /** Drops every entry of these methods in a namespace (a list changed). */
  invalidateMethods(namespace: string, methods: readonly string[]): void {
    for (const [key, e] of this.entries) {
      if (e.namespace === namespace && methods.includes(e.method)) this.entries.delete(key);
    }
  }

  /** Drops cached reads of a resource (it was updated), including parents and children. */
  invalidateResource(namespace: string, uri: string): void {
    for (const [key, e] of this.entries) {
      if (e.namespace !== namespace || e.uri === undefined) continue;
      if (e.uri === uri || uri.startsWith(e.uri) || e.uri.startsWith(uri)) this.entries.delete(key);
    }
  }

  /** Drops one authorization context's private entries in a namespace (it reconnected, or signed out). */
  clearPrivate(partition: CachePartition): void {
    const scope = 'private:' + partition.authContext;
    for (const [key, e] of this.entries) {
      if (e.namespace === partition.namespace && e.scope === scope) this.entries.delete(key);
    }
  }

  /** Drops everything in a namespace, or everything when none is given. */
  clear(namespace?: string): void {
    if (namespace === undefined) {
      this.entries.clear();
      return;
    }
    for (const [key, e] of this.entries) if (e.namespace === namespace) this.entries.delete(key);
  }
}
