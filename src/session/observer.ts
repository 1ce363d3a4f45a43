import type { JsonRpcNotification, JsonRpcRequest, Params, RequestId } from '../jsonrpc/index.js';
import type { RequestContext } from './request-context.js';
import type { RequestHandler } from './session-types.js';

/**
 * Watches the tasks a server runs, from creation to a terminal status: the seam telemetry
 * draws a span over each task's whole life with. What `taskCreated` returns comes back to
 * `taskEnded`. Hooks must not throw.
 */
export interface TaskObserver {
  /** A task was created by the request `ctx` (whose handler is still running). */
  taskCreated(taskId: string, ctx: RequestContext): unknown;
  /**
   * The task ended: `completed`, `failed` or `cancelled`, or `expired` when its time ran out
   * first; `message` is its status message, if it has one.
   */
  taskEnded(token: unknown, status: string, message: string | undefined): void;
}

/**
 * Watches the traffic of one session (or of a server's session-less modern requests): the
 * seam telemetry hooks into. The engine calls it only when one is set (one null check per
 * message otherwise) and stays role-agnostic: "inbound" is what the peer asked of us,
 * "outbound" what we asked of the peer, whichever end we are.
 *
 * What a `*Start` hook returns is handed back, unread, to the matching `*End` (and to
 * `inboundRun`), so the observer keeps its per-call state (a span, a start time) without
 * the engine making a closure per call. Hooks must not throw.
 *
 * @example
 * ```ts
 * import { Session } from 'mcpkit/advanced';
 * import type { SessionObserver } from 'mcpkit/advanced';
 *
 * const counting: SessionObserver = {
 *   inboundStart: (method) => performance.now(),
 *   inboundRun: (_token, handler, params, ctx) => handler(params, ctx),
 *   inboundEnd: (started, _result, error) =>
 *     console.error(`took ${performance.now() - (started as number)} ms`, error ?? ''),
 *   outboundStart: () => undefined,
 *   outboundEnd: () => {},
 *   notificationOut: () => {},
 *   notificationIn: () => {},
 *   closed: () => {},
 * };
 * const session = new Session({ role: 'server', info: { name: 's', version: '1' }, observer: counting });
 * ```
 */
export interface SessionObserver {
  /**
   * A request from the peer arrived: it will be handled, or refused at once (then
   * `inboundEnd` follows without `inboundRun`). `protocolVersion` is the one it is served
   * under, when known.
   */
  inboundStart(method: string, id: RequestId, params: Params, protocolVersion: string | undefined): unknown;
  /** Runs the request's handler (inside a trace context, say): returns `handler(params, ctx)`. */
  inboundRun(token: unknown, handler: RequestHandler, params: Params, ctx: RequestContext): unknown;
  /**
   * The request is over: answered with `result`, or failed with `error` (the `WireError`
   * answered, or a `LocalError` with code `Cancelled` when it was cancelled).
   */
  inboundEnd(token: unknown, result: unknown, error: unknown): void;
  /**
   * We are about to send `message`. The observer may replace `message.params` (with a copy:
   * the old params may belong to the caller), to add `_meta` entries.
   */
  outboundStart(message: JsonRpcRequest, protocolVersion: string | undefined): unknown;
  /** Our request was answered with `result`, or failed with `error` (`WireError` or `LocalError`). */
  outboundEnd(token: unknown, result: unknown, error: unknown): void;
  /** We are about to send a notification; `message.params` may be replaced as in `outboundStart`. */
  notificationOut(message: JsonRpcNotification, protocolVersion: string | undefined): void;
  /** A notification from the peer, before its handler runs. */
  notificationIn(method: string, params: Params, protocolVersion: string | undefined): void;
  /** The connection closed (never called for session-less requests). */
  closed(): void;
}
