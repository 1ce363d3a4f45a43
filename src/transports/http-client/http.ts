/** The portable HTTP binding of the client transports: `fetch`. No Node APIs. */
import { LocalError } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';
import { Utf8Feed, unsupportedScheme } from './requester.js';
import type { HeaderRecord, HttpReply, HttpRequest, HttpRequester, RequesterWrapper } from './requester.js';

/** Extra request headers: fixed, or computed before every HTTP request (auth tokens). */
export type HeadersOption =
  Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** A `fetch` as the transports call it: never as a method, so browsers accept the global one. */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

function lowercased(from: Record<string, string>): HeaderRecord {
  const out: HeaderRecord = {};
  for (const name in from) {
    if (Object.prototype.hasOwnProperty.call(from, name)) out[name.toLowerCase()] = from[name]!;
  }
  return out;
}

/**
 * A fresh record of the caller's extra headers, names lowercased. Synchronous when the
 * option is a plain record or a function that returns one, which saves a tick per request.
 */
export function callerHeaders(option: HeadersOption | undefined): HeaderRecord | Promise<HeaderRecord> {
  if (option === undefined) return {};
  if (typeof option !== 'function') return lowercased(option);
  const value = option();
  return value instanceof Promise ? value.then(lowercased) : lowercased(value);
}

/**
 * Adds a request's own headers (`SendOptions.headers`) over the transport's. The protocol's
 * headers (`mcp-*`, content negotiation) stay the transport's: a caller cannot forge them.
 */
export function withRequestHeaders(
  h: HeaderRecord,
  extra: Readonly<Record<string, string>> | undefined,
): HeaderRecord {
  if (!extra) return h;
  for (const key of Object.keys(extra)) {
    const name = key.toLowerCase();
    if (name.startsWith('mcp-') || name === 'content-type' || name === 'accept' || name === 'last-event-id')
      continue;
    h[name] = extra[key]!;
  }
  return h;
}

/** Reads a web body through its reader, aborting the read when `signal` fires. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => boolean | void,
): Promise<void> {
  const reader = body.getReader();
  // fetch cannot cancel a body that a reader holds, and a pending read may never settle.
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      const { done, value } = await reader.read();
      if (done) return;
      if (onChunk(value) === false) {
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

function tooLarge(max: number): LocalError {
  return new LocalError('MessageTooLarge', `The response body exceeded ${max} bytes`);
}

class FetchReply implements HttpReply {
  readonly status: number;
  readonly statusText: string;
  private taken = false;

  constructor(
    private readonly response: Response,
    private readonly signal: AbortSignal,
  ) {
    this.status = response.status;
    this.statusText = response.statusText;
  }

  header(name: string): string | null {
    return this.response.headers.get(name);
  }

  headers(): Headers {
    return this.response.headers;
  }

  /** The body stream, once: a second read is an error, not an empty body. */
  private take(): ReadableStream<Uint8Array> | null {
    if (this.taken) throw new LocalError('InvalidMessage', 'The body was read already');
    this.taken = true;
    return this.response.body;
  }

  async bytes(max: number): Promise<Uint8Array> {
    const body = this.take();
    if (!body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = false;
    await readStream(body, this.signal, (chunk) => {
      size += chunk.byteLength;
      if (size > max) return !(over = true);
      chunks.push(chunk);
    });
    if (over) throw tooLarge(max);
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  async read(onText: (text: string) => boolean | void): Promise<void> {
    const body = this.take();
    if (!body) return;
    const feed = new Utf8Feed(onText);
    await readStream(body, this.signal, (chunk) => feed.chunk(chunk));
    feed.end();
  }

  discard(): void {
    if (this.taken) return;
    this.taken = true;
    this.response.body?.cancel().catch(() => undefined);
  }
}

/**
 * The requester on `fetch` (the global one unless given): portable to every runtime.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport({ url, requester: fetchRequester(myFetch) });
 * ```
 */
export function fetchRequester(custom?: typeof fetch): HttpRequester {
  const fetchFn: FetchLike = custom
    ? (input, init) => custom(input, init)
    : (input, init) => fetch(input, init);
  return async (request: HttpRequest): Promise<HttpReply> => {
    const refused = unsupportedScheme(request.url);
    if (refused) throw refused;
    const controller = new AbortController();
    const cancel = request.cancel;
    if (cancel.aborted) controller.abort(cancel.reason);
    else cancel.onAbort((reason) => controller.abort(reason));
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      redirect: 'manual',
    };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchFn(request.url, init);
    if (response.type === 'opaqueredirect') {
      throw new HttpError(request.method, request.url, 0, 'was redirected, and the runtime hides where to');
    }
    return new FetchReply(response, controller.signal);
  };
}

/**
 * The requester a transport uses: the given one, else `fetch` (the caller's or the global
 * one), wrapped by `auth` when there is one.
 */
export function requesterFor(options: {
  fetch?: typeof fetch;
  requester?: HttpRequester;
  auth?: RequesterWrapper;
}): HttpRequester {
  const base = options.requester ?? fetchRequester(options.fetch);
  return options.auth ? options.auth.wrapRequester(base) : base;
}

/** Where the transports report what fails nothing, unless given `onwarning`. */
export function defaultWarn(message: string, detail?: unknown): void {
  console.warn(`[mcpkit] ${message}`, detail ?? '');
}
