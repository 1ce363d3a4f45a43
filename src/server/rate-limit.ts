import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { principalKey } from '../protocol/principal.js';
import { Session } from '../session/index.js';
import type { RequestContext, SessionLogger } from '../session/index.js';
import { MemoryRateLimitStore } from './rate-limit-store.js';
import type { RateBucket, RateLimitStore } from './rate-limit-store.js';

/** A token bucket: `perSecond` requests on average, `burst` at once (default: `perSecond`, at least 1). */
export interface RateLimitRule {
  perSecond: number;
  burst?: number;
}

/**
 * Rate limits per caller, on every transport. A request is counted against each limit that
 * applies to it (`requests`, its method's, its tool's), all or none; over any of them it is
 * refused with `ErrorCode.RateLimited` and `data.retryAfterMs` (over HTTP, on a modern
 * request, 429 with `Retry-After`).
 *
 * The caller is the authenticated principal (issuer and subject), else the network address
 * the HTTP layer saw (never a header the client sets), else the connection (stdio,
 * in-memory). Behind a proxy every anonymous caller has the proxy's address: give `key`.
 *
 * @example
 * ```ts
 * const server = new McpServer(
 *   { name: 'search', version: '1.0.0' },
 *   {
 *     rateLimit: {
 *       requests: { perSecond: 10, burst: 20 },
 *       tools: { deep_search: { perSecond: 0.2, burst: 2 } },
 *       onStoreError: 'allow',
 *     },
 *   },
 * );
 * ```
 */
export interface RateLimitOptions {
  /** Every request of a caller (not `initialize` or `ping`, which the session answers). */
  requests?: RateLimitRule;
  /** Per method, such as `'resources/read'`: each its own bucket per caller. */
  methods?: Readonly<Record<string, RateLimitRule>>;
  /** Per tool name (`tools/call`): each its own bucket per caller. */
  tools?: Readonly<Record<string, RateLimitRule>>;
  /** Where buckets are kept (default: this process's memory, 10,000 buckets at most). */
  store?: RateLimitStore;
  /**
   * What a store that fails or does not answer within `storeTimeoutMs` means (default
   * `'allow'`): the limiter sheds load, it is not an access control, so a Redis outage should
   * not also take every request down with it. `'refuse'` answers `RateLimited` instead.
   */
  onStoreError?: 'allow' | 'refuse';
  /** How long to wait for the store (default 250 ms). */
  storeTimeoutMs?: number;
  /** Called on every store failure (the logger hears of an outage once, and of its end). */
  onStoreFailure?: (error: unknown) => void;
  /** Who the caller is, when the default does not fit; undefined falls back to it. */
  key?: (ctx: RequestContext) => string | undefined;
}

/** When a store fails closed, how soon the caller is told to come back. */
const STORE_DOWN_RETRY_MS = 1000;

function bucketOf(name: string, limit: RateLimitRule): RateBucket {
  const perSecond = limit.perSecond;
  if (!(typeof perSecond === 'number' && perSecond > 0 && Number.isFinite(perSecond))) {
    throw new RangeError(`Rate limit ${name}: perSecond must be a positive number`);
  }
  const burst = limit.burst ?? Math.max(1, perSecond);
  if (!(typeof burst === 'number' && burst >= 1 && Number.isFinite(burst))) {
    throw new RangeError(`Rate limit ${name}: burst must be a number of at least 1`);
  }
  return Object.freeze({ name, perSecond, burst });
}

/** Connection numbers for callers known by nothing else (stdio, in-memory). */
const connectionIds = new WeakMap<object, number>();
let connectionCount = 0;

/**
 * Applies {@link RateLimitOptions} to requests. The bucket lists are built once, here: a
 * request allocates nothing but its caller key.
 */
export class RateLimiter {
  private readonly store: RateLimitStore;
  private readonly general: readonly RateBucket[] | undefined;
  private readonly byMethod = new Map<string, readonly RateBucket[]>();
  private readonly byTool = new Map<string, readonly RateBucket[]>();
  private readonly timeoutMs: number;
  private storeDown = false;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly logger: SessionLogger,
  ) {
    this.store = options.store ?? new MemoryRateLimitStore();
    this.timeoutMs = options.storeTimeoutMs ?? 250;
    const req = options.requests ? [bucketOf('requests', options.requests)] : [];
    this.general = req.length > 0 ? req : undefined;
    for (const [method, limit] of Object.entries(options.methods ?? {})) {
      this.byMethod.set(method, [...req, bucketOf(`method:${method}`, limit)]);
    }
    const callBuckets = this.byMethod.get('tools/call') ?? req;
    for (const [tool, limit] of Object.entries(options.tools ?? {})) {
      this.byTool.set(tool, [...callBuckets, bucketOf(`tool:${tool}`, limit)]);
    }
  }

  /** Throws (or rejects with) a `RateLimited` WireError when the request is over a limit. */
  admit(params: Params, rc: RequestContext): void | Promise<void> {
    const method = rc.method;
    let buckets = this.byMethod.get(method) ?? this.general;
    if (method === 'tools/call' && this.byTool.size > 0 && typeof params.name === 'string') {
      buckets = this.byTool.get(params.name) ?? buckets;
    }
    if (buckets === undefined) return;
    const caller = this.callerOf(rc);
    let taken: number | Promise<number>;
    try {
      taken = this.store.take(caller, buckets);
    } catch (e) {
      return this.storeFailed(e, rc);
    }
    if (typeof taken === 'number') return this.decide(taken, rc, params);
    return this.timed(taken).then(
      (ms) => this.decide(ms, rc, params),
      (e: unknown) => this.storeFailed(e, rc),
    );
  }

  private callerOf(rc: RequestContext): string {
    const own = this.options.key?.(rc);
    if (own !== undefined) return 'k:' + own;
    const principal = principalKey(rc.authInfo);
    if (principal !== '') return 'p:' + principal;
    if (rc.remoteAddress !== undefined) return 'a:' + rc.remoteAddress;
    // A stateless request with no address (a fetch runtime that does not expose one): all
    // such callers share one bucket rather than each request having a fresh one.
    if (!(rc.session instanceof Session)) return 'anonymous';
    let id = connectionIds.get(rc.session);
    if (id === undefined) connectionIds.set(rc.session, (id = ++connectionCount));
    return 'c:' + id;
  }

  private decide(waitMs: number, rc: RequestContext, params: Params): void {
    if (this.storeDown) {
      this.storeDown = false;
      this.logger('warning', 'Rate limit store is answering again');
    }
    if (waitMs <= 0) return;
    const what = rc.method === 'tools/call' ? `tools/call ${String(params.name).slice(0, 100)}` : rc.method;
    this.logger('debug', `Rate limit: refused ${what}`, { retryAfterMs: waitMs }, rc);
    throw new WireError(
      ErrorCode.RateLimited,
      `Rate limit exceeded for ${what}; retry in ${Math.ceil(waitMs / 100) / 10} s`,
      { retryAfterMs: waitMs },
    );
  }

  private storeFailed(e: unknown, rc: RequestContext): void {
    this.options.onStoreFailure?.(e);
    const closed = this.options.onStoreError === 'refuse';
    if (!this.storeDown) {
      this.storeDown = true;
      this.logger(
        'warning',
        `Rate limit store failed; requests are ${closed ? 'refused' : 'allowed'} until it answers again`,
        e,
        rc,
      );
    }
    if (closed) {
      throw new WireError(ErrorCode.RateLimited, 'The rate limit store is unavailable; retry shortly', {
        retryAfterMs: STORE_DOWN_RETRY_MS,
      });
    }
  }

  /** The store's answer, or a rejection once `storeTimeoutMs` has passed: never a hang. */
  private timed(p: Promise<number>): Promise<number> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the rate limit store did not answer in ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }

  close(): Promise<void> | undefined {
    return this.options.store ? undefined : this.store.close?.();
  }
}
