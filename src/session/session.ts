import {
  ErrorCode,
  InvalidMessage,
  LocalError,
  ParsedBatch,
  WireError,
  errorResponse,
} from '../jsonrpc/index.js';
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
import {
  canSend,
  describeMethod,
  hasCapability,
  methodInRevision,
} from '../protocol/methods.js';
import type { MethodDescriptor } from '../protocol/methods.js';
import {
  ALL_VERSIONS,
  LATEST_LEGACY_VERSION,
  allowsBatch,
  isLegacyVersion,
} from '../protocol/versions.js';
import type { Era } from '../protocol/versions.js';
import { acceptsServerVersion, modernOnly, negotiateInitialize } from './lifecycle.js';
import type { LegacyState } from './lifecycle.js';
import { isLogLevel } from './logging-levels.js';
import type { LogLevel } from './logging-levels.js';
import { readModernMeta, withModernMeta } from './modern-meta.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './options.js';
import type { Progress, RequestOptions } from './options.js';
import { PendingRequest } from './pending.js';
import { RequestContext } from './request-context.js';
import type { ContextHost, PeerInfo } from './request-context.js';

export type Role = 'client' | 'server';

/** Answers one inbound request. Return the result object, or throw a {@link WireError}. */
export type RequestHandler = (params: Params, ctx: RequestContext) => unknown;

/** Receives one inbound notification. */
export type NotificationHandler = (params: Params, session: Session) => void | Promise<void>;

/** Where the session reports what it could not hand to anyone else. */
export interface SessionLogger {
  (level: 'debug' | 'warning' | 'error', message: string, detail?: unknown): void;
}

/** Identifies an implementation: ours in `info`, the peer's in `peerInfo`. */
export interface Implementation {
  name: string;
  version: string;
  [key: string]: unknown;
}

export interface SessionOptions {
  role: Role;
  /** Our name and version, sent as clientInfo or serverInfo. */
  info: Implementation;
  /** Capabilities we declare. Requests needing one we did not declare are refused. */
  capabilities?: Record<string, unknown>;
  /** Server instructions for the model (server role). */
  instructions?: string;
  /** Protocol versions we speak, oldest first (default: all of them). */
  versions?: readonly string[];
  /** Default timeout for outbound requests (60 s). */
  timeoutMs?: number;
  /** Hard upper bound for outbound requests, progress or not (10 min). */
  maxTotalTimeoutMs?: number;
  /** Handlers shared by many sessions; read, never copied. */
  requestHandlers?: ReadonlyMap<string, RequestHandler>;
  notificationHandlers?: ReadonlyMap<string, NotificationHandler>;
  /** Receives internal errors (handler stacks, invalid peer messages). Defaults to stderr. */
  logger?: SessionLogger;
}

const EMPTY_PARAMS: Params = Object.freeze({}) as Params;

const defaultLogger: SessionLogger = (level, message, detail) => {
  if (level === 'debug') return;
  // stderr only: on stdio, stdout belongs to the protocol.
  console.error(`[mcpkit] ${message}`, detail ?? '');
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** Collects the answers to one batch and sends them together. */
class BatchCollector {
  private readonly out: JsonRpcMessage[] = [];
  private waiting = 0;
  private sealed = false;
  constructor(private readonly session: Session) {}
  expect(): void {
    this.waiting++;
  }
  add(message: unknown): void {
    this.out.push(message as JsonRpcMessage);
    this.waiting--;
    this.flush();
  }
  seal(): void {
    this.sealed = true;
    this.flush();
  }
  private flush(): void {
    if (this.sealed && this.waiting === 0 && this.out.length > 0) {
      this.session.sendRaw(this.out.splice(0));
    }
  }
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
  /** Called once when the connection closes. */
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
  private readonly maxTotalMs: number;
  private readonly logger: SessionLogger;
  private draining = false;
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
    const offered =
      options.protocolVersion ??
      [...this.versions].reverse().find(isLegacyVersion) ??
      LATEST_LEGACY_VERSION;
    const request: RequestOptions = {};
    if (options.timeoutMs !== undefined) request.timeoutMs = options.timeoutMs;
    if (options.signal !== undefined) request.signal = options.signal;
    const result = await this.request(
      'initialize',
      { protocolVersion: offered, capabilities: this.capabilities, clientInfo: this.info },
      request,
    );
    const answered = result.protocolVersion;
    if (!acceptsServerVersion(answered, this.versions)) {
      await this.close();
      throw new LocalError(
        'VersionMismatch',
        `The server chose protocol version ${JSON.stringify(answered)}, which this client does not speak (it speaks ${this.versions.filter(isLegacyVersion).join(', ')})`,
      );
    }
    this.protocolVersion = answered as string;
    this.era = 'legacy';
    this.peerCapabilities = isObject(result.capabilities) ? result.capabilities : {};
    this.peerInfo = isObject(result.serverInfo) ? (result.serverInfo as PeerInfo) : undefined;
    this.peerInstructions = typeof result.instructions === 'string' ? result.instructions : undefined;
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
      return Promise.reject(new LocalError('Cancelled', `Request ${method} was cancelled before it was sent`, { cause: signal.reason }));
    }
    const id = this.nextId++;
    let outParams = this.modernMeta && this.role === 'client' ? withModernMeta(params, this.modernMeta) : params;
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
    if (r) r.catch((e: unknown) => this.logger('warning', 'Failed to send a message', e));
  }

  /** ContextHost: notifications tied to an inbound request. */
  sendRelated(requestId: RequestId, method: string, params: Params): void {
    this.sendRaw({ jsonrpc: '2.0', method, params }, requestId);
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
      this.failPending(pending, new LocalError('ConnectionClosed', `Could not send ${message.method}`, { cause: e }));
      return;
    }
    if (r) {
      r.catch((e: unknown) => {
        this.failPending(pending, new LocalError('ConnectionClosed', `Could not send ${message.method}`, { cause: e }));
      });
    }
  }

  private checkOutbound(method: string, kind: 'request' | 'notification'): LocalError | undefined {
    if (!this.transport) return new LocalError('NotConnected', `Cannot send ${method}: not connected`);
    if (this.closed) return new LocalError('ConnectionClosed', `Cannot send ${method}: the connection is closed`);
    const d = describeMethod(method);
    if (!d) return undefined;
    if (d.kind !== kind || !canSend(d, this.role)) {
      return new LocalError('CapabilityNotSupported', `A ${this.role} does not send ${method}`);
    }
    const version = this.protocolVersion;
    if (version !== undefined && !methodInRevision(d, version)) {
      return new LocalError('CapabilityNotSupported', `${method} does not exist in protocol ${version}`);
    }
    if (this.role === 'server' && kind === 'request' && this.era === 'modern') {
      return new LocalError('CapabilityNotSupported', `Servers send no requests in protocol ${version}`);
    }
    return this.capabilityRefusal(d, version);
  }

  private capabilityRefusal(d: MethodDescriptor, version: string | undefined): LocalError | undefined {
    const cap = d.capability;
    if (!cap || (cap.since && version !== undefined && version < cap.since)) return undefined;
    if (cap.side === this.role) {
      if (d.kind === 'notification' && !hasCapability(this.capabilities, cap.path)) {
        return new LocalError('CapabilityNotSupported', `Cannot send ${d.method}: capability "${cap.path}" was not declared`);
      }
      return undefined;
    }
    if (this.peerCapabilities && !hasCapability(this.peerCapabilities, cap.path)) {
      return new LocalError(
        'CapabilityNotSupported',
        `The ${this.role === 'client' ? 'server' : 'client'} did not declare the "${cap.path}" capability needed for ${d.method}`,
      );
    }
    return undefined;
  }

  /** Called by a pending request whose AbortSignal fired. */
  cancelFromSignal(p: PendingRequest): void {
    const reason: unknown = p.signal?.reason;
    this.cancelPending(
      p,
      new LocalError('Cancelled', `Request ${p.method} was cancelled`, { cause: reason }),
      reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'Cancelled by the caller',
    );
  }

  /** Rejects a pending request and tells the peer, as the era and transport call for. */
  private cancelPending(p: PendingRequest, error: Error, reason: string): void {
    if (p.done) return;
    this.failPending(p, error);
    // initialize is never cancelled (2025-06-18 and later forbid it).
    if (p.method === 'initialize' || this.closed || !this.transport) return;
    if (this.transport.abortRequest?.(p.id)) return;
    this.sendRaw({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: p.id, reason } });
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

  private onMessage(msg: JsonRpcMessage, info: FrameInfo | undefined, batch: BatchCollector | undefined): void {
    if ('method' in msg) {
      if ('id' in msg) this.onRequest(msg, info, batch);
      else this.onNotification(msg);
    } else {
      this.onResponse(msg);
    }
  }

  private onInvalid(inv: InvalidMessage, batch?: BatchCollector): void {
    this.logger('warning', `Invalid message from the peer: ${inv.error.message}`);
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
    // A malformed answer to one of our requests must not leave it hanging.
    if (inv.id !== null) {
      const p = this.pending.get(inv.id);
      if (p) this.failPending(p, new LocalError('InvalidMessage', `Malformed response to ${p.method}: ${inv.error.message}`));
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
    const collector = new BatchCollector(this);
    for (const item of batch.items) {
      if (item instanceof InvalidMessage) this.onInvalid(item, collector);
      else if ('method' in item && item.method === 'initialize') {
        collector.expect();
        collector.add(errorResponse('id' in item ? item.id : null, WireError.invalidRequest('initialize must not be part of a batch')));
      } else this.onMessage(item, info, collector);
    }
    collector.seal();
  }

  private reply(ctx: RequestContext | undefined, id: RequestId, message: JsonRpcResponse, batch?: BatchCollector): void {
    const target = ctx?.batch ?? batch;
    if (target) target.add(message);
    else this.sendRaw(message, id);
  }

  private refuse(id: RequestId, error: WireError, batch: BatchCollector | undefined): void {
    if (batch) batch.expect();
    this.reply(undefined, id, errorResponse(id, error), batch);
  }

  private onRequest(msg: JsonRpcRequest, info: FrameInfo | undefined, batch: BatchCollector | undefined): void {
    const id = msg.id;
    const method = msg.method;
    if (this.inbound.has(id)) {
      this.refuse(id, WireError.invalidRequest(`Request id ${JSON.stringify(id)} is already in flight`), batch);
      return;
    }
    const params = msg.params ?? EMPTY_PARAMS;
    let version: string;
    let era: Era;
    let peerCaps: Record<string, unknown>;
    let peerInfo: PeerInfo | undefined;

    if (this.role === 'server') {
      const modern = readModernMeta(params, modernOnly(this.versions));
      if (modern instanceof WireError) {
        // Only the modern era has this error; a server without modern versions still says which it speaks.
        this.refuse(id, modern, batch);
        return;
      }
      if (modern) {
        version = modern.version;
        era = 'modern';
        peerCaps = modern.capabilities;
        peerInfo = modern.clientInfo;
      } else if (method === 'initialize') {
        this.handleInitialize(id, params, batch);
        return;
      } else if (method === 'server/discover') {
        this.refuse(id, WireError.invalidParams(`server/discover needs _meta with ${MetaKey.ProtocolVersion} and ${MetaKey.ClientCapabilities}`), batch);
        return;
      } else if (this.legacyState === 'new') {
        if (method !== 'ping') {
          this.refuse(
            id,
            WireError.invalidRequest(
              `Received ${method} before initialize: send initialize first, or put ${MetaKey.ProtocolVersion} in _meta (protocol 2026-07-28)`,
            ),
            batch,
          );
          return;
        }
        version = LATEST_LEGACY_VERSION;
        era = 'legacy';
        peerCaps = {};
        peerInfo = undefined;
      } else {
        version = this.protocolVersion!;
        era = 'legacy';
        peerCaps = this.peerCapabilities ?? {};
        peerInfo = this.peerInfo;
      }
    } else {
      if (this.era === 'modern') {
        this.refuse(id, WireError.invalidRequest(`Servers send no requests in protocol ${this.protocolVersion}`), batch);
        return;
      }
      version = this.protocolVersion ?? LATEST_LEGACY_VERSION;
      era = 'legacy';
      peerCaps = this.peerCapabilities ?? {};
      peerInfo = this.peerInfo;
    }

    const d = describeMethod(method);
    if (d) {
      const peerRole: Role = this.role === 'server' ? 'client' : 'server';
      if (d.kind !== 'request' || !canSend(d, peerRole) || !methodInRevision(d, version)) {
        this.refuse(id, WireError.methodNotFound(`${method} (not a ${peerRole} request in protocol ${version})`), batch);
        return;
      }
      const cap = d.capability;
      if (cap && cap.side === this.role && !(cap.since && version < cap.since) && !hasCapability(this.capabilities, cap.path)) {
        this.refuse(id, WireError.methodNotFound(`${method} (capability "${cap.path}" is not offered)`), batch);
        return;
      }
    }
    const handler = this.builtin(method) ?? this.ownRequestHandlers.get(method) ?? this.sharedRequestHandlers?.get(method);
    if (!handler) {
      this.refuse(id, WireError.methodNotFound(method), batch);
      return;
    }
    const ctx = new RequestContext(this, id, method, params, version, era, peerCaps, peerInfo, info?.authInfo);
    if (batch) {
      batch.expect();
      ctx.batch = batch;
    }
    this.inbound.set(id, ctx);
    if (info?.signal) {
      if (info.signal.aborted) ctx.cancel('The request stream closed');
      else info.signal.addEventListener('abort', ctx, { once: true });
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
    switch (method) {
      case 'ping':
        return builtinPing;
      case 'server/discover':
        return this.role === 'server' ? this.discoverHandler : undefined;
      case 'logging/setLevel':
        return this.role === 'server' ? this.setLevelHandler : undefined;
      default:
        return undefined;
    }
  }

  private readonly discoverHandler: RequestHandler = () => {
    const result: Record<string, unknown> = {
      supportedVersions: [...modernOnly(this.versions)].reverse(),
      capabilities: this.capabilities,
    };
    if (this.instructions !== undefined) result.instructions = this.instructions;
    return result;
  };

  private readonly setLevelHandler: RequestHandler = (params) => {
    if (!isLogLevel(params.level)) throw WireError.invalidParams(`Unknown log level: ${JSON.stringify(params.level)}`);
    this.legacyLogLevel = params.level;
    return {};
  };

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
      capabilities: this.capabilities,
      serverInfo: this.info,
    };
    if (this.instructions !== undefined) result.instructions = this.instructions;
    this.sendRaw({ jsonrpc: '2.0', id, result }, id);
  }

  private finish(ctx: RequestContext, value: unknown): void {
    if (ctx.done) return;
    this.answer(ctx, value);
    this.closeIfDrained();
  }

  private answer(ctx: RequestContext, value: unknown): void {
    ctx.done = true;
    this.inbound.delete(ctx.requestId);
    if (ctx.cancelled) {
      ctx.batch?.add(undefined);
      return;
    }
    if (value === undefined || value === null) value = {};
    if (!isObject(value)) {
      this.logger('error', `Handler for ${ctx.method} returned a non-object result`, value);
      this.reply(ctx, ctx.requestId, errorResponse(ctx.requestId, WireError.internal()));
      return;
    }
    const result = ctx.era === 'modern' && this.role === 'server' ? this.decorateModern(ctx.method, value) : value;
    this.reply(ctx, ctx.requestId, { jsonrpc: '2.0', id: ctx.requestId, result });
  }

  private finishError(ctx: RequestContext, e: unknown): void {
    if (ctx.done) return;
    this.answerError(ctx, e);
    this.closeIfDrained();
  }

  private answerError(ctx: RequestContext, e: unknown): void {
    ctx.done = true;
    this.inbound.delete(ctx.requestId);
    if (ctx.cancelled) {
      ctx.batch?.add(undefined);
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

  /** Adds `resultType`, serverInfo and cache hints to a modern result, on a copy. */
  private decorateModern(method: string, value: Record<string, unknown>): Record<string, unknown> {
    const meta = isObject(value._meta) ? { ...value._meta } : {};
    meta[MetaKey.ServerInfo] = this.info;
    const out: Record<string, unknown> = { ...value, _meta: meta };
    if (typeof out.resultType !== 'string') out.resultType = 'complete';
    if (out.resultType === 'complete' && describeMethod(method)?.cacheable) {
      if (typeof out.ttlMs !== 'number') out.ttlMs = 0;
      if (out.cacheScope !== 'public' && out.cacheScope !== 'private') out.cacheScope = 'private';
    }
    return out;
  }

  private onNotification(msg: JsonRpcNotification): void {
    const method = msg.method;
    const params = msg.params ?? EMPTY_PARAMS;
    switch (method) {
      case 'notifications/cancelled': {
        const ctx = isValidRequestId(params.requestId) ? this.inbound.get(params.requestId) : undefined;
        if (ctx && ctx.method !== 'initialize') ctx.cancel(typeof params.reason === 'string' ? params.reason : undefined);
        return;
      }
      case 'notifications/progress': {
        const token = params.progressToken;
        const p = typeof token === 'string' || typeof token === 'number' ? this.byProgressToken.get(token) : undefined;
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
      if ('error' in msg) this.logger('warning', `Error from the peer without a matching request: ${msg.error.message}`, msg.error);
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
      this.failPending(p, new LocalError('ConnectionClosed', `The peer stopped sending before ${p.method} was answered`));
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
        new LocalError('ConnectionClosed', `Connection closed before ${p.method} was answered`, { cause }),
      );
    }
    for (const ctx of this.inbound.values()) ctx.cancel('The connection closed');
    this.inbound.clear();
    this.onclose?.(error);
  }
}

const builtinPing: RequestHandler = () => ({});

function isValidRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));
}

