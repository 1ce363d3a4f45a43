/**
 * A `fetch` for the MCP transports that carries the bearer token and recovers from 401 and
 * 403 `insufficient_scope` by (re)authorizing and retrying. Pass it as the transport's
 * `fetch` option: the transports stay free of auth code.
 */
import type { BearerChallenge } from './www-authenticate.js';
import { bearerChallengeOf } from './www-authenticate.js';

/** What {@link authFetch} needs from the OAuth client. */
export interface TokenSource {
  /** The MCP server; the token is only ever sent to its origin. */
  readonly serverUrl: URL;
  /** The current access token, refreshed if it expired; undefined before authorization. */
  accessToken(): Promise<string | undefined>;
  /**
   * The DPoP proof to send with `token` on one request, or undefined for a Bearer token
   * (RFC 9449 §7).
   */
  proofFor?(token: string, method: string, url: string): Promise<string | undefined>;
  /**
   * Sees every answer of the MCP server: remembers a `DPoP-Nonce`, and says whether the
   * answer was a `use_dpop_nonce` challenge the request should be retried after (RFC 9449 §9).
   */
  observe?(status: number, headers: Headers, url: string): boolean;
  /** Gets a new or better token after a 401 or 403 `insufficient_scope` answer. */
  recover(
    status: 401 | 403,
    challenge: BearerChallenge | undefined,
    failedToken: string | undefined,
  ): Promise<void>;
}

function replayable(body: unknown): boolean {
  return body === undefined || body === null || !(body instanceof ReadableStream);
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Wraps `base` so that requests to the MCP server's origin carry `Authorization: Bearer`
 * (never a query parameter), and a 401, or a 403 with `error="insufficient_scope"`, runs
 * the authorization flow and retries, at most `maxAttempts` times per request; after that
 * the last answer is returned and the transport reports it. Requests to other origins pass
 * through untouched, without the token.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport({ url, fetch: authFetch(oauth, fetch, 3) });
 * ```
 */
export function authFetch(
  source: TokenSource,
  base: typeof fetch = (input, init) => fetch(input, init),
  maxAttempts = 3,
): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const href = input instanceof Request ? input.url : String(input);
    if (new URL(href, source.serverUrl).origin !== source.serverUrl.origin) return base(input, init);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    let nonceRetried = false;
    for (let attempt = 0; ; attempt++) {
      const token = await source.accessToken();
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      if (token !== undefined) {
        const proof = await source.proofFor?.(token, method, href);
        headers.set('authorization', proof === undefined ? `Bearer ${token}` : `DPoP ${token}`);
        if (proof !== undefined) headers.set('dpop', proof);
      }
      const response = await base(input, { ...init, headers });
      const status = response.status;
      if (source.observe?.(status, response.headers, href) && !nonceRetried && replayable(init?.body)) {
        // A nonce challenge: the same request once more, with a proof carrying the nonce.
        nonceRetried = true;
        attempt--;
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      if (status !== 401 && status !== 403) return response;
      const challenge = bearerChallengeOf(response.headers);
      if (status === 403 && challenge?.error !== 'insufficient_scope') return response;
      if (attempt >= maxAttempts || !replayable(init?.body) || input instanceof Request) return response;
      await response.body?.cancel().catch(() => undefined);
      await abortable(source.recover(status, challenge, token), init?.signal);
    }
  };
}
