import type { NotificationGate } from './notification-gate.js';
import { LocalError, WireError, errorResponse } from '../jsonrpc/index.js';
import type {
  FrameInfo,
  JsonRpcNotification,
  JsonRpcRequest,
  Params,
  RequestId,
  Transport,
  TransportSink,
} from '../jsonrpc/index.js';
import { shapeNotification, shapeResult, shapesResult } from '../protocol/revision-shaping.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import { refuseMethod } from './inbound-route.js';
import { decorateModernResult } from './modern-result.js';
import { modernOnly } from './lifecycle.js';
import type { SessionObserver } from './observer.js';
import { readModernMeta } from './modern-meta.js';
import { RequestContext } from './request-context.js';
import type { ContextHost } from './request-context.js';
import { serverRole } from './server-role.js';
import { sessionLoggerOf } from './library-logger.js';
import type { LoggerOption } from './library-logger.js';
import type { Implementation, RequestHandler, SessionLogger } from './session-types.js';

const EMPTY_PARAMS: Params = Object.freeze({}) as Params;

/** What the one-request path found out about a method it may serve. */
interface Allowed {
  /** Its built-in handler (server/discover, ping...), if it has one. */
  readonly builtin: RequestHandler | undefined;
  /** Whether its results are reshaped for the revision. */
  readonly reshape: boolean;
}

/** What a server gives the one-request path: what it gives each Session. */
export interface ExchangeServerOptions {
  instructions?: string | undefined;
  versions?: readonly string[] | undefined;
  logger?: LoggerOption | undefined;
}

/**
 * One modern request served without a {@link Session}: the lighter per-request context a
 * stateless exchange (one HTTP POST, one answer) needs. It routes, refuses, runs and
 * answers exactly as a session's inbound half does for a modern request, but builds only
 * the request's context and this small host, not a session with its outbound half, wire
 * and dispatch tables.
 */
class ExchangeCall implements ContextHost, TransportSink {
  readonly legacyLogLevel = undefined;
  ctx: RequestContext | undefined;
  /** Its result is reshaped for its revision (which lacks some of the fields). */
  reshape = false;

  constructor(
    readonly server: ExchangeServer,
    readonly transport: Transport,
    readonly capabilities: Record<string, unknown>,
  ) {}

  // What the built-in handlers (server/discover) read from their host.
  get versions(): readonly string[] {
    return this.server.versions;
  }

  get instructions(): string | undefined {
    return this.server.options.instructions;
  }

  sendRelated(requestId: RequestId, method: string, params: Params): void {
    const gate = this.server.gate;
    if (gate !== undefined && gate.list.length !== 0) {
      const passed = gate.pass('outbound', method, params, (changed) =>
        this.sendRelatedNow(requestId, method, changed),
      );
      if (passed) return void passed.catch(() => undefined);
    }
    this.sendRelatedNow(requestId, method, params);
  }

  private sendRelatedNow(requestId: RequestId, method: string, params: Params): void {
    const ctx = this.ctx!;
    if (ctx.done) return;
    const message: JsonRpcNotification = {
      jsonrpc: '2.0',
      method,
      params: shapeNotification(method, ctx.protocolVersion, params),
    };
    const observer = this.server.observer;
    if (observer !== undefined) observer.notificationOut(message, ctx.protocolVersion);
    this.send(message, requestId);
  }

  requestOnBehalf(ctx: RequestContext, method: string): Promise<Record<string, unknown>> {
    return Promise.reject(serverRole.refuseRequest(method, 'modern', ctx.protocolVersion));
  }

  send(message: Parameters<Transport['send']>[0], relatedRequestId: RequestId): void {
    let r: void | Promise<void>;
    try {
      r = this.transport.send(message, { relatedRequestId });
    } catch (e) {
      this.server.logger('warning', 'Failed to send a message', e);
      return;
    }
    if (r) r.catch((e: unknown) => this.server.logger('warning', 'Failed to send a message', e));
  }

  /** Its transport's sink: the one request came with the call, nothing more arrives. */
  frame(): void {}

  /** The transport closed (the client left, or the server is closing): the handler is cancelled. */
  closed(): void {
    this.server.live.delete(this);
    // Undefined when the request was refused before it had a context; done once answered.
    const ctx = this.ctx;
    if (ctx && !ctx.done) {
      ctx.cancel('The connection closed');
      if (ctx.observed !== undefined)
        this.observeEnd(undefined, new LocalError('Cancelled', 'The connection closed'));
    }
  }

  observeEnd(result: unknown, error: unknown): void {
    const ctx = this.ctx!;
    const token = ctx.observed;
    ctx.observed = undefined;
    this.server.observer?.inboundEnd(token, result, error);
  }

  finish(value: unknown): void {
    const ctx = this.ctx!;
    if (ctx.done) return;
    ctx.done = true;
    this.server.live.delete(this);
    if (ctx.cancelled) {
      if (ctx.observed !== undefined) this.observeEnd(undefined, new LocalError('Cancelled', 'Cancelled'));
      return;
    }
    if (value === undefined || value === null) value = {};
    // isObject, written out: this runs for every answer.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.server.logger('error', `Handler for ${ctx.method} returned a non-object result`, value, ctx);
      const error = WireError.internal();
      if (ctx.observed !== undefined) this.observeEnd(undefined, error);
      return this.send(errorResponse(ctx.requestId, error), ctx.requestId);
    }
    // serverRole.shapeAnswer for the modern era: results are decorated, and reshaped only
    // where the revision lacks some of their fields.
    const decorated = decorateModernResult(ctx.method, value as Record<string, unknown>, this.server.info);
    const result = this.reshape ? shapeResult(ctx.method, ctx.protocolVersion, decorated) : decorated;
    if (ctx.observed !== undefined) this.observeEnd(result, undefined);
    this.send({ jsonrpc: '2.0', id: ctx.requestId, result }, ctx.requestId);
  }

  fail(e: unknown): void {
    const ctx = this.ctx!;
    if (ctx.done) return;
    ctx.done = true;
    this.server.live.delete(this);
    if (ctx.cancelled) {
      if (ctx.observed !== undefined) this.observeEnd(undefined, new LocalError('Cancelled', 'Cancelled'));
      return;
    }
    let wire: WireError;
    if (e instanceof WireError) wire = e;
    else {
      // The detail stays here: stacks and internal messages never cross the wire.
      this.server.logger('error', `Handler for ${ctx.method} failed`, e, ctx);
      wire = WireError.internal();
    }
    if (ctx.observed !== undefined) this.observeEnd(undefined, wire);
    this.send(errorResponse(ctx.requestId, wire), ctx.requestId);
  }
}

/** Answers with what an async handler settles to (no closures per request, as `then` would need). */
async function settle(call: ExchangeCall, out: PromiseLike<unknown>): Promise<void> {
  let value: unknown;
  try {
    value = await out;
  } catch (e) {
    return call.fail(e);
  }
  call.finish(value);
}

/**
 * Serves modern requests one at a time on their own transports, for a server whose
 * requests need no connection state (no listen stream, no tasks): made once per server,
 * it costs each request a {@link RequestContext} and one small host object.
 */
export class ExchangeServer {
  readonly versions: readonly string[];
  readonly logger: SessionLogger;
  /** Requests being handled, to cancel when the server closes. */
  readonly live = new Set<ExchangeCall>();
  /** The capabilities declared now; the server clears them when a registration changes them. */
  capabilities: Record<string, unknown> | undefined;
  /** Watches the requests served here (telemetry), as a session's observer does. */
  observer: SessionObserver | undefined;
  /** The server's interceptors for the notifications of its stateless requests. */
  gate: NotificationGate | undefined;
  /**
   * While true, serve() declines every request, so the caller connects a session (which
   * waits for what the server is still loading, such as its telemetry).
   */
  deferred = false;
  private readonly modernVersions: readonly string[];
  /**
   * The methods found allowed, by version, while the capabilities are `allowedFor`: each
   * with its built-in handler, or null for none.
   */
  private readonly allowed = new Map<string, Map<string, Allowed>>();
  private allowedFor: Record<string, unknown> | undefined;

  constructor(
    readonly info: Implementation,
    readonly options: ExchangeServerOptions,
    private readonly handlers: ReadonlyMap<string, RequestHandler>,
    private readonly declared: () => Record<string, unknown>,
  ) {
    this.versions = options.versions ?? ALL_VERSIONS;
    this.modernVersions = modernOnly(this.versions);
    this.logger = sessionLoggerOf(options.logger);
  }

  /**
   * Serves `request`, answering on `transport`; false when it needs a session (a listen
   * stream, a server with tasks, a request that is not modern): the caller connects one.
   */
  serve(transport: Transport, request: JsonRpcRequest, info: FrameInfo): boolean {
    const method = request.method;
    if (method === 'subscriptions/listen' || this.deferred || this.handlers.has('tasks/get')) return false;
    const params = request.params ?? EMPTY_PARAMS;
    // As a session routes a request: its own _meta names its version and the client.
    const route = readModernMeta(params, this.modernVersions);
    if (route === undefined) return false;
    const capabilities = (this.capabilities ??= this.declared());
    const call = new ExchangeCall(this, transport, capabilities);
    void transport.start(call);
    const id = request.id;
    const observer = this.observer;
    if (route instanceof WireError) {
      if (observer !== undefined)
        observer.inboundEnd(observer.inboundStart(method, id, params, undefined), undefined, route);
      call.send(errorResponse(id, route), id);
      return true;
    }
    const allowed = this.allow(capabilities, method, route.version);
    const handler = allowed instanceof WireError ? undefined : (allowed.builtin ?? this.handlers.get(method));
    if (!handler) {
      const error = allowed instanceof WireError ? allowed : WireError.methodNotFound(method);
      if (observer !== undefined) {
        observer.inboundEnd(observer.inboundStart(method, id, params, route.version), undefined, error);
      }
      call.send(errorResponse(id, error), id);
      return true;
    }
    call.reshape = (allowed as Allowed).reshape;
    const ctx = (call.ctx = new RequestContext({
      session: call,
      requestId: id,
      method,
      params,
      protocolVersion: route.version,
      era: 'modern',
      peerCapabilities: route.capabilities,
      peerInfo: route.clientInfo,
      authInfo: info.authInfo,
    }));
    if (info.transportMeta) ctx.transportMeta = info.transportMeta;
    if (info.remoteAddress !== undefined) ctx.remoteAddress = info.remoteAddress;
    this.live.add(call);
    let out: unknown;
    try {
      if (observer === undefined) out = handler(params, ctx);
      else {
        ctx.observed = observer.inboundStart(method, id, params, route.version);
        out = observer.inboundRun(ctx.observed, handler, params, ctx);
      }
    } catch (e) {
      call.fail(e);
      return true;
    }
    if (typeof out === 'object' && out !== null && typeof (out as PromiseLike<unknown>).then === 'function') {
      void settle(call, out as PromiseLike<unknown>);
    } else {
      call.finish(out);
    }
    return true;
  }

  /**
   * Whether `method` may be served in `version`, and how: refuseMethod, the built-ins and the
   * reshaping looked up once and remembered while the capabilities stay (the same few
   * methods come again and again). The server's own handlers are read each time: they come
   * and go.
   */
  private allow(capabilities: Record<string, unknown>, method: string, version: string): Allowed | WireError {
    if (capabilities !== this.allowedFor) {
      this.allowed.clear();
      this.allowedFor = capabilities;
    }
    let methods = this.allowed.get(version);
    let allowed = methods?.get(method);
    if (allowed === undefined) {
      const refusal = refuseMethod(serverRole, capabilities, method, version);
      if (refusal) return refusal;
      allowed = { builtin: serverRole.builtin(method), reshape: shapesResult(method, version) };
      if (!methods) this.allowed.set(version, (methods = new Map()));
      // Unknown methods pass too (no handler answers them): a client must not grow this unbounded.
      if (methods.size >= 256) methods.clear();
      methods.set(method, allowed);
    }
    return allowed;
  }

  /** Cancels every request in flight and closes its transport (the server is closing). */
  async closeAll(): Promise<void> {
    const calls = [...this.live];
    this.live.clear();
    await Promise.all(calls.map((c) => c.transport.close()));
  }
}
