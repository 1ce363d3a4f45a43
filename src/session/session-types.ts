import type { Implementation } from '../protocol/types/base.js';
import type { InterceptedRequest, Interceptor } from './interceptors.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import type { LoggerOption } from './library-logger.js';
import type { SessionObserver } from './observer.js';
import type { RequestContext } from './request-context.js';
import type { Session } from './session.js';
import type { SessionRole } from './session-role.js';

export type Role = 'client' | 'server';

/** Answers one inbound request. Return the result object, or throw a `WireError`. */
export type RequestHandler = (params: Params, ctx: RequestContext) => unknown;

/** Receives one inbound notification. */
export type NotificationHandler = (params: Params, session: Session) => void | Promise<void>;

/** The request a diagnostic is about: a request context fits. */
export interface LogRequest {
  readonly method: string;
  readonly requestId: RequestId;
  /** The request's `_meta`: its `traceparent` gives the trace id. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Where the session reports what it could not hand to anyone else; `request` is the
 * request it is about, when there is one. A pino-compatible `Logger` may be given instead
 * wherever a `logger` option is taken.
 */
export interface SessionLogger {
  (level: 'debug' | 'warning' | 'error', message: string, detail?: unknown, request?: LogRequest): void;
}

/** Identifies an implementation: ours in `info`, the peer's in `peerInfo` (the wire type). */
export type { Implementation };

export interface SessionOptions {
  /**
   * The end of the connection this session plays: `clientRole` or `serverRole` (the
   * strings `'client'` and `'server'` name the same objects).
   */
  role: SessionRole | Role;
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
  /**
   * Receives internal errors (handler stacks, invalid peer messages): a pino-compatible
   * logger or a function; `false` for none. Defaults to stderr (warnings and errors).
   */
  logger?: LoggerOption;
  /**
   * The role's interceptors, read live (the server's or client's own list): those with the
   * `notification` phase (or a `wrapNotification`) see notifications both ways.
   */
  interceptors?: readonly Interceptor<InterceptedRequest>[];
  /** Watches every request and notification both ways (see {@link SessionObserver}); telemetry sets it. */
  observer?: SessionObserver;
}

/** The default logger: stderr only, since on stdio stdout belongs to the protocol. */
export const defaultLogger: SessionLogger = (level, message, detail) => {
  if (level === 'debug') return;
  // stderr only: on stdio, stdout belongs to the protocol.
  console.error(`[mcpkit] ${message}`, detail ?? '');
};
