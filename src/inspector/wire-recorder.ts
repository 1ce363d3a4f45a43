/**
 * A pass-through transport that reports every JSON-RPC message, both ways, to the
 * inspector's wire history. It forwards what the host reads off stdio transports (the
 * child's pid and stderr) so health and diagnostics are unchanged.
 */
import { InvalidMessage, ParsedBatch } from '../jsonrpc/index.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  ParsedFrame,
  RequestId,
  SendOptions,
  Transport,
  TransportSink,
} from '../jsonrpc/index.js';

/** Which way a message went: `out` to the server, `in` from it. */
export type WireDirection = 'out' | 'in';

/** Receives each message as it passes; `invalid` describes a frame that did not parse. */
export type WireListener = (direction: WireDirection, message: unknown, invalid?: string) => void;

export class WireRecorder implements Transport {
  readonly abortRequest?: (id: RequestId) => boolean;

  constructor(
    private readonly inner: Transport,
    private readonly listener: WireListener,
  ) {
    if (inner.abortRequest) this.abortRequest = (id) => inner.abortRequest!(id);
  }

  get kind(): string | undefined {
    return this.inner.kind;
  }

  /** The child's process id (stdio). */
  get pid(): number | undefined {
    return (this.inner as { pid?: number }).pid;
  }

  /** The child's stderr (stdio with a piped stderr). */
  get stderr(): unknown {
    return (this.inner as { stderr?: unknown }).stderr;
  }

  start(sink: TransportSink): void | Promise<void> {
    const tapped: TransportSink = {
      frame: (frame: ParsedFrame, info?: FrameInfo) => {
        this.report(frame);
        sink.frame(frame, info);
      },
      closed: (error) => sink.closed(error),
    };
    if (sink.ended) tapped.ended = () => sink.ended?.();
    return this.inner.start(tapped);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void> {
    this.safely('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private report(frame: ParsedFrame): void {
    if (frame instanceof InvalidMessage) return this.safely('in', null, frame.error.message);
    if (frame instanceof ParsedBatch) {
      return this.safely(
        'in',
        frame.items.map((i) => (i instanceof InvalidMessage ? null : i)),
      );
    }
    this.safely('in', frame);
  }

  /** A listener's failure must never break the connection it watches. */
  private safely(direction: WireDirection, message: unknown, invalid?: string): void {
    try {
      this.listener(direction, message, invalid);
    } catch {
      // ignored: the history is a convenience
    }
  }
}
