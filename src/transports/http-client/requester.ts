/**
 * The HTTP requests the client transports make, behind one small interface so that the
 * same transport runs on `fetch` (browsers, workers, Deno, Bun, Node) or on a keep-alive
 * `node:http` agent (Node, several times cheaper per request than Node's fetch). No Node
 * APIs here.
 */
import { LocalError } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';

/** Request headers: lowercase names to values. */
export type HeaderRecord = Record<string, string>;

/**
 * The off switch of one HTTP request: aborting it aborts the request and the reading of its
 * body. An `AbortController` with its signal wired into `node:http` costs more per request
 * (about 70 µs here) than all the rest of the transport's own work, so requests carry this
 * one-listener switch instead; the fetch binding turns it into a signal.
 */
export class Cancel {
  aborted = false;
  reason: unknown;
  private listener: ((reason: unknown) => void) | undefined;

  /** Aborts, once; the reason defaults to an `AbortError` as `AbortController` makes. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const listener = this.listener;
    this.listener = undefined;
    listener?.(this.reason);
  }

  /** Sets the one thing to do on abort (the request in flight), or clears it. */
  onAbort(listener: ((reason: unknown) => void) | undefined): void {
    this.listener = listener;
  }
}

/** One HTTP request. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: URL;
  readonly headers: HeaderRecord;
  readonly body?: string;
  readonly cancel: Cancel;
}

/** An HTTP response whose body has not been read yet. */
export interface HttpReply {
  readonly status: number;
  readonly statusText: string;
  /** One response header by lowercase name, or null. */
  header(name: string): string | null;
  /** All response headers (for errors; may be built on demand). */
  headers(): Headers;
  /**
   * The whole body. Rejects with a `MessageTooLarge` LocalError past `max` bytes, or with
   * the failure that ended the body (an abort of the request included).
   */
  bytes(max: number): Promise<Uint8Array>;
  /**
   * Streams the body as text, chunk by chunk, to `onText` (which returns false to stop
   * reading and drop the rest). Resolves when the body ended or was dropped; rejects with
   * the failure that ended it.
   */
  read(onText: (text: string) => boolean | void): Promise<void>;
  /** Drops the body unread. */
  discard(): void;
}

/**
 * Makes one HTTP request and resolves once the response head arrived. Redirects are not
 * followed (see `requestSameOrigin`). Rejects on network failure or abort.
 */
export type HttpRequester = (request: HttpRequest) => Promise<HttpReply>;

/**
 * Something that authorizes a transport's requests by wrapping its requester: the
 * `OAuthClient` of `mcpkit/auth` is one. Given as the transports' `auth` option.
 */
export interface RequesterWrapper {
  wrapRequester(inner: HttpRequester): HttpRequester;
}

const MAX_REDIRECTS = 5;

/**
 * Requests without following redirects to another origin: a redirect can carry the session
 * id, the body and the caller's headers, so only same-origin hops are followed (307/308
 * for any method, 301/302/303 for GET). Anything else fails with an {@link HttpError}.
 */
export async function requestSameOrigin(requester: HttpRequester, request: HttpRequest): Promise<HttpReply> {
  const { method, url } = request;
  let current = request;
  for (let hop = 0; ; hop++) {
    const reply = await requester(current);
    const s = reply.status;
    const location = s >= 300 && s < 400 ? reply.header('location') : null;
    if (location === null) return reply;
    reply.discard();
    const next = new URL(location, current.url);
    if (next.origin !== url.origin) {
      throw new HttpError(method, url, s, `redirected to another origin (${next.origin}), refused`);
    }
    if (s !== 307 && s !== 308 && method !== 'GET') {
      throw new HttpError(method, url, s, `answered a ${s} redirect, which would drop the body`);
    }
    if (hop >= MAX_REDIRECTS) throw new HttpError(method, url, s, 'redirected too many times');
    current = { ...request, url: next };
  }
}

/** Whether a status is 2xx. */
export function isOk(reply: HttpReply): boolean {
  return reply.status >= 200 && reply.status < 300;
}

/** The media type of a reply, lowercased, without parameters. */
export function mediaType(reply: HttpReply): string {
  const type = reply.header('content-type') ?? '';
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

const lenientDecoder = new TextDecoder();

/** Reads a short body as text for an error message; never throws. */
export async function bodyExcerpt(reply: HttpReply): Promise<string> {
  try {
    return lenientDecoder.decode(await reply.bytes(64 * 1024));
  } catch {
    return '';
  }
}

/** An error for a reply whose status the transport cannot use. */
export function replyError(method: string, url: URL, reply: HttpReply, body: string): HttpError {
  const text = reply.statusText ? ` ${reply.statusText}` : '';
  return new HttpError(method, url, reply.status, `answered HTTP ${reply.status}${text}`, {
    headers: reply.headers(),
    body,
  });
}

/** Refuses a URL the requesters cannot fetch (anything but http: and https:). */
export function unsupportedScheme(url: URL): LocalError | undefined {
  const protocol = url.protocol;
  if (protocol === 'http:' || protocol === 'https:') return undefined;
  return new LocalError('InvalidMessage', `Cannot request ${protocol} URLs over HTTP`);
}

/**
 * Feeds byte chunks to `read()`'s text consumer, decoding UTF-8 across chunk boundaries.
 * `chunk` returns false once the consumer stopped; `end` flushes what is left unless it did.
 */
export class Utf8Feed {
  private readonly decoder = new TextDecoder();
  private stopped = false;

  constructor(private readonly onText: (text: string) => boolean | void) {}

  chunk(bytes: Uint8Array): boolean {
    if (this.onText(this.decoder.decode(bytes, { stream: true })) === false) this.stopped = true;
    return !this.stopped;
  }

  end(): void {
    if (this.stopped) return;
    const rest = this.decoder.decode();
    if (rest !== '') this.onText(rest);
  }
}
