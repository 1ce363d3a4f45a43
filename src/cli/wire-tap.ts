import { InvalidMessage, ParsedBatch } from '../jsonrpc/index.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  ParsedFrame,
  SendOptions,
  Transport,
  TransportSink,
} from '../jsonrpc/index.js';

/** Wraps a transport and writes every message that passes, both ways, to stderr (`--verbose`). */
export class WireTap implements Transport {
  constructor(
    private readonly inner: Transport,
    private readonly write: (line: string) => void = (l) => process.stderr.write(l + '\n'),
  ) {}

  get kind(): string | undefined {
    return this.inner.kind;
  }

  start(sink: TransportSink): void | Promise<void> {
    const tapped: TransportSink = {
      frame: (frame: ParsedFrame, info?: FrameInfo) => {
        this.write(`← ${describe(frame)}`);
        sink.frame(frame, info);
      },
      closed: (error) => sink.closed(error),
    };
    if (sink.ended) tapped.ended = () => sink.ended?.();
    return this.inner.start(tapped);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void> {
    this.write(`→ ${JSON.stringify(message)}`);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  abortRequest(id: string | number): boolean {
    return this.inner.abortRequest?.(id) ?? false;
  }
}

function describe(frame: ParsedFrame): string {
  if (frame instanceof InvalidMessage) return `(invalid: ${frame.error.message})`;
  if (frame instanceof ParsedBatch)
    return JSON.stringify(frame.items.map((i) => (i instanceof InvalidMessage ? null : i)));
  return JSON.stringify(frame);
}
