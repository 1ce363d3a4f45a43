import { InvalidMessage, LocalError, ParsedBatch, WireError, errorResponse } from '../jsonrpc/index.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Params,
  ParsedFrame,
  RequestId,
  Transport,
} from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { ALL_VERSIONS, allowsBatch } from '../protocol/versions.js';
import type { Era } from '../protocol/versions.js';
import { BatchCollector } from './batch-collector.js';
import { discoverHandler, legacyCapabilities, pingHandler, setLevelHandler } from './builtins.js';
import { runInitialize } from './client-handshake.js';
import { refuseOutbound } from './outbound-checks.js';
import { defaultLogger } from './session-types.js';
import type {
  Implementation,
  NotificationHandler,
  RequestHandler,
  Role,
  SessionLogger,
  SessionOptions,
} from './session-types.js';
import { refuseMethod, routeInbound } from './inbound-route.js';
import { negotiateInitialize } from './lifecycle.js';
import { decorateModernResult } from './modern-result.js';
import { shapeNotification, shapeResult } from '../protocol/revision-shaping.js';
import type { LegacyState } from './lifecycle.js';
import type { LogLevel } from './logging-levels.js';
import { withModernMeta } from './modern-meta.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './options.js';
import type { Progress, RequestOptions } from './options.js';
import { PendingRequest } from './pending.js';
import { RequestContext } from './request-context.js';
import type { ContextHost, PeerInfo } from './request-context.js';

/** Batch items dispatched before the session yields to other work (see onBatch). */
const BATCH_SLICE = 16;
const EMPTY_PARAMS: Params = Object.freeze({}) as Params;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/**
 * The role-agnostic MCP engine for one connection. It dispatches inbound requests to
 * handlers, tracks outbound requests (ids, timeouts, progress, cancellation), runs the
 * legacy lifecycle, and reads and writes the modern per-request `_meta`. It knows nothing
 * of transports beyond the {@link Transport} interface.
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
  readonly role: Role;
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

  private transport: Transport | undefined;
  private closed = false;
  private nextId = 0;
  private readonly pending = new Map<RequestId, PendingRequest>();
  private readonly byProgressToken = new Map<string | number, PendingRequest>();
  private readonly inbound = new Map<RequestId, RequestContext>();
  private readonly ownRequestHandlers = new Map<string, RequestHandler>();
  private readonly ownNotificationHandlers = new Map<string, NotificationHandler>();
  private readonly sharedRequestHandlers: ReadonlyMap<string, RequestHandler> | undefined;
  private readonly sharedNotificationHandlers: ReadonlyMap<string, NotificationHandler> | undefined;
  private readonly timeoutMs: number;
  private readonly checkMethods: boolean;
  private readonly maxTotalMs: number;
  private readonly logger: SessionLogger;
  private draining = false;
  private readonly closeListeners: Array<(error?: Error) => void> = [];
  private modernMeta: Readonly<Record<string, unknown>> | undefined;
  private readonly fireTimeout = (p: PendingRequest): void => {
    this.cancelPending(p, p.timeoutError(), 'Request timed out');
  };

  constructor(options: SessionOptions) {
    this.role = options.role;
    this.info = options.info;
    this.capabilities = options.capabilities ?? {};
    this.instructions = options.instructions;
    this.versions = options.versions ?? ALL_VERSIONS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.checkMethods = options.checkMethods !== false;
    this.maxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    this.sharedRequestHandlers = options.requestHandlers;
    this.sharedNotificationHandlers = options.notificationHandlers;
    this.logger = options.logger ?? defaultLogger;
  }

  // ---------------------------------------------------------------- wiring

  /** Attaches a transport and starts reading from it. */
  async connect(transport: Transport): Promise<void> {
    if (this.transport) throw new LocalError('AlreadyConnected', 'This session already has a transport');
    this.transport = transport;
    await transport.start({
      frame: (frame, info) => this.receive(frame, info),
      closed: (error) => this.handleClosed(error),
      ended: () => this.handleInputEnded(),
    });
  }

  /** Whether the connection is open. */
  get isOpen(): boolean {
    return this.transport !== undefined && !this.closed;
  }

  /** Number of outbound requests waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Number of inbound requests being handled. */
  get inboundCount(): number {
    return this.inbound.size;
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.ownRequestHandlers.set(method, handler);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.ownNotificationHandlers.set(method, handler);
  }

  /**
   * Runs `listener` once when the connection closes, before `onclose`. Layers built on the
   * session (a server's per-connection bookkeeping) use this, so an application that sets
   * `onclose` cannot switch them off.
   */
  addCloseListener(listener: (error?: Error) => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Closes the transport; everything pending is rejected at once. */
  async close(): Promise<void> {
    if (!this.transport) {
      this.handleClosed();
      return;
    }
    const t = this.transport;
    this.handleClosed();
    await t.close();
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
    this.modernMeta = Object.freeze({
      [MetaKey.ProtocolVersion]: version,
      [MetaKey.ClientCapabilities]: this.capabilities,
      [MetaKey.ClientInfo]: this.info,
    });
  }

  /** Records what `server/discover` said about the server (modern client). */
  applyDiscover(result: Record<string, unknown>): void {
    this.peerCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    const meta = result._meta;
    const info = isObject(meta) ? meta[MetaKey.ServerInfo] : undefined;
    this.peerInfo = isObject(info) ? (info as PeerInfo) : undefined;
    this.peerInstructions = typeof result.instructions === 'string' ? result.instructions : undefined;
  }

  // ---------------------------------------------------------------- outbound

  /**
   * Sends a request and resolves with its result. Rejects with a {@link WireError} when
   * the peer answers with an error, or a {@link LocalError} on timeout, cancellation,
   * a closed connection or a capability the peer did not declare.
   */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Record<string, unknown>> {
    const refusal = this.checkOutbound(method, 'request');
    if (refusal) return Promise.reject(refusal);
    const signal = options?.signal;
    if (signal?.aborted) {
      return Promise.reject(
        new LocalError('Cancelled', `Request ${method} was cancelled before it was sent`, {
          cause: signal.reason,
        }),
      );
    }
    const id = this.nextId++;
    let outParams =
      this.modernMeta && this.role === 'client' ? withModernMeta(params, this.modernMeta) : params;
    const onprogress = options?.onprogress;
    if (onprogress) {
      const meta = isObject(outParams?._meta) ? { ...outParams._meta } : {};
      meta[MetaKey.ProgressToken] = id;
      outParams = { ...outParams, _meta: meta };
    }
    let pending!: PendingRequest;
    const promise = new Promise<Record<string, unknown>>((resolve, reject) => {
      pending = new PendingRequest(
        id,
        method,
        Date.now(),
        options?.timeoutMs ?? this.timeoutMs,
        options?.maxTotalTimeoutMs ?? this.maxTotalMs,
        options?.resetTimeoutOnProgress ?? false,
        onprogress,
        resolve,
        reject,
      );
    });
    this.pending.set(id, pending);
    if (onprogress) {
      pending.progressToken = id;
      this.byProgressToken.set(id, pending);
    }
    if (signal) {
      pending.signal = signal;
      pending.owner = this;
      signal.addEventListener('abort', pending, { once: true });
    }
    pending.arm(pending.startedAt, this.fireTimeout);
    options?.onRequestId?.(id);
    const message: JsonRpcRequest =
      outParams === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: outParams };
    const related = options?.relatedRequestId;
    this.transmit(message, related === undefined ? undefined : related, pending);
    return promise;
  }

  /** Sends a notification. */
  async notify(method: string, params?: Params, relatedRequestId?: RequestId): Promise<void> {
    const refusal = this.checkOutbound(method, 'notification');
    if (refusal) throw refusal;
    params = shapeNotification(method, this.protocolVersion, params);
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    await this.transport!.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  /** Sends an already-built message or batch as it is. */
  sendRaw(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: RequestId): void {
    if (this.closed || !this.transport) return;
    let r: void | Promise<void>;
    try {
      r = this.transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    } catch (e) {
      this.logger('warning', 'Failed to send a message', e);
      return;
    }
    // A send cut short by our own close is expected, not worth a warning.
    if (r) r.catch((e: unknown) => this.closed || this.logger('warning', 'Failed to send a message', e));
  }

  /** ContextHost: notifications tied to an inbound request. */
  sendRelated(requestId: RequestId, method: string, params: Params): void {
    this.sendRaw(
      { jsonrpc: '2.0', method, params: shapeNotification(method, this.protocolVersion, params) },
      requestId,
    );
  }

  /** ContextHost: a server-to-client request made while handling `ctx`. */
  requestOnBehalf(
    ctx: RequestContext,
    method: string,
    params: Params | undefined,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>> {
    if (ctx.era === 'modern') {
      return Promise.reject(
        new LocalError(
          'CapabilityNotSupported',
          `${method} cannot be sent as a request in protocol ${ctx.protocolVersion}; the modern era asks the client through an input_required result`,
        ),
      );
    }
    const merged: RequestOptions = { ...options, relatedRequestId: ctx.requestId };
    if (!merged.signal) merged.signal = ctx.signal;
    return this.request(method, params, merged);
  }

  private transmit(message: JsonRpcRequest, related: RequestId | undefined, pending: PendingRequest): void {
    let r: void | Promise<void>;
    try {
      r = this.transport!.send(message, related === undefined ? undefined : { relatedRequestId: related });
    } catch (e) {
      this.failPending(
        pending,
        new LocalError('ConnectionClosed', `Could not send ${message.method}`, { cause: e }),
      );
      return;
    }
    if (r) {
      r.catch((e: unknown) => {
        this.failPending(
          pending,
          new LocalError('ConnectionClosed', `Could not send ${message.method}`, { cause: e }),
        );
      });
    }
  }

  private checkOutbound(method: string, kind: 'request' | 'notification'): LocalError | undefined {
    if (!this.transport) return new LocalError('NotConnected', `Cannot send ${method}: not connected`);
    if (this.closed || (this.draining && kind === 'request')) {
      return new LocalError('ConnectionClosed', `Cannot send ${method}: the connection is closed`);
    }
    return this.checkMethods ? refuseOutbound(this, method, kind) : undefined;
  }

  /** Called by a pending request whose AbortSignal fired. */
  cancelFromSignal(p: PendingRequest): void {
    const reason: unknown = p.signal?.reason;
    this.cancelPending(
      p,
      new LocalError('Cancelled', `Request ${p.method} was cancelled`, { cause: reason }),
      reason instanceof Error
        ? reason.message
        : typeof reason === 'string'
          ? reason
          : 'Cancelled by the caller',
    );
  }

  /** Rejects a pending request and tells the peer, as the era and transport call for. */
  private cancelPending(p: PendingRequest, error: Error, reason: string): void {
    if (p.done) return;
    this.failPending(p, error);
    // initialize is never cancelled (2025-06-18 and later forbid it).
    if (p.method === 'initialize' || this.closed || !this.transport) return;
    if (this.transport.abortRequest?.(p.id)) return;
    this.sendRaw({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: p.id, reason },
    });
  }

  private failPending(p: PendingRequest, error: Error): void {
    if (p.done) return;
    this.forget(p);
    p.reject(error);
  }

  private forget(p: PendingRequest): void {
    p.settle();
    this.pending.delete(p.id);
    if (p.progressToken !== undefined) this.byProgressToken.delete(p.progressToken);
    // A long-lived signal shared by many calls must not collect one listener per call.
    if (p.signal) p.signal.removeEventListener('abort', p);
  }

  // ---------------------------------------------------------------- inbound

  /** Entry point for a transport's frames; public so custom transports can feed it. */
  receive(frame: ParsedFrame, info?: FrameInfo): void {
    if (this.closed) return;
    if (frame instanceof InvalidMessage) {
      this.onInvalid(frame);
    } else if (frame instanceof ParsedBatch) {
      this.onBatch(frame, info);
    } else {
      this.onMessage(frame, info, undefined);
    }
  }

  private onMessage(
    msg: JsonRpcMessage,
    info: FrameInfo | undefined,
    batch: BatchCollector | undefined,
  ): void {
    if ('method' in msg) {
      if ('id' in msg) this.onRequest(msg, info, batch);
      else this.onNotification(msg);
    } else {
      this.onResponse(msg);
    }
  }

  private onInvalid(inv: InvalidMessage, batch?: BatchCollector): void {
    this.logger('warning', `Invalid message from the peer: ${inv.error.message}`);
    // A broken answer to one of our requests fails that request instead of leaving it hanging.
    if (inv.responseLike && inv.id !== null && !batch) {
      const p = this.pending.get(inv.id);
      if (p) {
        this.failPending(
          p,
          new LocalError('InvalidMessage', `Malformed response to ${p.method}: ${inv.error.message}`),
        );
        return;
      }
    }
    if (inv.respond) {
      const reply = errorResponse(inv.id, inv.error);
      if (batch) {
        batch.expect();
        batch.add(reply);
      } else {
        this.sendRaw(reply);
      }
      return;
    }
  }

  private onBatch(batch: ParsedBatch, info: FrameInfo | undefined): void {
    if (!allowsBatch(this.protocolVersion) || this.era !== 'legacy') {
      this.sendRaw(
        errorResponse(
          null,
          WireError.invalidRequest(
            `JSON-RPC batches are not supported in protocol ${this.protocolVersion ?? '(not negotiated)'}; only 2025-03-26 has them`,
          ),
        ),
      );
      return;
    }
    const collector = new BatchCollector((messages) => this.sendRaw(messages));
    const items = batch.items;
    // A large batch is dispatched a slice at a time, yielding between slices, so one
    // client's batch does not hold up every other client served by this process.
    const dispatch = (from: number): void => {
      const end = Math.min(items.length, from + BATCH_SLICE);
      for (let i = from; i < end; i++) {
        const item = items[i]!;
        if (item instanceof InvalidMessage) this.onInvalid(item, collector);
        else if ('method' in item && item.method === 'initialize') {
          collector.expect();
          collector.add(
            errorResponse(
              'id' in item ? item.id : null,
              WireError.invalidRequest('initialize must not be part of a batch'),
            ),
          );
        } else this.onMessage(item, info, collector);
      }
      if (end < items.length) setTimeout(() => dispatch(end), 0);
      else collector.seal();
    };
    dispatch(0);
  }

  private reply(
    ctx: RequestContext | undefined,
    id: RequestId,
    message: JsonRpcResponse,
    batch?: BatchCollector,
  ): void {
    const target = ctx?.batch ?? batch;
    if (target) target.add(message);
    else this.sendRaw(message, id);
  }

  private refuse(id: RequestId, error: WireError, batch: BatchCollector | undefined): void {
    if (batch) batch.expect();
    this.reply(undefined, id, errorResponse(id, error), batch);
  }

  private onRequest(
    msg: JsonRpcRequest,
    info: FrameInfo | undefined,
    batch: BatchCollector | undefined,
  ): void {
    const id = msg.id;
    const method = msg.method;
    if (this.inbound.has(id)) {
      this.refuse(
        id,
        WireError.invalidRequest(`Request id ${JSON.stringify(id)} is already in flight`),
        batch,
      );
      return;
    }
    const params = msg.params ?? EMPTY_PARAMS;
    const route = routeInbound(this, method, params);
    if (route === 'initialize') {
      this.handleInitialize(id, params, batch);
      return;
    }
    if (route instanceof WireError) {
      this.refuse(id, route, batch);
      return;
    }
    const refusal = this.checkMethods
      ? refuseMethod(this.role, this.capabilities, method, route.version)
      : undefined;
    if (refusal) {
      this.refuse(id, refusal, batch);
      return;
    }
    const handler =
      this.builtin(method) ?? this.ownRequestHandlers.get(method) ?? this.sharedRequestHandlers?.get(method);
    if (!handler) {
      this.refuse(id, WireError.methodNotFound(method), batch);
      return;
    }
    const ctx = new RequestContext(
      this,
      id,
      method,
      params,
      route.version,
      route.era,
      route.peerCapabilities,
      route.peerInfo,
      info?.authInfo,
    );
    if (batch) {
      batch.expect();
      ctx.batch = batch;
    }
    if (info?.transportMeta) ctx.transportMeta = info.transportMeta;
    this.inbound.set(id, ctx);
    if (info?.signal) {
      if (info.signal.aborted) ctx.cancel('The request stream closed');
      else {
        ctx.transportSignal = info.signal;
        info.signal.addEventListener('abort', ctx, { once: true });
      }
    }
    let out: unknown;
    try {
      out = handler(params, ctx);
    } catch (e) {
      this.finishError(ctx, e);
      return;
    }
    if (isThenable(out)) {
      out.then(
        (r) => this.finish(ctx, r),
        (e: unknown) => this.finishError(ctx, e),
      );
    } else {
      this.finish(ctx, out);
    }
  }

  private builtin(method: string): RequestHandler | undefined {
    if (method === 'ping') return pingHandler;
    if (this.role !== 'server') return undefined;
    if (method === 'server/discover') return discoverHandler;
    if (method === 'logging/setLevel') return setLevelHandler;
    return undefined;
  }

  private handleInitialize(id: RequestId, params: Params, batch: BatchCollector | undefined): void {
    if (this.legacyState !== 'new') {
      this.refuse(id, WireError.invalidRequest('initialize was already received on this connection'), batch);
      return;
    }
    const outcome = negotiateInitialize(params, this.versions);
    if (outcome instanceof WireError) {
      this.refuse(id, outcome, batch);
      return;
    }
    this.protocolVersion = outcome.version;
    this.era = 'legacy';
    this.peerCapabilities = outcome.capabilities;
    this.peerInfo = outcome.clientInfo;
    this.legacyState = 'initializing';
    const result: Record<string, unknown> = {
      protocolVersion: outcome.version,
      capabilities: legacyCapabilities(this.capabilities),
      serverInfo: this.info,
    };
    if (this.instructions !== undefined) result.instructions = this.instructions;
    this.sendRaw({ jsonrpc: '2.0', id, result: shapeResult('initialize', outcome.version, result) }, id);
  }

  private finish(ctx: RequestContext, value: unknown): void {
    if (ctx.done) return;
    this.answer(ctx, value);
    this.closeIfDrained();
  }

  private answer(ctx: RequestContext, value: unknown): void {
    this.retire(ctx);
    if (ctx.cancelled) {
      ctx.batch?.skip();
      return;
    }
    if (value === undefined || value === null) value = {};
    if (!isObject(value)) {
      this.logger('error', `Handler for ${ctx.method} returned a non-object result`, value);
      this.reply(ctx, ctx.requestId, errorResponse(ctx.requestId, WireError.internal()));
      return;
    }
    const result =
      ctx.era === 'modern' && this.role === 'server'
        ? shapeResult(ctx.method, ctx.protocolVersion, decorateModernResult(ctx.method, value, this.info))
        : shapeResult(ctx.method, ctx.protocolVersion, value);
    this.reply(ctx, ctx.requestId, { jsonrpc: '2.0', id: ctx.requestId, result });
  }

  private finishError(ctx: RequestContext, e: unknown): void {
    if (ctx.done) return;
    this.answerError(ctx, e);
    this.closeIfDrained();
  }

  private answerError(ctx: RequestContext, e: unknown): void {
    this.retire(ctx);
    if (ctx.cancelled) {
      ctx.batch?.skip();
      return;
    }
    let wire: WireError;
    if (e instanceof WireError) {
      wire = e;
    } else {
      // The detail stays here: stacks and internal messages never cross the wire.
      this.logger('error', `Handler for ${ctx.method} failed`, e);
      wire = WireError.internal();
    }
    this.reply(ctx, ctx.requestId, errorResponse(ctx.requestId, wire));
  }

  /** The request is over: forget it and stop listening to its transport signal. */
  private retire(ctx: RequestContext): void {
    ctx.done = true;
    if (this.inbound.get(ctx.requestId) === ctx) this.inbound.delete(ctx.requestId);
    if (ctx.transportSignal) ctx.transportSignal.removeEventListener('abort', ctx);
  }

  private onNotification(msg: JsonRpcNotification): void {
    const method = msg.method;
    const params = msg.params ?? EMPTY_PARAMS;
    switch (method) {
      case 'notifications/cancelled': {
        const ctx = isValidRequestId(params.requestId) ? this.inbound.get(params.requestId) : undefined;
        if (ctx && ctx.method !== 'initialize') {
          ctx.cancel(typeof params.reason === 'string' ? params.reason : undefined);
          // A cancelled handler that never settles must not keep the request (or a draining session) alive.
          this.inbound.delete(ctx.requestId);
          this.closeIfDrained();
        }
        return;
      }
      case 'notifications/progress': {
        const token = params.progressToken;
        const p =
          typeof token === 'string' || typeof token === 'number'
            ? this.byProgressToken.get(token)
            : undefined;
        if (p && typeof params.progress === 'number') {
          const progress: Progress = { progress: params.progress };
          if (typeof params.total === 'number') progress.total = params.total;
          if (typeof params.message === 'string') progress.message = params.message;
          p.progress(progress, Date.now(), this.fireTimeout);
        }
        return;
      }
      case 'initialized':
      case 'notifications/initialized':
        // The bare spelling comes from the project's early documents; it is harmless to accept.
        if (this.role === 'server' && this.legacyState === 'initializing') this.legacyState = 'ready';
        this.callNotificationHandler('notifications/initialized', params, msg);
        return;
      default:
        this.callNotificationHandler(method, params, msg);
    }
  }

  private callNotificationHandler(method: string, params: Params, msg: JsonRpcNotification): void {
    const handler = this.ownNotificationHandlers.get(method) ?? this.sharedNotificationHandlers?.get(method);
    if (!handler) {
      this.onnotification?.(msg);
      return;
    }
    try {
      const r = handler(params, this);
      if (r) r.catch((e: unknown) => this.logger('error', `Notification handler for ${method} failed`, e));
    } catch (e) {
      this.logger('error', `Notification handler for ${method} failed`, e);
    }
  }

  private onResponse(msg: JsonRpcResponse): void {
    const id = msg.id;
    const p = id === null ? undefined : this.pending.get(id);
    if (!p) {
      if ('error' in msg)
        this.logger(
          'warning',
          `Error from the peer without a matching request: ${msg.error.message}`,
          msg.error,
        );
      else this.logger('warning', `Response to unknown request id ${JSON.stringify(id)} ignored`);
      return;
    }
    this.forget(p);
    if ('error' in msg) p.reject(WireError.fromObject(msg.error));
    else p.resolve(msg.result);
  }

  // ---------------------------------------------------------------- closing

  /** The peer sent its last message: answer what is in flight, then close. */
  private handleInputEnded(): void {
    this.draining = true;
    // Nothing can answer our own requests any more.
    for (const p of [...this.pending.values()]) {
      this.failPending(
        p,
        new LocalError('ConnectionClosed', `The peer stopped sending before ${p.method} was answered`),
      );
    }
    this.closeIfDrained();
  }

  private closeIfDrained(): void {
    if (this.draining && this.inbound.size === 0 && !this.closed) void this.close();
  }

  private handleClosed(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    const cause = error ?? undefined;
    for (const p of [...this.pending.values()]) {
      this.failPending(
        p,
        new LocalError('ConnectionClosed', `Connection closed before ${p.method} was answered`, {
          cause,
        }),
      );
    }
    for (const ctx of this.inbound.values()) {
      ctx.cancel('The connection closed');
      ctx.transportSignal?.removeEventListener('abort', ctx);
    }
    this.inbound.clear();
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener(error);
      } catch (e) {
        this.logger('error', 'A close listener failed', e);
      }
    }
    this.onclose?.(error);
  }
}

function isValidRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));
}
