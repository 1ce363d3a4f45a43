import type { Readable, Writable } from 'node:stream';
import { serializeMessage } from '../../jsonrpc/index.js';
import type {
  JsonRpcMessage,
  RequestId,
  SendOptions,
  Transport,
  TransportSink,
} from '../../jsonrpc/index.js';
import { DEFAULT_MAX_MESSAGE_BYTES, createFrameReader } from './frame-reader.js';
import { guardStdout } from './stdout-guard.js';
import { WriteQueue } from './write-queue.js';

export interface StdioServerTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Largest accepted message in bytes (16 MiB). */
  maxMessageBytes?: number;
  /**
   * Sends every other write to stdout to stderr while the transport runs (`console.log`,
   * `info`, `debug`, `dir`, `table`... and `process.stdout.write` itself), with a warning
   * naming the culprit once, so a stray line can never corrupt the protocol stream
   * (default true when stdout is the process's own).
   */
  guardConsole?: boolean;
  /**
   * The official SDK clients drop a progress notification read in the same chunk as its
   * request's response (they handle the response at once, the notification a microtask
   * later). A response is therefore written at least this long after the last progress of
   * its own request, in a separate write (default 5 ms; 0 turns this off).
   */
  progressGapMs?: number;
}

/**
 * The server end of stdio: newline-delimited JSON-RPC on stdin and stdout. A bad line is
 * answered with an error and reading goes on; stdin ending closes the session cleanly.
 *
 * @example
 * ```ts
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class StdioServerTransport implements Transport {
  readonly kind = 'stdio';
  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxBytes: number;
  private readonly guardConsole: boolean;
  private sink: TransportSink | undefined;
  private queue: WriteQueue | undefined;
  private closed = false;
  private restoreConsole: (() => void) | undefined;
  private readonly framer;
  private readonly progressGapMs: number;
  /** When the last progress of each request still running was queued (performance.now()). */
  private readonly progressAt = new Map<RequestId, number>();

  constructor(options: StdioServerTransportOptions = {}) {
    this.progressGapMs = options.progressGapMs ?? 5;
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.guardConsole = options.guardConsole ?? this.stdout === process.stdout;
    this.framer = createFrameReader(this.maxBytes, () => this.sink);
  }

  start(sink: TransportSink): void {
    this.sink = sink;
    let write: ((data: string) => boolean) | undefined;
    if (this.guardConsole) ({ write, release: this.restoreConsole } = guardStdout());
    // Backpressure: while stdout is congested, stop reading new requests.
    this.queue = new WriteQueue(
      this.stdout,
      (congested) => {
        if (congested) this.stdin.pause();
        else if (!this.closed) this.stdin.resume();
      },
      write,
    );
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onError);
    this.stdout.on('error', this.onError);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> | void {
    if (this.closed || !this.queue) return;
    const line = serializeMessage(message);
    if (Array.isArray(message)) return this.queue.push(line);
    if (!('method' in message)) {
      // A response: held back if a progress of its own request went out just before.
      const at = message.id === null ? undefined : this.progressAt.get(message.id);
      if (at === undefined) return this.queue.push(line);
      this.progressAt.delete(message.id!);
      return this.queue.push(line, at + this.progressGapMs);
    }
    const related = options?.relatedRequestId;
    if (related !== undefined && message.method === 'notifications/progress' && this.progressGapMs > 0) {
      // A request cancelled after its progress gets no response: bound what is remembered.
      if (this.progressAt.size >= 10_000) this.progressAt.delete(this.progressAt.keys().next().value!);
      this.progressAt.set(related, performance.now());
    }
    return this.queue.push(line);
  }

  async close(): Promise<void> {
    this.finish();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onEnd = (): void => {
    this.framer.end();
    if (this.sink?.ended) this.sink.ended();
    else this.finish();
  };

  private readonly onError = (error: Error): void => {
    this.finish(error);
  };

  private finish(error?: Error): void {
    if (this.closed) return;
    this.queue?.flush();
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onError);
    this.stdout.off('error', this.onError);
    // Let the process exit once stdin has nothing more to give.
    this.stdin.pause();
    this.restoreConsole?.();
    this.progressAt.clear();
    this.sink?.closed(error);
  }
}
