import { LocalError } from '../jsonrpc/index.js';
import type { Wrap } from '../session/interceptors.js';
import type { ClientRequest } from './interceptors.js';

/** Methods that change nothing on the server, so a second attempt is harmless. */
const SAFE_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  attempts?: number;
  /** The first backoff; each next one doubles, with full jitter (default 200 ms). */
  baseDelayMs?: number;
  /** No wait is longer; a `Retry-After` asking for more ends the retries (default 10 s). */
  maxDelayMs?: number;
  /**
   * Retry `tools/call` even when the tool's annotations do not say it is idempotent or
   * read-only: `true` for every tool, or a list of tool names.
   */
  toolCalls?: boolean | readonly string[];
  /** More methods to treat as safe to repeat (an extension's read methods, say). */
  methods?: readonly string[];
  /** Decides retryability instead of the default (transport failures, HTTP 429 and 503). */
  retryable?: (error: unknown) => boolean;
  /** Told before each wait: which attempt failed, why, and how long until the next. */
  onRetry?: (event: { method: string; attempt: number; delayMs: number; error: unknown }) => void;
}

/** The HTTP status and headers of a failure the HTTP transport reports (its `HttpError`). */
function httpOf(
  error: unknown,
): { status: number; headers?: { get(name: string): string | null } } | undefined {
  const cause = error instanceof LocalError ? (error.cause as { status?: unknown } | undefined) : undefined;
  if (error instanceof LocalError && typeof (error as { status?: unknown }).status === 'number')
    return error as unknown as { status: number };
  return cause && typeof cause.status === 'number' ? (cause as { status: number }) : undefined;
}

/**
 * Whether a failure is worth another attempt: the request never got an answer because
 * the transport failed (network, a dropped connection), or the server said 429 or 503.
 * A JSON-RPC error from the server is an answer: not retried.
 */
export function isRetryableFailure(error: unknown): boolean {
  if (!(error instanceof LocalError) || error.code !== 'ConnectionClosed') return false;
  const http = httpOf(error);
  if (http) return http.status === 429 || http.status === 503;
  // A closed session fails without a cause: another attempt would fail the same way.
  return error.cause !== undefined;
}

/** The wait a `Retry-After` header asks for (seconds or an HTTP date), if any. */
function retryAfterMs(error: unknown): number | undefined {
  const value = httpOf(error)?.headers?.get('retry-after');
  if (value == null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Waits, or rejects as soon as the signal fires. */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted)
      return reject(new LocalError('Cancelled', 'The request was aborted', { cause: signal.reason }));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LocalError('Cancelled', 'The request was aborted', { cause: signal!.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A client interceptor that retries failed requests with exponential backoff, but only
 * where a repeat is harmless: safe methods (lists, reads, prompts, completion, discover),
 * and `tools/call` only for a tool annotated `idempotentHint` or `readOnlyHint` (as last
 * listed) or one you name in `toolCalls`. Only failures without an answer are retried
 * (see {@link isRetryableFailure}); `Retry-After` is honoured; the caller's `signal` ends
 * the waiting.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' }, {
 *   interceptors: [retry({ attempts: 4, toolCalls: ['get_weather'] })],
 * });
 * ```
 */
export function retry(options: RetryOptions = {}): Wrap<ClientRequest> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const base = options.baseDelayMs ?? 200;
  const max = options.maxDelayMs ?? 10_000;
  const extra = new Set(options.methods);
  const retryable = options.retryable ?? isRetryableFailure;
  const repeatable = (r: ClientRequest): boolean => {
    if (SAFE_METHODS.has(r.method) || extra.has(r.method)) return true;
    if (r.method !== 'tools/call') return false;
    const name = r.params.name;
    if (typeof name !== 'string') return false;
    const tools = options.toolCalls;
    if (tools === true || (Array.isArray(tools) && tools.includes(name))) return true;
    const a = r.ctx.toolAnnotations(name);
    return a?.idempotentHint === true || a?.readOnlyHint === true;
  };
  return {
    type: 'wrap',
    name: 'retry',
    async wrap(request, next) {
      if (!repeatable(request)) return next();
      for (let attempt = 1; ; attempt++) {
        try {
          return await next();
        } catch (e) {
          const signal = request.options?.signal;
          if (attempt >= attempts || signal?.aborted || !retryable(e)) throw e;
          const asked = retryAfterMs(e);
          if (asked !== undefined && asked > max) throw e;
          const delayMs = asked ?? Math.round(Math.random() * Math.min(max, base * 2 ** (attempt - 1)));
          options.onRetry?.({ method: request.method, attempt, delayMs, error: e });
          await delay(delayMs, signal);
        }
      }
    },
  };
}
