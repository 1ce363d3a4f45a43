import type { Params, RequestId } from '../jsonrpc/index.js';
import type { Era } from '../protocol/versions.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { hasCapability } from '../protocol/methods.js';
import type { RequestOptions } from './options.js';
import { sessionEraOf } from './session-era.js';
import { passesLevel } from './logging-levels.js';
import type { LogLevel } from './logging-levels.js';

/** Who is on the other end, as far as this request knows. */
export interface PeerInfo {
  name: string;
  version: string;
  [key: string]: unknown;
}

/** What a request context needs from the session that owns it. */
export interface ContextHost {
  readonly legacyLogLevel: LogLevel | undefined;
  /** Our own declared capabilities. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  sendRelated(requestId: RequestId, method: string, params: Params): void;
  requestOnBehalf(
    ctx: RequestContext,
    method: string,
    params: Params | undefined,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>>;
}

/** What a {@link RequestContext} is made of. */
export interface RequestContextInit {
  /** The session (connection) this request arrived on. */
  session: ContextHost;
  requestId: RequestId;
  method: string;
  params: Params;
  /** The protocol version this request is served under. */
  protocolVersion: string;
  era: Era;
  /** The peer's declared capabilities (per request in the modern era). */
  peerCapabilities: Readonly<Record<string, unknown>>;
  peerInfo: PeerInfo | undefined;
  /** Authentication details from the transport, when there are any. */
  authInfo?: unknown;
}

/**
 * Everything an inbound request's handler may need: its cancellation signal, a progress
 * sender, a logger, the request's `_meta`, who the peer is, and the protocol version.
 * One object per request; the AbortController behind `signal` is made only when asked for.
 */
export class RequestContext {
  private controller: AbortController | undefined;
  private lastProgress = -Infinity;
  /** Set once the request is answered or cancelled; nothing more is sent for it. */
  done = false;
  cancelled = false;
  cancelReason: string | undefined;
  /** For batch collection: where the answer goes instead of straight to the transport. */
  batch: { add(message: unknown): void; skip(): void } | undefined;
  /** The transport's per-request signal (an HTTP response stream), while listened to. */
  transportSignal: AbortSignal | undefined;
  /** Controls the transport offers for this request, such as `closeStream` on legacy HTTP. */
  transportMeta: Readonly<Record<string, unknown>> | undefined;
  /** The peer's network address, when the transport knows it (HTTP on Node). */
  remoteAddress: string | undefined;
  /** What the session's observer returned for this request (see SessionObserver), while it runs. */
  observed: unknown = undefined;

  /** The session (connection) this request arrived on. */
  readonly session: ContextHost;
  readonly requestId: RequestId;
  readonly method: string;
  readonly params: Params;
  /** The protocol version this request is served under. */
  readonly protocolVersion: string;
  readonly era: Era;
  /** The peer's declared capabilities (per request in the modern era). */
  readonly peerCapabilities: Readonly<Record<string, unknown>>;
  readonly peerInfo: PeerInfo | undefined;
  /** Authentication details from the transport, when there are any. */
  readonly authInfo: unknown;

  constructor(init: RequestContextInit) {
    this.session = init.session;
    this.requestId = init.requestId;
    this.method = init.method;
    this.params = init.params;
    this.protocolVersion = init.protocolVersion;
    this.era = init.era;
    this.peerCapabilities = init.peerCapabilities;
    this.peerInfo = init.peerInfo;
    this.authInfo = init.authInfo;
  }

  /** The request's `_meta`, if it had one. */
  get meta(): Readonly<Record<string, unknown>> | undefined {
    const m = this.params._meta;
    return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : undefined;
  }

  /** Fires when the peer cancels the request or the connection or stream closes. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.cancelReason);
    }
    return this.controller.signal;
  }

  /** Marks the request cancelled and fires its signal. */
  cancel(reason?: string): void {
    if (this.cancelled || this.done) return;
    this.cancelled = true;
    this.cancelReason = reason;
    this.controller?.abort(reason);
  }

  /** Lets an AbortSignal listener target the context itself, with no closure. */
  handleEvent(): void {
    this.cancel('The transport closed the request stream');
  }

  /** The progress token the peer asked for, if any. */
  get progressToken(): string | number | undefined {
    const t = this.meta?.[MetaKey.ProgressToken];
    return typeof t === 'string' || typeof t === 'number' ? t : undefined;
  }

  /**
   * Reports progress when the peer asked for it (a no-op otherwise). Values must increase;
   * a value that does not is dropped.
   */
  progress(progress: number, total?: number, message?: string): void {
    const token = this.progressToken;
    if (token === undefined || this.done || this.cancelled) return;
    if (!(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: Params = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.session.sendRelated(this.requestId, 'notifications/progress', params);
  }

  /** The minimum level the peer wants logs at for this request; undefined means none. */
  get logLevel(): LogLevel | undefined {
    // Servers that did not declare logging send no log messages at all.
    if (!hasCapability(this.session.capabilities, 'logging')) return undefined;
    return sessionEraOf(this.era).logLevel(this.meta, this.session.legacyLogLevel);
  }

  /**
   * Sends a log message related to this request, when the peer's level lets it through.
   * In the modern era nothing is sent unless the request opted in with a log level.
   */
  log(level: LogLevel, data: unknown, logger?: string): void {
    if (this.done || this.cancelled) return;
    const min = this.logLevel;
    if (min === undefined || !passesLevel(level, min)) return;
    const params: Params = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.session.sendRelated(this.requestId, 'notifications/message', params);
  }

  /** Sends any notification on this request's channel. */
  notify(method: string, params: Params): void {
    if (this.done || this.cancelled) return;
    this.session.sendRelated(this.requestId, method, params);
  }

  /**
   * Sends a request to the peer on behalf of this one (legacy era only: sampling,
   * elicitation, roots). The modern era has no such requests; see MRTR in the server API.
   */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.session.requestOnBehalf(this, method, params, options);
  }
}
