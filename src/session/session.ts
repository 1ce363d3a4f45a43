import { LocalError } from '../jsonrpc/index.js';
import { fixedJson } from '../jsonrpc/raw-json.js';
import { metaDeclaring } from './modern-meta.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  JsonRpcNotification,
  Params,
  ParsedFrame,
  RequestId,
  Transport,
} from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { ParamsOf, RequestType, WireResult } from '../protocol/methods.js';
import { shapeNotification } from '../protocol/revision-shaping.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import type { Era } from '../protocol/versions.js';
import { runInitialize } from './client-handshake.js';
import { clientRole } from './client-role.js';
import { InboundDispatch } from './inbound-dispatch.js';
import type { LegacyState } from './lifecycle.js';
import type { LogLevel } from './logging-levels.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './options.js';
import type { RequestOptions } from './options.js';
import { NotificationGate } from './notification-gate.js';
import { OutboundCalls } from './outbound-calls.js';
import type { ContextHost, PeerInfo, RequestContext } from './request-context.js';
import { serverRole } from './server-role.js';
import type { SessionRole } from './session-role.js';
import { sessionLoggerOf } from './library-logger.js';
import type { Implementation, NotificationHandler, RequestHandler, SessionOptions } from './session-types.js';
import { SessionWire } from './session-wire.js';
import { isObject } from '../jsonrpc/is-object.js';

/**
 * The MCP engine for one connection, for the role it is given. It wires a transport to
 * an inbound half (routing, dispatch, refusals: `inbound-dispatch.ts`) and an outbound
 * half (ids, timeouts, progress, cancellation: `outbound-calls.ts`), and holds the era
 * state both read: the legacy lifecycle or the modern per-request `_meta`. It knows
 * nothing of transports beyond the {@link Transport} interface.
 *
 * @example
 * ```ts
 * const session = new Session({ role: 'client', info: { name: 'me', version: '1.0.0' } });
 * await session.connect(transport);
 * await session.initialize();
 * const tools = await session.request('tools/list', {});
 * ```
 */
export class Session implements ContextHost {
  readonly role: SessionRole;
  readonly info: Implementation;
  readonly capabilities: Record<string, unknown>;
  readonly instructions: string | undefined;
  readonly versions: readonly string[];

  /** The negotiated (legacy) or pinned (modern) version; undefined before either. */
  protocolVersion: string | undefined;
  era: Era | undefined;
  legacyState: LegacyState = 'new';
  peerCapabilities: Record<string, unknown> | undefined;
  peerInfo: PeerInfo | undefined;
  peerInstructions: string | undefined;
  /** Set by `logging/setLevel` on a legacy connection. */
  legacyLogLevel: LogLevel | undefined;

  /** Called for notifications no handler took; useful for clients that watch everything. */
  onnotification: ((n: JsonRpcNotification) => void) | undefined;
  /** Called once when the connection closes. Belongs to the application; see addCloseListener. */
  onclose: ((error?: Error) => void) | undefined;

  private readonly wire: SessionWire;
  private readonly outbound: OutboundCalls;
  private readonly inbound: InboundDispatch;
  private readonly closeListeners: Array<(error?: Error) => void> = [];

  constructor(options: SessionOptions) {
    const role = options.role;
    this.role = role === 'client' ? clientRole : role === 'server' ? serverRole : role;
    this.info = options.info;
    this.capabilities = options.capabilities ?? {};
    this.instructions = options.instructions;
    this.versions = options.versions ?? ALL_VERSIONS;
    this.wire = new SessionWire(sessionLoggerOf(options.logger));
    this.wire.observer = options.observer;
    if (options.interceptors)
      this.wire.gate = new NotificationGate(
        options.interceptors,
        this.role.name === 'server' ? 'server' : 'client',
        this.wire.logger,
      );
    this.outbound = new OutboundCalls(
      this.wire,
      this,
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
    );
    this.inbound = new InboundDispatch(
      this,
      this.wire,
      this.outbound,
      options.requestHandlers,
      options.notificationHandlers,
    );
  }

  // ---------------------------------------------------------------- wiring

  /** Attaches a transport and starts reading from it. */
  async connect(transport: Transport): Promise<void> {
    if (this.wire.transport) throw new LocalError('AlreadyConnected', 'This session already has a transport');
    this.wire.transport = transport;
    const inbound = this.inbound;
    await transport.start({
      frame: (frame, info) => inbound.receive(frame, info),
      closed: (error) => this.handleClosed(error),
      ended: () => this.handleInputEnded(),
    });
  }

  /** Entry point for a transport's frames; public so custom transports can feed it. */
  receive(frame: ParsedFrame, info?: FrameInfo): void {
    this.inbound.receive(frame, info);
  }

  /** Whether the connection is open. */
  get isOpen(): boolean {
    return this.wire.transport !== undefined && !this.wire.closed;
  }

  /** Number of outbound requests waiting for an answer. */
  get pendingCount(): number {
    return this.outbound.size;
  }

  /** Number of inbound requests being handled. */
  get inboundCount(): number {
    return this.inbound.size;
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.inbound.ownRequestHandlers.set(method, handler);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.inbound.ownNotificationHandlers.set(method, handler);
  }

  /**
   * Runs `listener` once when the connection closes, before `onclose`. Layers built on the
   * session (a server's per-connection bookkeeping) use this, so an application that sets
   * `onclose` cannot switch them off.
   */
  addCloseListener(listener: (error?: Error) => void): void {
    if (this.wire.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Closes the transport; everything pending is rejected at once. */
  async close(): Promise<void> {
    const t = this.wire.transport;
    this.handleClosed();
    if (t) await t.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---------------------------------------------------------------- eras

  /**
   * Client side of the legacy handshake: `initialize`, a version check, then
   * `notifications/initialized`. A server answering with a version this client does not
   * speak ends the connection with a `VersionMismatch` error.
   */
  async initialize(
    options: { protocolVersion?: string; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const result = await runInitialize(this, options);
    this.legacyState = 'ready';
    await this.notify('notifications/initialized');
    return result;
  }

  /**
   * Client side of the modern era: pins a version, after which every request carries
   * `_meta` with the version, our capabilities and our info.
   */
  useModern(version: string): void {
    this.protocolVersion = version;
    this.era = 'modern';
    // A frozen copy whose text serializeMessage splices into every request.
    this.outbound.modernMeta = fixedJson({
      [MetaKey.ProtocolVersion]: version,
      [MetaKey.ClientCapabilities]: this.capabilities,
      [MetaKey.ClientInfo]: this.info,
    });
  }

  /**
   * The `_meta` a request carries once {@link useModern} pinned a version, declaring
   * `capabilities` instead of the session's (undefined before). Cached: a request built with
   * it is sent as it is, with no second copy of its params. Internal.
   */
  modernMetaDeclaring(
    capabilities: Readonly<Record<string, unknown>>,
  ): Readonly<Record<string, unknown>> | undefined {
    const base = this.outbound.modernMeta;
    return base === undefined ? undefined : metaDeclaring(base, capabilities);
  }

  /** Records what `server/discover` said about the server (modern client). */
  applyDiscover(answer: object): void {
    const result = answer as Record<string, unknown>;
    this.peerCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    const meta = result._meta;
    const info = isObject(meta) ? meta[MetaKey.ServerInfo] : undefined;
    this.peerInfo = isObject(info) ? (info as PeerInfo) : undefined;
    this.peerInstructions = typeof result.instructions === 'string' ? result.instructions : undefined;
  }

  // ---------------------------------------------------------------- outbound

  /**
   * Sends a request and resolves with its result. Given a descriptor from the method table
   * (`Method['tools/list']`), params and result are typed; given a name, they are plain
   * objects. Rejects with a `WireError` when the peer answers with an error, or a
   * {@link LocalError} on timeout, cancellation, a closed connection or a capability the
   * peer did not declare.
   */
  request<D extends RequestType>(
    type: D,
    params: ParamsOf<D>,
    options?: RequestOptions,
  ): Promise<WireResult<D>>;
  request(method: string, params?: Params, options?: RequestOptions): Promise<Record<string, unknown>>;
  request(method: string | RequestType, params?: unknown, options?: RequestOptions): Promise<unknown> {
    return this.outbound.request(
      typeof method === 'string' ? method : method.method,
      params as Params | undefined,
      options,
    );
  }

  /** Sends a notification. */
  notify(method: string, params?: Params, relatedRequestId?: RequestId): Promise<void> {
    return this.outbound.notify(method, params, relatedRequestId);
  }

  /** Sends an already-built message or batch as it is. */
  sendRaw(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: RequestId): void {
    this.wire.send(message, relatedRequestId);
  }

  /** ContextHost: notifications tied to an inbound request. */
  sendRelated(requestId: RequestId, method: string, params: Params): void {
    const gate = this.wire.gate;
    if (gate !== undefined && gate.list.length !== 0) {
      const passed = gate.pass('outbound', method, params, (changed) =>
        this.sendRelatedNow(requestId, method, changed),
      );
      if (passed) return void passed.catch(() => undefined);
    }
    this.sendRelatedNow(requestId, method, params);
  }

  private sendRelatedNow(requestId: RequestId, method: string, params: Params): void {
    const message: JsonRpcNotification = {
      jsonrpc: '2.0',
      method,
      params: shapeNotification(method, this.protocolVersion, params),
    };
    const observer = this.wire.observer;
    if (observer !== undefined) observer.notificationOut(message, this.protocolVersion);
    this.wire.send(message, requestId);
  }

  /** ContextHost: a server-to-client request made while handling `ctx`. */
  requestOnBehalf(
    ctx: RequestContext,
    method: string,
    params: Params | undefined,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>> {
    return this.outbound.requestOnBehalf(ctx, method, params, options);
  }

  // ---------------------------------------------------------------- closing

  /** The peer sent its last message: answer what is in flight, then close. */
  private handleInputEnded(): void {
    this.wire.draining = true;
    // Nothing can answer our own requests any more.
    this.outbound.failAll(
      (method) =>
        new LocalError('ConnectionClosed', `The peer stopped sending before ${method} was answered`),
    );
    this.inbound.closeIfDrained();
  }

  private handleClosed(error?: Error): void {
    const wire = this.wire;
    if (wire.closed) return;
    wire.closed = true;
    const cause = error ?? undefined;
    this.outbound.failAll(
      (method) =>
        new LocalError('ConnectionClosed', `Connection closed before ${method} was answered`, { cause }),
    );
    this.inbound.cancelAll();
    wire.observer?.closed();
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener(error);
      } catch (e) {
        wire.logger('error', 'A close listener failed', e);
      }
    }
    this.onclose?.(error);
  }
}
