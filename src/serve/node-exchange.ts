import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { withField } from '../jsonrpc/with-field.js';
import type { BodyResult, HttpExchange, ResponseStream } from '../transports/http-server/index.js';

/**
 * Binds one node:http request to the HTTP core directly: the body is read with
 * `req.on('data')` and answers go out with `res.end(string)` or SSE writes, so no web
 * `Request`, `Response` or `ReadableStream` is ever made.
 */
export class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  authInfo?: unknown;
  private controller: AbortController | undefined;
  private mustClose = false;
  /** Body bytes received so far, kept and discarded alike (the body reader counts them too). */
  received = 0;

  /**
   * @param drainLimit the most request-body bytes read (and thrown away) so that a client
   *   answered early (413, 403, 415...) is still reading when its answer arrives: closing a
   *   socket with unread input makes the kernel send a reset, which loses the answer.
   */
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly drainLimit = 8 << 20,
    private readonly maxStreamBuffer = 4 << 20,
    /** The body a framework's parser already read from `req` (see `nodeListener`). */
    private readonly preread?: string | Uint8Array,
  ) {
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q === -1 ? url : url.slice(0, q);
    this.query = q === -1 ? '' : url.slice(q + 1);
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  get closed(): AbortSignal {
    if (!this.controller) {
      const c = (this.controller = new AbortController());
      // A fresh signal can be aborted at once; a listener set later still sees `aborted`.
      if (this.res.closed) {
        if (!this.res.writableFinished) c.abort();
      } else {
        this.onClose(() => c.abort());
      }
    }
    return this.controller.signal;
  }

  onClose(listener: () => void): void {
    const res = this.res;
    // Gone already (the client left while the body was read): no 'close' will come.
    if (res.closed) {
      if (!res.writableFinished) queueMicrotask(listener);
      return;
    }
    // The usual single listener is kept on the response and called by one shared function:
    // no closure and no once-wrapper per request.
    const held = res as ServerResponse & { [CLOSE_LISTENER]?: () => void };
    if (held[CLOSE_LISTENER] === undefined) {
      held[CLOSE_LISTENER] = listener;
      res.on('close', onResponseClose);
      return;
    }
    res.once('close', () => {
      if (!res.writableFinished) listener();
    });
  }

  readBody(limit: number): Promise<BodyResult> {
    if (this.preread !== undefined) return Promise.resolve(prereadBody(this.preread, limit));
    // The listeners are shared functions and the state one object: five closures per
    // request (each also paying V8's lazy-compile stub on its first call) cost more than
    // reading a small body.
    const promise = new Promise<BodyResult>(captureResolve);
    const req = this.req as ReadingRequest;
    req[READING] = { chunks: [], size: 0, limit, ex: this, resolve: capturedResolve! };
    capturedResolve = undefined;
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyError);
    req.on('aborted', onBodyError);
    return promise;
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    const res = this.res;
    if (res.headersSent || res.destroyed) return;
    // Answered before the whole body arrived (413, 403, 415...). Up to drainLimit bytes the
    // rest is read and dropped, so the client (still sending) sees its answer; a larger
    // upload nobody wants is cut off instead: the answer says `connection: close`.
    if (!this.req.complete) {
      const declared = Number(this.req.headers['content-length'] ?? NaN);
      if (declared > this.drainLimit) this.mustClose = true;
      else return this.respondWhileDraining(status, headers, body ?? '');
    }
    if (this.mustClose) headers = withField(headers, 'connection', 'close');
    // A Content-Length lets Node send the head and the body in one plain write, where the
    // chunked framing it would choose otherwise costs a five-part writev.
    if (body) res.writeHead(status, withLength(headers, body));
    else res.writeHead(status, headers);
    res.end(body);
    if (this.mustClose) res.once('finish', () => this.req.destroy());
  }

  /**
   * Sends the whole answer (its Content-Length tells the client it is complete) but ends
   * the response only once the body is drained: Node closes the socket at the end of a
   * response when the client asked for `connection: close`, and unread input turns that
   * close into a reset. Past drainLimit the connection is hung up (see {@link hangUp}).
   */
  private respondWhileDraining(status: number, headers: Record<string, string>, body: string): void {
    const req = this.req;
    const res = this.res;
    res.writeHead(status, withField(headers, 'content-length', String(Buffer.byteLength(body))));
    res.write(body);
    req.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.received > this.drainLimit) hangUp(req);
    });
    req.on('error', () => undefined);
    req.once('end', () => res.end());
    req.resume();
  }

  stream(status: number, headers: Record<string, string>, whole?: Record<string, string>): ResponseStream {
    return new NodeSseStream(this.res, status, headers, this.maxStreamBuffer, whole ?? headers);
  }
}

/** How long a connection we stopped reading stays half-closed for its client to read the answer. */
const LINGER_MS = 5000;

function destroySocket(socket: Socket): void {
  socket.destroy();
}

/**
 * Ends a connection whose client is still sending, without losing the answer already
 * written: destroying a socket with unread input makes the kernel send a reset, and a reset
 * can overtake an answer the client has not read yet (a 413 lost under load). So reading
 * stops (memory stays flat: the rest waits in the kernel's buffers), a FIN follows the
 * answer, and the socket is destroyed after {@link LINGER_MS}, or sooner if the client
 * resets it (a client that stops on the FIN, as HTTP clients do, is gone by then).
 */
function hangUp(req: IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed || socket.writableEnded) return;
  req.pause();
  socket.pause();
  socket.end();
  setTimeout(destroySocket, LINGER_MS, socket).unref();
}

/** Where `onClose` keeps its first listener on the response. */
const CLOSE_LISTENER = Symbol('mcpkit.onClose');

/** A response's 'close': the client went away unless the response was complete. */
function onResponseClose(this: ServerResponse & { [CLOSE_LISTENER]?: () => void }): void {
  const listener = this[CLOSE_LISTENER];
  if (listener !== undefined && !this.writableFinished) listener();
}

/** A body being read: its chunks so far, its limit, and whom to tell. */
interface BodyRead {
  chunks: Buffer[];
  size: number;
  limit: number;
  ex: NodeExchange;
  resolve: (r: BodyResult) => void;
}

/** Where a request being read keeps its {@link BodyRead}. */
const READING = Symbol('mcpkit.bodyRead');
type ReadingRequest = IncomingMessage & { [READING]?: BodyRead | undefined };

/** The last promise's resolve, taken by a shared executor (no closure per promise). */
let capturedResolve: ((r: BodyResult) => void) | undefined;
function captureResolve(resolve: (r: BodyResult) => void): void {
  capturedResolve = resolve;
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const r = this[READING];
  if (r === undefined) return;
  r.size += chunk.length;
  r.ex.received += chunk.length;
  if (r.size > r.limit) {
    // Stop buffering at once; the rest is drained (bounded) after the 413 goes out.
    r.chunks.length = 0;
    stopReading(this, { ok: false, reason: 'too-large' });
    return;
  }
  r.chunks.push(chunk);
}

function onBodyEnd(this: ReadingRequest): void {
  const r = this[READING];
  if (r === undefined) return;
  // The request is over: its listeners stay (a late 'error' finds nothing to settle)
  // rather than cost four removals per request.
  this[READING] = undefined;
  const chunks = r.chunks;
  const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, r.size);
  r.resolve(isUtf8(buf) ? { ok: true, text: buf.toString('utf8') } : { ok: false, reason: 'invalid-utf8' });
}

function onBodyError(this: ReadingRequest): void {
  stopReading(this, { ok: false, reason: 'aborted' });
}

function stopReading(req: ReadingRequest, result: BodyResult): void {
  const r = req[READING];
  if (r === undefined) return;
  req[READING] = undefined;
  req.off('data', onBodyData);
  req.off('end', onBodyEnd);
  req.off('error', onBodyError);
  req.off('aborted', onBodyError);
  r.resolve(result);
}

/** A body already read by a framework, held to the same limit and UTF-8 check as one read here. */
function prereadBody(body: string | Uint8Array, limit: number): BodyResult {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (buf.length > limit) return { ok: false, reason: 'too-large' };
  if (typeof body === 'string') return { ok: true, text: body };
  if (!isUtf8(buf)) return { ok: false, reason: 'invalid-utf8' };
  return { ok: true, text: Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8') };
}

/**
 * For each shared (frozen) headers object, a copy with a Content-Length slot, refilled for
 * each response: Node reads the object within writeHead and keeps nothing of it.
 */
const sizedHeaders = new WeakMap<Record<string, string>, Record<string, string>>();

/** Response headers plus the Content-Length of a body known in full. */
function withLength(headers: Record<string, string>, body: string): Record<string, string> {
  const length = String(Buffer.byteLength(body));
  // withField, not a spread: see jsonrpc/with-field.ts (Node 20).
  if (!Object.isFrozen(headers)) return withField(headers, 'content-length', length);
  let sized = sizedHeaders.get(headers);
  if (!sized) {
    sized = { ...headers, 'content-length': length };
    sizedHeaders.set(headers, sized);
  } else {
    sized['content-length'] = length;
  }
  return sized;
}

/**
 * Streams with writes waiting for the end of the tick, flushed by one shared setImmediate.
 * The setImmediate is set only for streams still open once the tick's callbacks and
 * microtasks are done: most answers end by then, and leave as complete responses, and an
 * immediate costs far more than a nextTick (a handle started and stopped in libuv, and a
 * loop turn).
 */
const dirty: NodeSseStream[] = [];
let flushScheduled: 'no' | 'tick' | 'immediate' = 'no';

function afterTick(): void {
  for (const s of dirty) {
    if (!s.ended) {
      flushScheduled = 'immediate';
      setImmediate(flushDirty);
      return;
    }
  }
  dirty.length = 0;
  flushScheduled = 'no';
}

function flushDirty(): void {
  flushScheduled = 'no';
  const streams = dirty.splice(0);
  for (const s of streams) s.flush();
}

/**
 * An SSE response on node:http. The writes of one tick are joined and leave in one write at
 * the end of the tick; the headers wait for that write too. A stream that ends within its
 * first tick (the usual answer: priming event, then the result) is sent as one complete
 * response with a Content-Length, like a JSON answer: one syscall, no chunked framing.
 * A stream with nothing to say yet (a GET stream) still sends its headers at the end of
 * the tick.
 */
class NodeSseStream implements ResponseStream {
  private pending = '';
  private queued = false;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly status: number,
    private readonly headers: Record<string, string>,
    private readonly maxBuffer: number,
    /** The headers of a stream sent as one complete response (see HttpExchange.stream). */
    private readonly whole: Record<string, string>,
  ) {
    this.queue();
  }

  write(chunk: string): boolean {
    const res = this.res;
    if (this.done || res.destroyed || res.writableEnded) return false;
    this.pending += chunk;
    // A client that does not read: past the cap, drop the stream rather than buffer on.
    if (this.pending.length + res.writableLength > this.maxBuffer) return this.drop();
    this.queue();
    return true;
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    const res = this.res;
    if (res.writableEnded || res.destroyed) return;
    // Nothing sent yet: the whole stream is known, so it goes out as one complete response.
    if (!res.headersSent) res.writeHead(this.status, withLength(this.whole, this.pending));
    res.end(this.pending);
    this.pending = '';
  }

  get ended(): boolean {
    return this.done || this.res.writableEnded || this.res.destroyed;
  }

  /** Sends the headers, if still unsent, and what this tick wrote. */
  flush(): void {
    this.queued = false;
    const res = this.res;
    if (this.done || res.writableEnded || res.destroyed) return;
    if (!res.headersSent) {
      res.writeHead(this.status, this.headers);
      if (this.pending === '') res.flushHeaders();
    }
    if (this.pending !== '') {
      res.write(this.pending);
      this.pending = '';
      if (res.writableLength > this.maxBuffer) this.drop();
    }
  }

  /** Cuts the connection of a stream whose client stopped reading; a resumable client comes back. */
  private drop(): false {
    this.done = true;
    this.pending = '';
    this.res.destroy();
    return false;
  }

  private queue(): void {
    if (this.queued) return;
    this.queued = true;
    dirty.push(this);
    if (flushScheduled === 'no') {
      flushScheduled = 'tick';
      process.nextTick(afterTick);
    }
  }
}
