import type { JsonRpcMessage, RequestId } from './message.js';
import { ErrorCode } from './error-codes.js';
import { WireError } from './wire-error.js';
import { isObject } from './is-object.js';

/**
 * A message that failed the envelope checks. It carries the error to answer with, and the
 * id to echo: the offending message's id when that id is itself valid, otherwise null.
 * `respond` is false when the message looked like a response or notification, which
 * must never be answered.
 */
export class InvalidMessage {
  constructor(
    readonly error: WireError,
    readonly id: RequestId | null,
    readonly respond: boolean,
    /** It had no method: a (broken) answer to a request, whose id names one of ours. */
    readonly responseLike = false,
  ) {}
}

/** Whether a value is a valid MCP request id: a string, or a safe integer. Never allocates. */
export function isValidId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function invalid(message: string, id: unknown, respond = true, responseLike = !respond): InvalidMessage {
  return new InvalidMessage(
    new WireError(ErrorCode.InvalidRequest, message),
    isValidId(id) ? id : null,
    respond,
    responseLike,
  );
}

/**
 * Checks one already-parsed JSON value against the JSON-RPC 2.0 envelope as MCP
 * restricts it. On success the value itself is returned (no copy, no allocation); on
 * failure an {@link InvalidMessage}.
 *
 * @example
 * ```ts
 * const m = inspectMessage(JSON.parse(line));
 * if (m instanceof InvalidMessage) send(errorResponse(m.id, m.error));
 * ```
 */
export function inspectMessage(input: unknown): JsonRpcMessage | InvalidMessage {
  // isObject, written out here and for params: this runs for every message.
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return invalid('A JSON-RPC message must be an object', null);
  const value = input as Record<string, unknown>;
  const id = value.id;
  const method = value.method;
  // Anything shaped like a response is never answered, however broken it is.
  const responseShaped = method === undefined && (value.result !== undefined || value.error !== undefined);
  if (value.jsonrpc !== '2.0')
    return invalid('jsonrpc must be exactly "2.0"', id, !responseShaped, method === undefined);
  if (method !== undefined) {
    if (typeof method !== 'string') return invalid('method must be a string', id);
    const params = value.params;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
      return invalid('params must be an object', id);
    if (id === undefined) return value as unknown as JsonRpcMessage;
    if (!isValidId(id)) {
      return invalid('id must be a string or an integer (not null, fractional or unsafe)', id);
    }
    return value as unknown as JsonRpcMessage;
  }
  // No method: this must be a response, which is never answered.
  const hasResult = value.result !== undefined;
  const error = value.error;
  if (hasResult && error !== undefined) {
    return invalid('A response must not carry both result and error', id, false);
  }
  if (hasResult) {
    if (!isValidId(id)) return invalid('A result response needs a valid id', id, false);
    if (!isObject(value.result)) return invalid('result must be an object', id, false);
    return value as unknown as JsonRpcMessage;
  }
  if (error !== undefined) {
    if (id !== null && !isValidId(id))
      return invalid('An error response needs a valid id or null', id, false);
    if (!isObject(error) || !Number.isInteger(error.code)) {
      return invalid('error must be an object with an integer code', id, false);
    }
    if (typeof error.message !== 'string') return invalid('error.message must be a string', id, false);
    return value as unknown as JsonRpcMessage;
  }
  return invalid('A message needs a method, a result or an error', id, true, true);
}
