import type { RequestAuthorizer } from './request-authorizer.js';

/**
 * The small request/response shape the HTTP core works on. Each runtime binding (node:http,
 * web fetch) translates to it, so the core never touches Node or web objects and neither
 * binding pays for the other's.
 */
export interface HttpExchange {
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  /** A request header by lower-case name; repeated headers are joined with ", ". */
  header(name: string): string | undefined;
  /** Reads the body as UTF-8 text, refusing more than `limit` bytes. */
  readBody(limit: number): Promise<BodyResult>;
  /** Fires when the client goes away before the response is complete. */
  readonly closed: AbortSignal;
  /**
   * Calls `listener` once if the client goes away before the response is complete: the
   * same event as {@link closed}, without an AbortController per request where the
   * runtime has a cheaper hook.
   */
  onClose(listener: () => void): void;
  /** Authentication details attached by an auth layer in front of the handler. */
  authInfo?: unknown;
  /** What the auth layer asks of each message once the body is parsed (an `Authentication`'s authorizer). */
  authorizer?: RequestAuthorizer | undefined;
  /** The client's network address, when the runtime knows it (for per-client quotas). */
  readonly remoteAddress?: string | undefined;
  /** Sends a complete response. */
  respond(status: number, headers: Record<string, string>, body?: string): void;
  /**
   * Starts a streamed response (SSE). A binding that can tell the stream ended before
   * anything was sent may send it as one complete response with `whole` as its headers:
   * those that steer intermediaries for a live stream (no buffering, no caching) mean
   * nothing for a body that leaves complete, with its length, in one write.
   */
  stream(status: number, headers: Record<string, string>, whole?: Record<string, string>): ResponseStream;
}

export type BodyResult =
  { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' | 'invalid-utf8' };

/** A streamed response body. */
export interface ResponseStream {
  /**
   * Writes a chunk; false when the client is gone, or when it reads so slowly that more
   * than the stream's buffer cap is waiting for it (the stream is then dropped: a
   * resumable client comes back with Last-Event-ID).
   */
  write(chunk: string): boolean;
  end(): void;
  readonly ended: boolean;
}
