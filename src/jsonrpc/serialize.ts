import type { JsonRpcErrorResponse, JsonRpcMessage, RequestId } from './message.js';
import { HOLDS_RAW_JSON, splicedResponse } from './raw-json.js';
import type { WireError } from './wire-error.js';

/** Builds an error response for an id (null when the id could not be read). */
export function errorResponse(id: RequestId | null, error: WireError): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}

/**
 * Serializes a message for a line-based transport. JSON.stringify escapes control
 * characters, so the result never holds a raw newline (nor does a RawJson text, which is
 * JSON.stringify's output too).
 */
export function serializeMessage(message: JsonRpcMessage | JsonRpcMessage[]): string {
  const result = (message as { result?: unknown }).result;
  if (
    typeof result === 'object' &&
    result !== null &&
    (result as { [HOLDS_RAW_JSON]?: true })[HOLDS_RAW_JSON]
  ) {
    return splicedResponse(message as unknown as Record<string, unknown>);
  }
  return JSON.stringify(message);
}
