import { LocalError, parseFrame, serializeMessage } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';

/**
 * One end of an in-process connection. Messages are serialized and parsed on the way, so
 * both ends see exactly what a wire would carry and share no objects.
 */
export class MemoryTransport implements Transport {
  readonly kind = 'memory';
  peer: MemoryTransport | undefined;
  private sink: TransportSink | undefined;
  private backlog: string[] = [];
  private closed = false;

  start(sink: TransportSink): void {
    this.sink = sink;
    const queued = this.backlog;
    this.backlog = [];
    for (const text of queued) sink.frame(parseFrame(text));
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed)
      return Promise.reject(new LocalError('ConnectionClosed', 'The in-memory transport is closed'));
    const text = serializeMessage(message);
    const peer = this.peer;
    // Deliver on a later microtask, as a real transport would never re-enter the sender.
    queueMicrotask(() => peer?.deliver(text));
    return Promise.resolve();
  }

  /** Called by the other end. */
  deliver(text: string): void {
    if (this.closed) return;
    if (this.sink) this.sink.frame(parseFrame(text));
    else this.backlog.push(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sink?.closed();
    const peer = this.peer;
    queueMicrotask(() => void peer?.close());
  }
}

/**
 * Creates two linked transports: what one sends, the other receives.
 *
 * @example
 * ```ts
 * const [clientSide, serverSide] = memoryPair();
 * await server.connect(serverSide);
 * await client.connect(clientSide);
 * ```
 */
export function memoryPair(): [MemoryTransport, MemoryTransport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
