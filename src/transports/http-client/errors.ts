import { LocalError } from '../../jsonrpc/index.js';

/** How much of an error body is kept for the message and for {@link HttpError.body}. */
const BODY_EXCERPT = 1024;

/** A URL as it may appear in an error message: no query string, no credentials. */
export function displayUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * An HTTP exchange that failed locally: a status the transport cannot use, a refused
 * redirect, a body that is too large. It is a {@link LocalError} (it never crosses the
 * wire) that also carries the HTTP status and response headers, so an auth layer can read
 * `status === 401` and `headers.get('www-authenticate')`.
 *
 * @example
 * ```ts
 * try { await session.request('tools/list', {}); }
 * catch (e) {
 *   const http = e instanceof LocalError && e.cause instanceof HttpError ? e.cause : undefined;
 *   if (http?.status === 401) await reauthorize(http.headers.get('www-authenticate'));
 * }
 * ```
 */
export class HttpError extends LocalError {
  /** The HTTP status, or 0 when no usable response arrived (a refused redirect). */
  readonly status: number;
  /** The response headers (empty when no response arrived). */
  readonly headers: Headers;
  /** The start of the response body, for diagnostics. */
  readonly body: string;

  constructor(
    method: string,
    url: URL,
    status: number,
    detail: string,
    options: { headers?: Headers; body?: string; cause?: unknown } = {},
  ) {
    const body = (options.body ?? '').slice(0, BODY_EXCERPT);
    const excerpt = body.trim() === '' ? '' : `: ${body.trim().slice(0, 200)}`;
    super(
      status === 413 ? 'MessageTooLarge' : 'ConnectionClosed',
      `${method} ${displayUrl(url)} ${detail}${excerpt}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.status = status;
    this.headers = options.headers ?? new Headers();
    this.body = body;
  }
}

/** Whether an error is the AbortError a fetch or body read throws after `abort()`. */
export function isAbortError(e: unknown): boolean {
  return (
    typeof e === 'object' &&
    e !== null &&
    ((e as { name?: unknown }).name === 'AbortError' || (e as { code?: unknown }).code === 'ABORT_ERR')
  );
}

/** A failure of fetch itself (network, DNS, abort) as a {@link LocalError}. */
export function requestFailed(method: string, url: URL, e: unknown): LocalError {
  if (e instanceof LocalError) return e;
  const detail = e instanceof Error ? e.message : String(e);
  return new LocalError('ConnectionClosed', `${method} ${displayUrl(url)} failed: ${detail}`, {
    cause: e,
  });
}

/**
 * The server ended the legacy session: a request carrying `Mcp-Session-Id` was answered
 * 404. The transport closes with this error; the client must start a new session (see
 * {@link isSessionExpired}).
 *
 * @example
 * ```ts
 * session.onclose = (e) => { if (e instanceof SessionExpiredError) startOver(); };
 * ```
 */
export class SessionExpiredError extends LocalError {
  /** Read structurally by the client layer, which does not import transports. */
  readonly sessionExpired = true;
  constructor() {
    super('ConnectionClosed', 'session expired (404)');
  }
}

/**
 * Whether an error, or any error in its `cause` chain, is a {@link SessionExpiredError}.
 * The session wraps transport errors (`Connection closed before tools/call was answered`),
 * so look through the chain.
 *
 * @example
 * ```ts
 * session.onclose = (error) => { if (isSessionExpired(error)) void reconnect(); };
 * ```
 */
export function isSessionExpired(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof SessionExpiredError) return true;
  }
  return false;
}
