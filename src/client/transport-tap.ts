/**
 * A pass-through wrapper around the caller's transport that notes the id of each request
 * the session sends. The session assigns JSON-RPC ids itself and does not return them,
 * but a `subscriptions/listen` stream is named by its request id; since `Session.request`
 * hands the message to the transport synchronously, the id is known right after the call.
 */
import type { JsonRpcMessage, RequestId, SendOptions, Transport, TransportSink } from '../jsonrpc/index.js';

export class TransportTap implements Transport {
  /** Id and method of the last request sent, until {@link take} reads them. */
  private lastId: RequestId | undefined;
  private lastMethod: string | undefined;
  readonly abortRequest?: (id: RequestId) => boolean;

  constructor(private readonly inner: Transport) {
    if (inner.abortRequest) this.abortRequest = (id) => inner.abortRequest!(id);
  }

  get kind(): string | undefined {
    return this.inner.kind;
  }

  start(sink: TransportSink): void | Promise<void> {
    return this.inner.start(sink);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void> {
    if (!Array.isArray(message) && 'method' in message && 'id' in message) {
      this.lastId = message.id;
      this.lastMethod = message.method;
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Forgets the last request, so a following {@link take} sees only what comes next. */
  reset(): void {
    this.lastId = undefined;
    this.lastMethod = undefined;
  }

  /** The id of the request just sent, if it was for `method`. */
  take(method: string): RequestId | undefined {
    const id = this.lastMethod === method ? this.lastId : undefined;
    this.reset();
    return id;
  }
}
