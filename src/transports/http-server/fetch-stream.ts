import type { ResponseStream } from './exchange.js';

const enc = new TextEncoder();

/** Who is told when the client cancels a stream's body. */
interface StreamOwner {
  clientGone(): void;
}

/**
 * Bun, Deno and Node have `setImmediate`: one shared check after the macrotask serves every
 * stream opened in it. Cloudflare Workers are left out even when they offer it: a Worker's
 * I/O belongs to the request that made it, and one request's check must not start another
 * request's response stream ("Cannot perform I/O on behalf of a different request"); there
 * each stream has its own zero-delay timer, set in its own request's turn, which a stream
 * that ends first clears (a timer costs less than a `ReadableStream` body, chunked). Workers
 * say who they are in `navigator.userAgent`.
 */
const onWorkers =
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
const immediate: ((run: () => void) => unknown) | undefined = onWorkers
  ? undefined
  : (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;

/** Streams opened in this macrotask, looked at once it is over (one scheduled check for all). */
const opened: FetchSseStream[] = [];
let checkScheduled = false;

function afterTurn(): void {
  checkScheduled = false;
  const streams = opened.splice(0);
  for (const s of streams) s.open();
}

/**
 * An SSE response as a web `Response`. Its writes wait until the macrotask that opened it
 * is over: a stream that has ended by then (the usual answer of a POST: a priming event,
 * then the result) is sent as one string body with the `whole` headers, which Bun and Deno
 * write natively; only a stream still open then becomes a `ReadableStream` body, with what
 * was written so far as its first chunk. Past `maxBuffer` bytes waiting for a client that
 * does not read, the stream is dropped.
 */
export class FetchSseStream implements ResponseStream {
  private pending = '';
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private done = false;
  /** Whether the Response has been handed over (a string body, or the stream). */
  private resolved = false;
  /** On Workers: the timer that opens the stream if it has not ended by then. */
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly resolve: (response: Response) => void,
    private readonly owner: StreamOwner,
    private readonly status: number,
    private readonly headers: Record<string, string>,
    private readonly whole: Record<string, string>,
    private readonly maxBuffer: number,
  ) {
    if (typeof immediate !== 'function') {
      if (onWorkers) this.timer = setTimeout(() => this.open(), 0);
      else this.open();
      return;
    }
    opened.push(this);
    if (!checkScheduled) {
      checkScheduled = true;
      immediate(afterTurn);
    }
  }

  write(chunk: string): boolean {
    if (this.done) return false;
    const c = this.controller;
    if (!c) {
      this.pending += chunk;
      // Counted in UTF-16 units, near enough to bytes for a cap.
      if (this.pending.length > this.maxBuffer) {
        this.open();
        return this.drop();
      }
      return true;
    }
    c.enqueue(enc.encode(chunk));
    // The client does not read: drop the stream rather than buffer on.
    if ((c.desiredSize ?? 0) < 0) return this.drop();
    return true;
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    if (this.controller) this.controller.close();
    else if (!this.resolved) {
      // Ended before its turn was over: the whole stream is known, one string body.
      this.resolved = true;
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.resolve(new Response(this.pending, { status: this.status, headers: this.whole }));
      this.pending = '';
    }
  }

  get ended(): boolean {
    return this.done;
  }

  /** Starts the streamed response (once), its body beginning with what was written so far. */
  open(): void {
    if (this.resolved) return;
    this.resolved = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.controller = c;
        },
        cancel: () => {
          this.done = true;
          this.owner.clientGone();
        },
      },
      // Counted in bytes, so desiredSize says how far over the cap an unread stream is.
      { highWaterMark: this.maxBuffer, size: (chunk) => chunk.byteLength },
    );
    this.resolve(new Response(body, { status: this.status, headers: this.headers }));
    if (this.pending !== '') {
      this.controller!.enqueue(enc.encode(this.pending));
      this.pending = '';
    }
  }

  private drop(): false {
    this.done = true;
    this.pending = '';
    this.controller?.error(new Error('stream buffer cap exceeded'));
    this.owner.clientGone();
    return false;
  }
}
