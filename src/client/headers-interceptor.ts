import type { Wrap } from '../session/interceptors.js';
import type { ClientRequest } from './interceptors.js';

/** Headers, or a function computing them for each request. */
export type RequestHeaders =
  | Readonly<Record<string, string>>
  | ((
      request: ClientRequest,
    ) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/**
 * A client interceptor that adds HTTP headers to each request's POST on the streamable
 * HTTP transport (other transports ignore them). Headers the caller passed in
 * `options.headers` win; the protocol's own (`Mcp-*`, `Content-Type`, `Accept`) cannot
 * be set this way.
 *
 * @example
 * ```ts
 * client.use(headers((r) => ({ 'x-request-tag': `${r.method}:${crypto.randomUUID()}` })));
 * ```
 */
export function headers(source: RequestHeaders): Wrap<ClientRequest> {
  return {
    type: 'wrap',
    name: 'headers',
    async wrap(request, next) {
      const computed = typeof source === 'function' ? await source(request) : source;
      const options = { ...request.options, headers: { ...computed, ...request.options?.headers } };
      return next({ ...request, options });
    },
  };
}
