/**
 * A `fetch` for the MCP transports that carries the bearer token and recovers from 401 and
 * 403 `insufficient_scope` by (re)authorizing and retrying. Pass it as the transport's
 * `fetch` option: the transports stay free of auth code.
 */
import type { BearerChallenge } from './www-authenticate.js';
import { bearerChallengeOf } from './www-authenticate.js';

/** What {@link createAuthFetch} needs from the OAuth client. */
export interface TokenSource {
  /** The MCP server; the token is only ever sent to its origin. */
  readonly serverUrl: URL;
  /** The current access token, refreshed if it expired; undefined before authorization. */
  accessToken(): Promise<string | undefined>;
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
 * const transport = new StreamableHttpClientTransport({ url, fetch: createAuthFetch(oauth, fetch, 3) });
 * ```
 */
export function createAuthFetch(
  source: TokenSource,
  base: typeof fetch = (input, init) => fetch(input, init),
  maxAttempts = 3,
): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const href = input instanceof Request ? input.url : String(input);
    if (new URL(href, source.serverUrl).origin !== source.serverUrl.origin) return base(input, init);
    for (let attempt = 0; ; attempt++) {
      const token = await source.accessToken();
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      const response = await base(input, { ...init, headers });
      const status = response.status;
      if (status !== 401 && status !== 403) return response;
      const challenge = bearerChallengeOf(response.headers);
      if (status === 403 && challenge?.error !== 'insufficient_scope') return response;
      if (attempt >= maxAttempts || !replayable(init?.body) || input instanceof Request) return response;
      await response.body?.cancel().catch(() => undefined);
      await abortable(source.recover(status, challenge, token), init?.signal);
    }
  };
}
