import { ErrorCode } from '../../jsonrpc/index.js';
import type { RequestId } from '../../jsonrpc/index.js';
import { MetaKey } from '../../protocol/meta-keys.js';
import type { HttpExchange } from './exchange.js';
import { sendError } from './respond.js';

/**
 * One way the HTTP layer turns a request down: the HTTP status, the JSON-RPC error code and
 * message of the body, and any headers that always go with it.
 */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  /** The message, or how it is made from the detail the caller gives. */
  readonly message: string | ((detail: never) => string);
  readonly headers?: Readonly<Record<string, string>>;
}

const BAD = ErrorCode.InvalidRequest;
const INTERNAL = ErrorCode.InternalError;

/**
 * Every refusal of the Streamable HTTP and HTTP+SSE endpoints, by name: the one place that
 * pairs a status with its code and words. Refusals that relay a JSON-RPC error of their own
 * (an unparsable body, a header mismatch) send that error instead.
 */
export const REFUSALS = {
  forbiddenHost: { status: 403, code: BAD, message: (why: string) => `Forbidden: ${why}` },
  shuttingDown: { status: 503, code: INTERNAL, message: 'The server is shutting down' },
  storeUnavailable: {
    status: 503,
    code: INTERNAL,
    message: (why: string) => `Service unavailable: ${why}`,
    headers: { 'retry-after': '1' },
  },
  internal: { status: 500, code: INTERNAL, message: 'Internal error' },
  notFound: { status: 404, code: BAD, message: (path: string) => `Not found: ${path.slice(0, 200)}` },
  methodNotAllowed: {
    status: 405,
    code: BAD,
    message: 'Method not allowed',
    headers: { allow: 'GET, POST, DELETE' },
  },
  /** GET and DELETE without a session: only POST means anything then. */
  postOnly: { status: 405, code: BAD, message: 'Method not allowed', headers: { allow: 'POST' } },
  unsupportedMediaType: {
    status: 415,
    code: BAD,
    message: 'Unsupported Media Type: Content-Type must be application/json',
  },
  notAcceptablePost: {
    status: 406,
    code: BAD,
    message: 'Not Acceptable: Accept must list application/json and text/event-stream',
  },
  notAcceptableGet: { status: 406, code: BAD, message: 'Not Acceptable: Accept must list text/event-stream' },
  payloadTooLarge: {
    status: 413,
    code: BAD,
    message: (limit: number) => `Payload Too Large: the limit is ${limit} bytes`,
  },
  invalidUtf8: { status: 400, code: ErrorCode.ParseError, message: 'Parse error: invalid UTF-8' },
  /** The 2024-11-05 `/messages` endpoint's body could not be read whole. */
  unreadableBody: { status: 400, code: BAD, message: 'Unreadable body' },
  unreadableLargeBody: { status: 413, code: BAD, message: 'Unreadable body' },
  /** The header says 2026-07-28 but the body has no version: invalid params, not a missing session. */
  modernMetaMissing: {
    status: 400,
    code: ErrorCode.InvalidParams,
    message: (version: string) =>
      `Invalid params: a ${version} request needs _meta with ${MetaKey.ProtocolVersion} and ${MetaKey.ClientCapabilities}`,
  },
  noSession: {
    status: 400,
    code: BAD,
    message: `Bad Request: no Mcp-Session-Id; send initialize first, or use protocol 2026-07-28 with ${MetaKey.ProtocolVersion} in _meta`,
  },
  sessionNotFound: { status: 404, code: BAD, message: 'Session not found' },
  sessionClosed: { status: 404, code: BAD, message: 'Session closed' },
  unsupportedVersion: {
    status: 400,
    code: BAD,
    message: (version: string) => `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`,
  },
  batchTooLarge: {
    status: 400,
    code: BAD,
    message: ({ size, limit }: { size: number; limit: number }) =>
      `Bad Request: a batch of ${size} messages; the limit is ${limit}`,
  },
  batchesUnsupported: {
    status: 400,
    code: BAD,
    message: (version: string | undefined) =>
      `Bad Request: JSON-RPC batches are not supported in protocol ${version ?? '(not negotiated)'}; only 2025-03-26 has them`,
  },
  tooManyClientSessions: {
    status: 429,
    code: INTERNAL,
    message: 'Too many sessions for this client',
    headers: { 'retry-after': '5' },
  },
  tooManySessions: {
    status: 503,
    code: INTERNAL,
    message: 'Too many sessions; try again later',
    headers: { 'retry-after': '5' },
  },
  tooManyInFlight: {
    status: 429,
    code: INTERNAL,
    message: (limit: number) =>
      `Too many requests in flight in this session (limit ${limit}); wait for answers first`,
    headers: { 'retry-after': '1' },
  },
  streamConflict: { status: 409, code: BAD, message: 'Conflict: this session already has a GET stream' },
  foreignEventId: {
    status: 400,
    code: BAD,
    message: 'Bad Request: Last-Event-ID does not belong to this session',
  },
  unknownEventId: { status: 400, code: BAD, message: 'Bad Request: Last-Event-ID is unknown or expired' },
} as const satisfies Record<string, Refusal>;

/** The name of a refusal in {@link REFUSALS}. */
export type RefusalName = keyof typeof REFUSALS;

/** The detail a refusal's message is made from (undefined for fixed messages). */
export type RefusalDetail<N extends RefusalName> = (typeof REFUSALS)[N]['message'] extends (
  detail: infer D,
) => string
  ? D
  : undefined;

/**
 * Answers with a named refusal: its status, JSON-RPC error and headers, plus `headers` of
 * the moment (a session id) and the id of the request refused, when there is one.
 */
export function refuse<N extends RefusalName>(
  ex: HttpExchange,
  name: N,
  detail?: RefusalDetail<N>,
  id: RequestId | null = null,
  headers?: Record<string, string>,
): void {
  const r: Refusal = REFUSALS[name];
  const message = typeof r.message === 'string' ? r.message : (r.message as (d: unknown) => string)(detail);
  const all = r.headers ? (headers ? { ...r.headers, ...headers } : r.headers) : (headers ?? {});
  sendError(ex, r.status, r.code, message, id, all);
}

/** Answers 415 unless the request says its body is JSON; true when it answered. */
export function refuseNonJson(ex: HttpExchange): boolean {
  const type = ex.header('content-type');
  if (type && type.toLowerCase().startsWith('application/json')) return false;
  refuse(ex, 'unsupportedMediaType');
  return true;
}
