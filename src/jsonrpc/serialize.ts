import type { JsonRpcErrorResponse, JsonRpcMessage, RequestId } from './message.js';
import { HOLDS_RAW_JSON, fixedMetaMessage, fixedMetaText, splicedMessage } from './raw-json.js';
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
  const m = message as unknown as Record<string, unknown>;
  const result = m.result;
  if (typeof result === 'object' && result !== null) {
    if ((result as { [HOLDS_RAW_JSON]?: true })[HOLDS_RAW_JSON]) {
      if (m.toJSON === undefined && (result as { toJSON?: unknown }).toJSON === undefined)
        return splicedMessage(m, 'result');
    } else {
      const metaText = fixedMetaText(result);
      if (metaText !== undefined) return fixedMetaMessage(m, 'result', metaText) ?? JSON.stringify(message);
    }
  } else {
    const metaText = fixedMetaText(m.params);
    if (metaText !== undefined) return fixedMetaMessage(m, 'params', metaText) ?? JSON.stringify(message);
  }
  return JSON.stringify(message);
}
