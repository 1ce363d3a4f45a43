/**
 * Falling back from Streamable HTTP to the deprecated HTTP+SSE transport (2024-11-05).
 */
import type { JsonRpcErrorObject } from '../../jsonrpc/index.js';
import { isObject } from '../../jsonrpc/is-object.js';

/**
 * Whether the status of a failed Streamable HTTP `initialize` POST means "try the old
 * HTTP+SSE transport at the same URL": 400, 404 or 405.
 *
 * The client uses it like this (or sets `legacySseFallback: true` on
 * {@link StreamableHttpClientTransport}, which does exactly this by itself):
 * 1. POST `initialize` to the URL with Streamable HTTP.
 * 2. If the answer is one of these statuses **and** its body is not a JSON-RPC error (a
 *    modern or 2025 server explains its 400/404 with one; see {@link jsonRpcErrorIn}),
 *    open `new SseClientTransport({ url })` on the same URL, which GETs it and waits for
 *    the `endpoint` event, and send `initialize` again over it.
 * 3. If that GET fails too, report the first failure: the server speaks neither.
 *
 * @example
 * ```ts
 * if (shouldFallBackToSse(res.status) && !jsonRpcErrorIn(await res.text())) useSse();
 * ```
 */
export function shouldFallBackToSse(status: number): boolean {
  return status === 400 || status === 404 || status === 405;
}

/**
 * The JSON-RPC error object in a response body, if the body is a JSON-RPC error response
 * (what a modern or 2025 server sends with its 400 or 404, and a legacy HTTP+SSE server
 * does not).
 *
 * @example
 * ```ts
 * jsonRpcErrorIn('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}');
 * // { code: -32601, message: 'Method not found' }
 * ```
 */
export function jsonRpcErrorIn(body: string): JsonRpcErrorObject | undefined {
  if (body === '' || (body.trimStart()[0] ?? '') !== '{') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.jsonrpc !== '2.0' || !isObject(value.error)) return undefined;
  const { code, message, data } = value.error;
  if (!Number.isInteger(code) || typeof message !== 'string') return undefined;
  const error: JsonRpcErrorObject = { code: code as number, message };
  if (data !== undefined) error.data = data;
  return error;
}
