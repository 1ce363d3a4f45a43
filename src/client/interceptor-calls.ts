/**
 * The client's calls of SEP-2624's interceptors extension, for a server that declares
 * `io.modelcontextprotocol/interceptors`: list its interceptors, invoke one on a payload.
 */
import type { Params } from '../jsonrpc/index.js';
import type {
  InvokeInterceptorParams,
  InvokeInterceptorResult,
  ListInterceptorsParams,
  ListInterceptorsResult,
} from '../protocol/interceptors-wire.js';
import type { Client } from './client.js';
import type { CallOptions } from './types.js';

/**
 * The server's interceptors (`interceptors/list`), optionally only those hooked into an event.
 *
 * @example
 * ```ts
 * const { interceptors } = await listInterceptors(client, { event: 'tools/call' });
 * ```
 */
export async function listInterceptors(
  client: Client,
  params: ListInterceptorsParams = {},
  options?: CallOptions,
): Promise<ListInterceptorsResult> {
  const result = await client.request('interceptors/list', params as Params, options);
  if (!Array.isArray(result.interceptors))
    throw new TypeError('interceptors/list answered without an interceptors array');
  return result as ListInterceptorsResult;
}

/**
 * Runs one of the server's interceptors on a payload (`interceptor/invoke`): a validator
 * answers `valid`, a mutator `modified` and the new `payload`.
 *
 * @example
 * ```ts
 * const r = await invokeInterceptor(client, {
 *   name: 'pii-redactor', event: 'tools/call', phase: 'request',
 *   payload: { name: 'send', arguments: { to: 'a@example.com' } },
 * });
 * if (r.modified) console.log(r.payload);
 * ```
 */
export async function invokeInterceptor(
  client: Client,
  params: InvokeInterceptorParams,
  options?: CallOptions,
): Promise<InvokeInterceptorResult> {
  return (await client.request('interceptor/invoke', params as Params, options)) as InvokeInterceptorResult;
}
