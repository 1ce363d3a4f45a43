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

/** Node's read size for a pipe (64 KiB): no single read spans more. */
export const PROGRESS_SEPARATION_BYTES = 64 * 1024;

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
   * later). Node reads a pipe at most 64 KiB at a time, so a response is written with
   * leading whitespace (valid JSON) until its line ends at least this many bytes after the
   * last progress of its own request: the two can never share a read, however late the
   * reader wakes up. Nothing is padded when other output already separates them (default
   * 65,536; 0 turns this off).
   */
  progressSeparationBytes?: number;
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
  private readonly separation: number;
  /** Where the last progress of each request still running ended, in {@link written}. */
  private readonly progressAt = new Map<RequestId, number>();
  /** UTF-16 units queued so far, newlines included: a lower bound of the bytes written. */
  private written = 0;

  constructor(options: StdioServerTransportOptions = {}) {
    this.separation = options.progressSeparationBytes ?? PROGRESS_SEPARATION_BYTES;
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
    let line = serializeMessage(message);
    if (!Array.isArray(message)) {
      if (!('method' in message)) {
        // A response: pushed far enough past a progress of its own request.
        const at = message.id === null ? undefined : this.progressAt.get(message.id);
        if (at !== undefined) {
          this.progressAt.delete(message.id!);
          const pad = this.separation - (this.written - at) - line.length - 1;
          if (pad > 0) line = ' '.repeat(pad) + line;
        }
      } else if (
        this.separation > 0 &&
        options?.relatedRequestId !== undefined &&
        message.method === 'notifications/progress'
      ) {
        // A request cancelled after its progress gets no response: bound what is remembered.
        if (this.progressAt.size >= 10_000) this.progressAt.delete(this.progressAt.keys().next().value!);
        this.progressAt.set(options.relatedRequestId, this.written + line.length + 1);
      }
    }
    this.written += line.length + 1;
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
