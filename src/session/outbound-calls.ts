import { LocalError, WireError } from '../jsonrpc/index.js';
import type {
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Params,
  RequestId,
  SendOptions,
} from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { shapeNotification } from '../protocol/revision-shaping.js';
import type { Progress, RequestOptions } from './options.js';
import { refuseOutbound } from './outbound-checks.js';
import type { OutboundState } from './outbound-checks.js';
import { PendingRequest } from './pending.js';
import type { RequestContext } from './request-context.js';
import { sessionEraOf } from './session-era.js';
import type { SessionWire } from './session-wire.js';
import { isObject } from '../jsonrpc/is-object.js';
import { withField } from '../jsonrpc/with-field.js';

/**
 * The outbound half of a session: requests we send and their answers. It owns the
 * pending map, ids, timeouts, progress tokens and cancellation, and the notifications we
 * send. Answers and progress reach it from the inbound half.
 */
export class OutboundCalls {
  /** The modern `_meta` a client pinned to a version stamps on every request. */
  modernMeta: Readonly<Record<string, unknown>> | undefined;
  private nextId = 0;
  private readonly pending = new Map<RequestId, PendingRequest>();
  private readonly byProgressToken = new Map<string | number, PendingRequest>();
  private readonly fireTimeout = (p: PendingRequest): void => {
    this.cancelPending(p, p.timeoutError(), 'Request timed out');
  };

  constructor(
    private readonly wire: SessionWire,
    private readonly state: OutboundState,
    private readonly timeoutMs: number,
    private readonly maxTotalMs: number,
  ) {}

  /** Number of requests waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }

  /** Sends a request; see `Session.request`. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Record<string, unknown>> {
    const refusal = this.check(method, 'request');
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
    let outParams = this.state.role.outboundParams(params, this.modernMeta);
    const onprogress = options?.onprogress;
    if (onprogress) {
      const own = outParams?._meta;
      const meta = isObject(own)
        ? withField(own, MetaKey.ProgressToken, id)
        : { [MetaKey.ProgressToken]: id };
      outParams = withField(outParams ?? {}, '_meta', meta);
    }
    let pending!: PendingRequest;
    const promise = new Promise<Record<string, unknown>>((resolve, reject) => {
      pending = new PendingRequest({
        id,
        method,
        startedAt: Date.now(),
        timeoutMs: options?.timeoutMs ?? this.timeoutMs,
        maxTotalMs: options?.maxTotalTimeoutMs ?? this.maxTotalMs,
        resetOnProgress: options?.resetTimeoutOnProgress ?? false,
        onprogress,
        resolve,
        reject,
      });
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
    const observer = this.wire.observer;
    if (observer !== undefined)
      pending.observed = observer.outboundStart(message, this.state.protocolVersion);
    this.transmit(message, options, pending);
    return promise;
  }

  /** A server-to-client request made while handling `ctx` (legacy era only). */
  requestOnBehalf(
    ctx: RequestContext,
    method: string,
    params: Params | undefined,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>> {
    if (!sessionEraOf(ctx.era).serverRequests) {
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

  /** Sends a notification, shaped for the negotiated revision. */
  async notify(method: string, params?: Params, relatedRequestId?: RequestId): Promise<void> {
    const refusal = this.check(method, 'notification');
    if (refusal) throw refusal;
    const gate = this.wire.gate;
    if (gate !== undefined && gate.list.length !== 0) {
      const passed = gate.pass('outbound', method, params ?? {}, (changed) =>
        this.sendNotification(method, changed, relatedRequestId),
      );
      if (passed) return passed as Promise<void>; // resolves with sendNotification's own void
    }
    return this.sendNotification(method, params, relatedRequestId);
  }

  private async sendNotification(
    method: string,
    params: Params | undefined,
    relatedRequestId: RequestId | undefined,
  ): Promise<void> {
    params = shapeNotification(method, this.state.protocolVersion, params);
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    const observer = this.wire.observer;
    if (observer !== undefined) observer.notificationOut(message, this.state.protocolVersion);
    await this.wire.transport!.send(
      message,
      relatedRequestId === undefined ? undefined : { relatedRequestId },
    );
  }

  /** An answer from the peer. */
  onResponse(msg: JsonRpcResponse): void {
    const id = msg.id;
    const p = id === null ? undefined : this.pending.get(id);
    if (!p) {
      if ('error' in msg)
        this.wire.logger(
          'warning',
          `Error from the peer without a matching request: ${msg.error.message}`,
          msg.error,
        );
      else this.wire.logger('warning', `Response to unknown request id ${JSON.stringify(id)} ignored`);
      return;
    }
    this.forget(p);
    if ('error' in msg) {
      const error = WireError.fromObject(msg.error);
      if (p.observed !== undefined) this.wire.observer?.outboundEnd(p.observed, undefined, error);
      p.reject(error);
    } else {
      if (p.observed !== undefined) this.wire.observer?.outboundEnd(p.observed, msg.result, undefined);
      p.resolve(msg.result);
    }
  }

  /** `notifications/progress` for one of our requests. */
  onProgress(params: Params): void {
    const token = params.progressToken;
    const p =
      typeof token === 'string' || typeof token === 'number' ? this.byProgressToken.get(token) : undefined;
    if (p && typeof params.progress === 'number') {
      const progress: Progress = { progress: params.progress };
      if (typeof params.total === 'number') progress.total = params.total;
      if (typeof params.message === 'string') progress.message = params.message;
      p.progress(progress, Date.now(), this.fireTimeout);
    }
  }

  /**
   * A broken answer to one of our requests fails that request instead of leaving it
   * hanging. Returns whether `id` was one of ours.
   */
  failMalformed(id: RequestId, detail: string): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    this.failPending(p, new LocalError('InvalidMessage', `Malformed response to ${p.method}: ${detail}`));
    return true;
  }

  /** Rejects every pending request (the connection closed, or the peer stopped sending). */
  failAll(error: (method: string) => Error): void {
    for (const p of [...this.pending.values()]) this.failPending(p, error(p.method));
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

  private check(method: string, kind: 'request' | 'notification'): LocalError | undefined {
    const wire = this.wire;
    if (!wire.transport) return new LocalError('NotConnected', `Cannot send ${method}: not connected`);
    if (wire.closed || (wire.draining && kind === 'request')) {
      return new LocalError('ConnectionClosed', `Cannot send ${method}: the connection is closed`);
    }
    return refuseOutbound(this.state, method, kind);
  }

  private transmit(
    message: JsonRpcRequest,
    options: RequestOptions | undefined,
    pending: PendingRequest,
  ): void {
    let r: void | Promise<void>;
    const related = options?.relatedRequestId;
    const headers = options?.headers;
    let send: SendOptions | undefined;
    if (related !== undefined) send = { relatedRequestId: related };
    if (headers !== undefined) (send ??= {}).headers = headers;
    try {
      r = this.wire.transport!.send(message, send);
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

  /** Rejects a pending request and tells the peer, as the era and transport call for. */
  private cancelPending(p: PendingRequest, error: Error, reason: string): void {
    if (p.done) return;
    this.failPending(p, error);
    const wire = this.wire;
    // initialize is never cancelled (2025-06-18 and later forbid it).
    if (p.method === 'initialize' || wire.closed || !wire.transport) return;
    if (wire.transport.abortRequest?.(p.id)) return;
    const message: JsonRpcNotification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: p.id, reason },
    };
    if (wire.observer !== undefined) wire.observer.notificationOut(message, this.state.protocolVersion);
    wire.send(message);
  }

  private failPending(p: PendingRequest, error: Error): void {
    if (p.done) return;
    this.forget(p);
    if (p.observed !== undefined) this.wire.observer?.outboundEnd(p.observed, undefined, error);
    p.reject(error);
  }

  private forget(p: PendingRequest): void {
    p.settle();
    this.pending.delete(p.id);
    if (p.progressToken !== undefined) this.byProgressToken.delete(p.progressToken);
    // A long-lived signal shared by many calls must not collect one listener per call.
    if (p.signal) p.signal.removeEventListener('abort', p);
  }
}
