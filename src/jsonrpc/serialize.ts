import type { JsonRpcErrorResponse, JsonRpcMessage, RequestId } from './message.js';
import type { WireError } from './wire-error.js';

/** Builds an error response for an id (null when the id could not be read). */
export function errorResponse(id: RequestId | null, error: WireError): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}

/**
 * Serializes a message for a line-based transport. JSON.stringify escapes control
 * characters, so the result never holds a raw newline.
 */
export function serializeMessage(message: JsonRpcMessage | JsonRpcMessage[]): string {
  return JSON.stringify(message);
}
