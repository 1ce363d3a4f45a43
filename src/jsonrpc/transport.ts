import type { JsonRpcMessage, RequestId } from './message.js';
import type { ParsedFrame } from './parse.js';

/** Where a transport delivers what it reads. */
export interface TransportSink {
  /** One parsed frame: a message, a batch, or an envelope failure to answer. */
  frame(frame: ParsedFrame, info?: FrameInfo): void;
  /** The connection ended; `error` says why when it was not a clean close. */
  closed(error?: Error): void;
  /**
   * The peer will send nothing more (stdin reached end of file), but answers may still be
   * written. The session finishes what is in flight, then closes the transport.
   */
  ended?(): void;
}

/** Per-frame facts a transport knows and the session may use. */
export interface FrameInfo {
  /** Authentication details attached by an HTTP auth layer. */
  authInfo?: unknown;
  /** Fired when the transport's per-request channel (an HTTP response stream) closes early. */
  signal?: AbortSignal;
  /** Headers or other transport metadata, read-only. */
  transportMeta?: Readonly<Record<string, unknown>>;
  /**
   * The peer's network address as the transport saw it (the socket's, never a header the
   * peer sets); what rate limits key an unauthenticated caller by.
   */
  remoteAddress?: string;
}

/** Per-send hints a transport may use to pick the right stream. */
export interface SendOptions {
  /** The inbound request this message belongs to (progress, logs, the response itself). */
  relatedRequestId?: RequestId;
  /** Extra HTTP headers for this request's POST (the streamable HTTP client; others ignore them). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A transport moves JSON-RPC messages: it can start, send and close. Framing, streams and
 * processes are its business; everything else is the session's.
 */
export interface Transport {
  start(sink: TransportSink): void | Promise<void>;
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void>;
  close(): Promise<void>;
  /**
   * Cancels an outbound request at the transport level (closing its HTTP response stream).
   * Returns true when that is the cancellation signal, so no `notifications/cancelled`
   * is needed. Transports without per-request channels leave it out.
   */
  abortRequest?(id: RequestId): boolean;
  /** A short name for diagnostics: `stdio`, `memory`, `http`, `sse`. */
  readonly kind?: string;
}
