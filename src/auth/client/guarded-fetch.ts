/**
 * The only way the OAuth layer reaches the network: every URL, and every redirect hop, is
 * checked against the {@link NetworkPolicy} before it is requested; bodies are bounded and
 * requests time out. No Node APIs: on Node, `mcpkit/auth` gives it a fetch that also checks
 * the addresses it connects to (auth/node-network.ts).
 */
import { AuthError, findAuthError } from '../errors.js';
import { checkFetchTarget, shownUrl } from './network-policy.js';
import type { NetworkPolicy } from './network-policy.js';

/** A `fetch` as the OAuth layer calls it. */
export type FetchFn = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Limits of {@link GuardedFetch}. */
export interface GuardedFetchOptions {
  policy: NetworkPolicy;
  /** The underlying fetch (default: the global one). */
  fetch?: FetchFn;
  /** Redirect hops followed for GET requests that allow them (default 5). */
  maxRedirects?: number;
  /** Largest response body read, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Time for one request, redirects and body included, in ms (default 30 s). */
  timeoutMs?: number;
}

/** One request: what it is for (error messages), and whether a GET may follow redirects. */
export interface GuardedRequest extends RequestInit {
  what: string;
  follow?: boolean;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

async function readLimited(
  response: Response,
  max: number,
  url: URL,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (NULL_BODY.has(response.status) || !response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new AuthError('DiscoveryFailed', `The response of ${shownUrl(url)} exceeded ${max} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function withTimeout(signal: AbortSignal | null | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  if (!signal) return timeout;
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  return any ? any([signal, timeout]) : signal;
}

/**
 * A fetch that checks every URL and redirect hop against a {@link NetworkPolicy}, reads
 * bounded bodies and times out.
 *
 * @example
 * ```ts
 * const guarded = new GuardedFetch({ policy: {} });
 * const res = await guarded.fetch(new URL('https://auth.example.com/.well-known/oauth-authorization-server'),
 *   { what: 'authorization server metadata', follow: true });
 * ```
 */
export class GuardedFetch {
  readonly policy: NetworkPolicy;
  private readonly base: FetchFn;
  private readonly maxRedirects: number;
  private readonly maxBodyBytes: number;
  private readonly timeoutMs: number;

  constructor(options: GuardedFetchOptions) {
    this.policy = options.policy;
    const custom = options.fetch;
    this.base = custom ? (input, init) => custom(input, init) : (input, init) => fetch(input, init);
    this.maxRedirects = options.maxRedirects ?? 5;
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /**
   * Sends one request. Redirects are followed only for a GET with `follow`, each hop checked
   * first; otherwise a 3xx is returned as it is. The body is read whole (bounded), so the
   * returned response can be parsed at leisure.
   */
  async fetch(url: URL, request: GuardedRequest): Promise<Response> {
    const { what, follow, ...init } = request;
    const method = (init.method ?? 'GET').toUpperCase();
    const signal = withTimeout(init.signal, this.timeoutMs);
    let target = url;
    for (let hop = 0; ; hop++) {
      const label = hop === 0 ? what : `${what} (redirect)`;
      await checkFetchTarget(target, label, this.policy);
      let response: Response;
      try {
        response = await this.base(target.href, { ...init, method, redirect: 'manual', signal });
      } catch (e) {
        // A fetch that checks addresses when it connects (Node's default) refuses there.
        const unsafe = findAuthError(e);
        if (unsafe?.code === 'UnsafeUrl') {
          throw new AuthError('UnsafeUrl', `Refused the ${label} ${shownUrl(target)}: ${unsafe.message}`, {
            cause: e,
          });
        }
        throw new AuthError('DiscoveryFailed', `Could not reach the ${what} ${shownUrl(target)}`, {
          cause: e,
        });
      }
      if (response.type === 'opaqueredirect') {
        throw new AuthError('DiscoveryFailed', `The ${what} redirected, and the runtime hides where to`);
      }
      const location =
        response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location !== null && follow === true && method === 'GET') {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= this.maxRedirects) {
          throw new AuthError('DiscoveryFailed', `The ${what} ${shownUrl(url)} redirected too many times`);
        }
        target = new URL(location, target);
        continue;
      }
      const body = await readLimited(response, this.maxBodyBytes, target);
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
  }

  /**
   * The same checks as an oauth4webapi `customFetch` (which asks for `redirect: 'manual'`):
   * token, registration and introspection endpoints never redirect.
   */
  readonly custom = (
    url: string,
    options: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal | null },
  ): Promise<Response> => {
    const init: GuardedRequest = { what: 'authorization server endpoint', method: options.method };
    init.headers = options.headers;
    if (options.body !== undefined) init.body = options.body as BodyInit;
    if (options.signal) init.signal = options.signal;
    return this.fetch(new URL(url), init);
  };
}
