/**
 * The state one Streamable HTTP client connection shares between its parts: what the
 * transport learned from the traffic (era, session id, negotiated version, tool headers),
 * the requests in flight, and the way frames reach the session. Internal.
 */
import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, ParsedFrame, RequestId, TransportSink } from '../../jsonrpc/index.js';
import { SessionExpiredError } from './errors.js';
import type { Exchange, StreamCursor } from './exchange.js';
import { undecidedHttpEra } from './http-client-era.js';
import type { HttpClientEra } from './http-client-era.js';
import { callerHeaders, defaultWarn, requesterFor } from './http.js';
import { ToolHeaderBook } from './modern-headers.js';
import { Cancel, requestSameOrigin } from './requester.js';
import type { HeaderRecord, HttpReply, HttpRequester } from './requester.js';
import type { StreamableHttpClientTransportOptions } from './streamable-http-client-transport.js';
import { DEFAULT_MAX_EVENT_CHARS, readSse } from './sse-reader.js';

export type Warn = (message: string, detail?: unknown) => void;

/** What the core needs of the transport's options: all of them but the fallback switch. */
export type CoreOptions = Omit<StreamableHttpClientTransportOptions, 'legacySseFallback'>;

export class HttpClientCore {
  readonly url: URL;
  readonly requester: HttpRequester;
  readonly maxReconnects: number;
  readonly defaultRetryMs: number;
  readonly maxBytes: number;
  readonly warn: Warn;
  readonly book: ToolHeaderBook;
  sink: TransportSink | undefined;
  state: 'new' | 'open' | 'closed' = 'new';
  /** What the era learned from the traffic does differently; undecided until it is named. */
  era: HttpClientEra = undecidedHttpEra;
  /** The legacy session id, from the initialize response. */
  sid: string | undefined;
  /** The legacy version negotiated by initialize, sent as `MCP-Protocol-Version`. */
  negotiated: string | undefined;
  /** The modern version of the latest request, for messages that carry none. */
  modernVersion: string | undefined;
  /** The legacy standalone GET stream, while it is wanted. */
  standalone: StreamCursor | undefined;
  /** Request id → the exchange that owes its response. */
  readonly byId = new Map<RequestId, Exchange>();
  /** One controller per HTTP request in flight. */
  readonly live = new Set<Cancel>();
  /** Streams waiting to reconnect. */
  readonly waiting = new Set<StreamCursor>();

  constructor(private readonly options: CoreOptions) {
    this.url = new URL(options.url);
    this.requester = requesterFor(options);
    this.maxReconnects = options.maxReconnects ?? 5;
    this.defaultRetryMs = options.defaultRetryMs ?? 1000;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_EVENT_CHARS;
    this.warn = options.onwarning ?? defaultWarn;
    this.book = new ToolHeaderBook(this.warn);
  }

  /** A fresh start: nothing learned, nothing in flight. */
  reset(sink: TransportSink): void {
    this.sink = sink;
    this.state = 'open';
    this.era = undecidedHttpEra;
    this.sid = this.negotiated = this.modernVersion = undefined;
    this.standalone = undefined;
    this.book.clear();
  }

  /**
   * The headers of one HTTP request: the caller's, then the protocol's (which win).
   * Synchronous unless the caller's headers come from an async function.
   */
  headersFor(
    kind: 'POST' | 'GET' | 'DELETE',
    message?: JsonRpcMessage | JsonRpcMessage[],
  ): HeaderRecord | Promise<HeaderRecord> {
    const h = callerHeaders(this.options.headers);
    return h instanceof Promise
      ? h.then((r) => this.addHeaders(r, kind, message))
      : this.addHeaders(h, kind, message);
  }

  private addHeaders(
    h: HeaderRecord,
    kind: 'POST' | 'GET' | 'DELETE',
    message: JsonRpcMessage | JsonRpcMessage[] | undefined,
  ): HeaderRecord {
    if (kind === 'POST') {
      h['content-type'] = 'application/json';
      h.accept = 'application/json, text/event-stream';
    } else if (kind === 'GET') {
      h.accept = 'text/event-stream';
    }
    this.era.addHeaders(this, h, message);
    return h;
  }

  /** One HTTP request to the endpoint, following same-origin redirects only. */
  request(
    method: 'POST' | 'GET' | 'DELETE',
    headers: HeaderRecord,
    cancel: Cancel,
    body?: string,
  ): Promise<HttpReply> {
    return requestSameOrigin(
      this.requester,
      body === undefined
        ? { method, url: this.url, headers, cancel }
        : { method, url: this.url, headers, cancel, body },
    );
  }

  /** A controller for one HTTP request of `cursor`'s stream, released by {@link untrack}. */
  track(cursor: StreamCursor, onGet: boolean): Cancel {
    const c = new Cancel();
    cursor.controller = c;
    cursor.onGet = onGet;
    this.live.add(c);
    return c;
  }

  untrack(cursor: StreamCursor, c: Cancel): void {
    this.live.delete(c);
    if (cursor.controller === c) cursor.controller = undefined;
  }

  /** Reads an SSE body, keeping the cursor's event id and retry, delivering each message. */
  consume(cursor: StreamCursor, reply: HttpReply): Promise<unknown> {
    return readSse(
      reply,
      {
        event: (ev) => {
          // An empty `id:` resets the last event id (SSE), so nothing is sent back.
          if (ev.id !== undefined) cursor.lastEventId = ev.id === '' ? undefined : ev.id;
          cursor.attempts = 0;
          if (ev.data === '' || (ev.event !== undefined && ev.event !== 'message')) return;
          this.deliver(parseFrame(ev.data));
        },
        retry: (ms) => {
          cursor.retryMs = ms;
        },
      },
      this.maxBytes,
    );
  }

  /** Hands a frame to the session, noting the responses it carries first. */
  deliver(frame: ParsedFrame): void {
    if (this.state !== 'open') return;
    const done: Exchange[] = [];
    if (frame instanceof ParsedBatch) {
      for (const item of frame.items) {
        if (!(item instanceof InvalidMessage)) this.noteInbound(item, done);
      }
    } else if (!(frame instanceof InvalidMessage)) {
      this.noteInbound(frame, done);
    }
    try {
      this.sink?.frame(frame);
    } catch (e) {
      this.warn('The session failed to take a message', e);
    }
    for (const ex of done) this.settle(ex);
  }

  /** A response: stop owing it; learn the negotiated version or the tools' headers. */
  private noteInbound(msg: JsonRpcMessage, done: Exchange[]): void {
    if ('method' in msg || msg.id === null) return;
    const ex = this.byId.get(msg.id);
    const method = ex?.owed.get(msg.id);
    if (!ex || method === undefined) return;
    ex.owed.delete(msg.id);
    this.byId.delete(msg.id);
    if ('result' in msg) {
      if (method === 'initialize' && typeof msg.result.protocolVersion === 'string') {
        this.negotiated = msg.result.protocolVersion;
      } else if (method === 'tools/list') {
        msg.result = this.era.learnTools(this, msg.result);
      }
    }
    if (ex.owed.size === 0) done.push(ex);
  }

  /** Ends an exchange: resolves its `send()` promise, or rejects it with `error`. */
  settle(ex: Exchange, error?: unknown): void {
    if (ex.settled) return;
    ex.settled = true;
    for (const id of ex.owed.keys()) if (this.byId.get(id) === ex) this.byId.delete(id);
    ex.owed.clear();
    if (ex.timer !== undefined) {
      clearTimeout(ex.timer);
      ex.timer = undefined;
      this.waiting.delete(ex);
    }
    // A resumed stream (a GET) has nothing left to carry; a POST stream is read to its end.
    if (ex.onGet) ex.controller?.abort();
    if (error === undefined) ex.resolve();
    else ex.reject(error);
  }

  /** A 404 on a request carrying the session id: the server ended the session. */
  expire(): void {
    if (this.state === 'open') this.shutdown(new SessionExpiredError());
  }

  /** Aborts everything, tells the session, then fails what was still owed. */
  shutdown(error: LocalError | undefined): void {
    this.state = 'closed';
    for (const c of this.live) c.abort();
    for (const cursor of this.waiting) clearTimeout(cursor.timer);
    this.waiting.clear();
    this.standalone = undefined;
    const exchanges = new Set(this.byId.values());
    this.byId.clear();
    this.sink?.closed(error);
    const reason = error ?? new LocalError('ConnectionClosed', 'The HTTP transport closed');
    for (const ex of exchanges) this.settle(ex, reason);
  }
}
