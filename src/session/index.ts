export { Session } from './session.js';
export { ExchangeServer } from './exchange-call.js';
export type { ExchangeServerOptions } from './exchange-call.js';
export { clientRole } from './client-role.js';
export { serverRole } from './server-role.js';
export type { SessionRole } from './session-role.js';
export type { SessionObserver, TaskObserver } from './observer.js';
export type { InboundRoute, RouteState } from './inbound-route.js';
export type {
  Implementation,
  LogRequest,
  NotificationHandler,
  RequestHandler,
  Role,
  SessionLogger,
  SessionOptions,
} from './session-types.js';
export { parseTraceparent, sessionLoggerOf } from './library-logger.js';
export type { Logger, LoggerOption, TraceIds } from './library-logger.js';
export { RequestContext } from './request-context.js';
export type { PeerInfo, RequestContextInit } from './request-context.js';
export type { Progress, RequestOptions } from './options.js';
export { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './options.js';
export { LOG_LEVELS, isLogLevel, passesLevel } from './logging-levels.js';
export type { LogLevel } from './logging-levels.js';
export type { LegacyState } from './lifecycle.js';
