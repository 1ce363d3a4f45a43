/**
 * mcpkit's own diagnostics (handler failures, invalid peer messages, store outages, rate
 * limit refusals) to a pino-compatible logger, with the request's trace id when it carried
 * one (`_meta.traceparent`, SEP-414).
 */
import { defaultLogger } from './session-types.js';
import type { LogRequest, SessionLogger } from './session-types.js';

/**
 * A structured logger in pino's shape: `logger.info(mergingObject, message)`, and `child`
 * when it has one. pino, or anything with these methods, fits as it is.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const logger: Logger = {
 *   debug: () => {},
 *   info: (obj, msg) => lines.push(`${msg} ${JSON.stringify(obj)}`),
 *   warn: (obj, msg) => lines.push(`${msg} ${JSON.stringify(obj)}`),
 *   error: (obj, msg) => lines.push(`${msg} ${JSON.stringify(obj)}`),
 * };
 * const server = new McpServer({ name: 'demo', version: '1.0.0' }, { logger });
 * ```
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child?(bindings: Record<string, unknown>): Logger;
}

/**
 * What the `logger` options take: a pino-compatible {@link Logger}, the older
 * {@link SessionLogger} function, or `false` for nothing at all. Left out, warnings and
 * errors go to stderr as before and debug lines nowhere.
 */
export type LoggerOption = Logger | SessionLogger | false;

/** A W3C trace context's ids (the `traceparent` value of version 00). */
export interface TraceIds {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** The caller's span: 16 lowercase hex digits, not all zero. */
  spanId: string;
  sampled: boolean;
}

const HEX = /^[0-9a-f]+$/;

/**
 * Parses a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`) strictly: lowercase hex of
 * the right lengths, no all-zero ids, version `ff` refused, and a later version read by its
 * version-00 prefix as the W3C spec asks. Anything else is undefined: a malformed header is
 * ignored, never half-used.
 *
 * @example
 * ```ts
 * parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01');
 * // { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', sampled: true }
 * ```
 */
export function parseTraceparent(value: unknown): TraceIds | undefined {
  if (typeof value !== 'string' || value.length < 55 || value.length > 512) return undefined;
  const version = value.slice(0, 2);
  if (!HEX.test(version) || version === 'ff') return undefined;
  // Version 00 is exactly 55 characters; a later one may add fields after a dash.
  if (version === '00' ? value.length !== 55 : value.length > 55 && value[55] !== '-') return undefined;
  if (value[2] !== '-' || value[35] !== '-' || value[52] !== '-') return undefined;
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!HEX.test(traceId) || !HEX.test(spanId) || !HEX.test(flags)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

const silent: SessionLogger = () => undefined;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The merging object of one diagnostic: the detail's fields, or `err`, and the request's. */
function fieldsOf(detail: unknown, request: LogRequest | undefined): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  if (detail instanceof Error) obj.err = detail;
  else if (isPlainObject(detail)) Object.assign(obj, detail);
  else if (detail !== undefined) obj.detail = detail;
  if (request) {
    obj.method = request.method;
    obj.requestId = request.requestId;
    const meta = request.meta;
    const trace = meta === undefined ? undefined : parseTraceparent(meta.traceparent);
    if (trace) {
      obj.traceId = trace.traceId;
      obj.spanId = trace.spanId;
    }
  }
  return obj;
}

/** The session's logger function for a `logger` option: a {@link Logger} is adapted. */
export function sessionLoggerOf(option: LoggerOption | undefined): SessionLogger {
  if (option === undefined) return defaultLogger;
  if (option === false) return silent;
  if (typeof option === 'function') return option;
  const log = option.child ? option.child({ lib: 'mcpkit' }) : option;
  return (level, message, detail, request) => {
    const obj = fieldsOf(detail, request);
    if (level === 'error') log.error(obj, message);
    else if (level === 'warning') log.warn(obj, message);
    else log.debug(obj, message);
  };
}
