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
} from '../jsonrpc/index.js';
import { shapeResult } from '../protocol/revision-shaping.js';
import { allowsBatch } from '../protocol/versions.js';
import { BatchCollector } from './batch-collector.js';
import { legacyCapabilities } from './builtins.js';
import { refuseMethod } from './inbound-route.js';
import { negotiateInitialize } from './lifecycle.js';
import type { OutboundCalls } from './outbound-calls.js';
import { RequestContext } from './request-context.js';
import { sessionEraOf } from './session-era.js';
import type { Session } from './session.js';
import type { SessionRole } from './session-role.js';
import type { NotificationHandler, RequestHandler } from './session-types.js';
import type { SessionWire } from './session-wire.js';
import { isObject } from '../jsonrpc/is-object.js';

/** Batch items dispatched before the session yields to other work (see onBatch). */
const BATCH_SLICE = 16;
const EMPTY_PARAMS: Params = Object.freeze({}) as Params;

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

function isValidRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));
}

/**
 * The inbound half of a session: every frame the transport delivers starts here and is
 * followed to its end here. Requests are routed to an era, refused or dispatched to a
 * handler and answered; notifications go to their handler; answers and progress for our
 * own requests go to the outbound half. The session holds the era state it reads and,
 * for `initialize`, writes.
 */
export class InboundDispatch {
  readonly ownRequestHandlers = new Map<string, RequestHandler>();
  readonly ownNotificationHandlers = new Map<string, NotificationHandler>();
  /** Requests being handled, by id. */
  private readonly inflight = new Map<RequestId, RequestContext>();
  private readonly role: SessionRole;

  constructor(
    private readonly session: Session,
    private readonly wire: SessionWire,
    private readonly outbound: OutboundCalls,
    private readonly sharedRequestHandlers: ReadonlyMap<string, RequestHandler> | undefined,
    private readonly sharedNotificationHandlers: ReadonlyMap<string, NotificationHandler> | undefined,
  ) {
    this.role = session.role;
  }

  /** Number of inbound requests being handled. */
  get size(): number {
    return this.inflight.size;
  }

  /** Entry point for a transport's frames. */
  receive(frame: ParsedFrame, info?: FrameInfo): void {
    if (this.wire.closed) return;
    if (frame instanceof InvalidMessage) {
      this.onInvalid(frame);
    } else if (frame instanceof ParsedBatch) {
      this.onBatch(frame, info);
    } else {
      this.onMessage(frame, info, undefined);
    }
  }

  /** The connection closed: every request in flight is cancelled. */
  cancelAll(): void {
    for (const ctx of this.inflight.values()) {
      ctx.cancel('The connection closed');
      ctx.transportSignal?.removeEventListener('abort', ctx);
      if (ctx.observed !== undefined) this.observeCancelled(ctx);
    }
    this.inflight.clear();
  }

  /** Closes a draining session once its last inbound request is answered. */
  closeIfDrained(): void {
    if (this.wire.draining && this.inflight.size === 0 && !this.wire.closed) void this.session.close();
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
      // An answer must not overtake the progress (or other notifications) sent before it
      // that an asynchronous interceptor still holds.
      const gate = this.wire.gate;
      if (gate !== undefined && gate.inboundWaiting) gate.afterInbound(() => this.outbound.onResponse(msg));
      else this.outbound.onResponse(msg);
    }
  }

  private onInvalid(inv: InvalidMessage, batch?: BatchCollector): void {
    this.wire.logger('warning', `Invalid message from the peer: ${inv.error.message}`);
    if (
      inv.responseLike &&
      inv.id !== null &&
      !batch &&
      this.outbound.failMalformed(inv.id, inv.error.message)
    ) {
      return;
    }
    if (inv.respond) {
      const reply = errorResponse(inv.id, inv.error);
      if (batch) {
        batch.expect();
        batch.add(reply);
      } else {
        this.wire.send(reply);
      }
    }
  }

  private onBatch(batch: ParsedBatch, info: FrameInfo | undefined): void {
    const { protocolVersion: version, era } = this.session;
    if (!allowsBatch(version) || era === undefined || !sessionEraOf(era).batches) {
      this.wire.send(
        errorResponse(
          null,
          WireError.invalidRequest(
            `JSON-RPC batches are not supported in protocol ${version ?? '(not negotiated)'}; only 2025-03-26 has them`,
          ),
        ),
      );
      return;
    }
    const collector = new BatchCollector((messages) => this.wire.send(messages));
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
    else this.wire.send(message, id);
  }

  private refuse(
    id: RequestId,
    error: WireError,
    batch: BatchCollector | undefined,
    method?: string,
    params?: Params,
    version?: string,
  ): void {
    const observer = this.wire.observer;
    if (observer !== undefined && method !== undefined) {
      observer.inboundEnd(
        observer.inboundStart(method, id, params!, version ?? this.session.protocolVersion),
        undefined,
        error,
      );
    }
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
    if (this.inflight.has(id)) {
      this.refuse(
        id,
        WireError.invalidRequest(`Request id ${JSON.stringify(id)} is already in flight`),
        batch,
      );
      return;
    }
    const params = msg.params ?? EMPTY_PARAMS;
    const session = this.session;
    const role = this.role;
    const route = role.route(session, method, params);
    if (route === 'initialize') {
      this.handleInitialize(id, params, batch);
      return;
    }
    if (route instanceof WireError) {
      this.refuse(id, route, batch, method, params);
      return;
    }
    const refusal = refuseMethod(role, session.capabilities, method, route.version);
    if (refusal) {
      this.refuse(id, refusal, batch, method, params, route.version);
      return;
    }
    const handler =
      role.builtin(method) ?? this.ownRequestHandlers.get(method) ?? this.sharedRequestHandlers?.get(method);
    if (!handler) {
      this.refuse(id, WireError.methodNotFound(method), batch, method, params, route.version);
      return;
    }
    const ctx = new RequestContext({
      session,
      requestId: id,
      method,
      params,
      protocolVersion: route.version,
      era: route.era,
      peerCapabilities: route.peerCapabilities,
      peerInfo: route.peerInfo,
      authInfo: info?.authInfo,
    });
    if (batch) {
      batch.expect();
      ctx.batch = batch;
    }
    if (info?.transportMeta) ctx.transportMeta = info.transportMeta;
    if (info?.remoteAddress !== undefined) ctx.remoteAddress = info.remoteAddress;
    this.inflight.set(id, ctx);
    if (info?.signal) {
      if (info.signal.aborted) ctx.cancel('The request stream closed');
      else {
        ctx.transportSignal = info.signal;
        info.signal.addEventListener('abort', ctx, { once: true });
      }
    }
    const observer = this.wire.observer;
    let out: unknown;
    try {
      if (observer === undefined) out = handler(params, ctx);
      else {
        ctx.observed = observer.inboundStart(method, id, params, route.version);
        out = observer.inboundRun(ctx.observed, handler, params, ctx);
      }
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

  /** The server side of the legacy handshake's first message. */
  private handleInitialize(id: RequestId, params: Params, batch: BatchCollector | undefined): void {
    const s = this.session;
    if (s.legacyState !== 'new') {
      this.refuse(
        id,
        WireError.invalidRequest('initialize was already received on this connection'),
        batch,
        'initialize',
        params,
      );
      return;
    }
    const outcome = negotiateInitialize(params, s.versions);
    if (outcome instanceof WireError) {
      this.refuse(id, outcome, batch, 'initialize', params);
      return;
    }
    s.protocolVersion = outcome.version;
    s.era = 'legacy';
    s.peerCapabilities = outcome.capabilities;
    s.peerInfo = outcome.clientInfo;
    s.legacyState = 'initializing';
    const result: Record<string, unknown> = {
      protocolVersion: outcome.version,
      capabilities: legacyCapabilities(s.capabilities),
      serverInfo: s.info,
    };
    if (s.instructions !== undefined) result.instructions = s.instructions;
    const shaped = shapeResult('initialize', outcome.version, result);
    const observer = this.wire.observer;
    if (observer !== undefined) {
      observer.inboundEnd(
        observer.inboundStart('initialize', id, params, outcome.version),
        shaped,
        undefined,
      );
    }
    this.wire.send({ jsonrpc: '2.0', id, result: shaped }, id);
  }

  private finish(ctx: RequestContext, value: unknown): void {
    if (ctx.done) return;
    this.answer(ctx, value);
    this.closeIfDrained();
  }

  private answer(ctx: RequestContext, value: unknown): void {
    this.retire(ctx);
    if (ctx.cancelled) {
      if (ctx.observed !== undefined) this.observeCancelled(ctx);
      ctx.batch?.skip();
      return;
    }
    if (value === undefined || value === null) value = {};
    if (!isObject(value)) {
      this.wire.logger('error', `Handler for ${ctx.method} returned a non-object result`, value, ctx);
      this.answerWith(ctx, WireError.internal());
      return;
    }
    const result = this.role.shapeAnswer(ctx, value, this.session.info);
    if (ctx.observed !== undefined) this.observeEnd(ctx, result, undefined);
    this.reply(ctx, ctx.requestId, { jsonrpc: '2.0', id: ctx.requestId, result });
  }

  private answerWith(ctx: RequestContext, error: WireError): void {
    if (ctx.observed !== undefined) this.observeEnd(ctx, undefined, error);
    this.reply(ctx, ctx.requestId, errorResponse(ctx.requestId, error));
  }

  private observeEnd(ctx: RequestContext, result: unknown, error: unknown): void {
    const token = ctx.observed;
    ctx.observed = undefined;
    this.wire.observer?.inboundEnd(token, result, error);
  }

  private observeCancelled(ctx: RequestContext): void {
    this.observeEnd(
      ctx,
      undefined,
      new LocalError('Cancelled', ctx.cancelReason ?? `Request ${ctx.method} was cancelled`),
    );
  }

  private finishError(ctx: RequestContext, e: unknown): void {
    if (ctx.done) return;
    this.answerError(ctx, e);
    this.closeIfDrained();
  }

  private answerError(ctx: RequestContext, e: unknown): void {
    this.retire(ctx);
    if (ctx.cancelled) {
      if (ctx.observed !== undefined) this.observeCancelled(ctx);
      ctx.batch?.skip();
      return;
    }
    let wire: WireError;
    if (e instanceof WireError) {
      wire = e;
    } else {
      // The detail stays here: stacks and internal messages never cross the wire.
      this.wire.logger('error', `Handler for ${ctx.method} failed`, e, ctx);
      wire = WireError.internal();
    }
    this.answerWith(ctx, wire);
  }

  /** The request is over: forget it and stop listening to its transport signal. */
  private retire(ctx: RequestContext): void {
    ctx.done = true;
    if (this.inflight.get(ctx.requestId) === ctx) this.inflight.delete(ctx.requestId);
    if (ctx.transportSignal) ctx.transportSignal.removeEventListener('abort', ctx);
  }

  private onNotification(msg: JsonRpcNotification): void {
    const method = msg.method;
    const params = msg.params ?? EMPTY_PARAMS;
    const observer = this.wire.observer;
    if (observer !== undefined) observer.notificationIn(method, params, this.session.protocolVersion);
    const gate = this.wire.gate;
    if (gate !== undefined && gate.list.length !== 0) {
      const passed = gate.pass('inbound', method, params, (changed) =>
        this.deliverNotification(method, changed, changed === params ? msg : { ...msg, params: changed }),
      );
      if (passed) {
        passed.catch((e: unknown) => this.wire.logger('error', `Notification ${method} failed`, e));
        return;
      }
    }
    this.deliverNotification(method, params, msg);
  }

  private deliverNotification(method: string, params: Params, msg: JsonRpcNotification): void {
    switch (method) {
      case 'notifications/cancelled': {
        const ctx = isValidRequestId(params.requestId) ? this.inflight.get(params.requestId) : undefined;
        if (ctx && ctx.method !== 'initialize') {
          ctx.cancel(typeof params.reason === 'string' ? params.reason : undefined);
          if (ctx.observed !== undefined) this.observeCancelled(ctx);
          // A cancelled handler that never settles must not keep the request (or a draining session) alive.
          this.inflight.delete(ctx.requestId);
          this.closeIfDrained();
        }
        return;
      }
      case 'notifications/progress':
        this.outbound.onProgress(params);
        return;
      case 'initialized':
      case 'notifications/initialized':
        // The bare spelling comes from the project's early documents; it is harmless to accept.
        this.session.legacyState = this.role.afterInitialized(this.session.legacyState);
        this.callNotificationHandler('notifications/initialized', params, msg);
        return;
      default:
        this.callNotificationHandler(method, params, msg);
    }
  }

  private callNotificationHandler(method: string, params: Params, msg: JsonRpcNotification): void {
    const handler = this.ownNotificationHandlers.get(method) ?? this.sharedNotificationHandlers?.get(method);
    if (!handler) {
      this.session.onnotification?.(msg);
      return;
    }
    try {
      const r = handler(params, this.session);
      if (r)
        r.catch((e: unknown) => this.wire.logger('error', `Notification handler for ${method} failed`, e));
    } catch (e) {
      this.wire.logger('error', `Notification handler for ${method} failed`, e);
    }
  }
}
