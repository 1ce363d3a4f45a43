import type { Params } from '../jsonrpc/index.js';
import type { RequestMap } from '../protocol/types/method-map.js';
import type { Interceptor, Wrap } from '../session/interceptors.js';
import type { ServerContext } from './server-context.js';

/** The methods whose handlers middleware wraps. */
export type MiddlewareMethod =
  | 'tools/list'
  | 'tools/call'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'prompts/list'
  | 'prompts/get'
  | 'completion/complete'
  | 'subscriptions/listen';

/**
 * One incoming request as middleware sees it: a union over the methods, so checking
 * `method` narrows `params` to that method's params. The params are as the client sent
 * them: the handler checks them after the middleware, so every field may be missing
 * (hence `Partial`) and a hostile client may send the wrong type; check before relying
 * on a value for a security decision.
 *
 * @example
 * ```ts
 * server.use((request, next) => {
 *   if (request.method === 'tools/call' && request.params.name === 'delete_everything') {
 *     throw new WireError(-32001, 'Not allowed');
 *   }
 *   return next();
 * });
 * ```
 */
export type MiddlewareRequest = {
  [M in MiddlewareMethod]: {
    readonly method: M;
    readonly params: Readonly<Partial<NonNullable<RequestMap[M]['params']>>> & Params;
    readonly ctx: ServerContext;
  };
}[MiddlewareMethod];

/**
 * A layer of the onion around every request the server's handlers serve (lists, calls,
 * reads, completion; the engine's own initialize, ping and discover are not wrapped).
 * Call `next()` to go inward; return or throw to answer without it.
 *
 * @example
 * ```ts
 * server.use(async ({ method }, next) => {
 *   const started = performance.now();
 *   try { return await next(); }
 *   finally { console.error(method, performance.now() - started, 'ms'); }
 * });
 * ```
 */
export type Middleware = (request: MiddlewareRequest, next: () => Promise<unknown>) => unknown;

/**
 * An interceptor on the server (see {@link Interceptor}): a validator, a mutator or a wrap
 * over the requests the server's handlers serve. A plain {@link Middleware} function is the
 * simple form, a wrap.
 *
 * @example
 * ```ts
 * const readOnly: ServerInterceptor = {
 *   type: 'validation',
 *   name: 'read-only',
 *   events: ['tools/call'],
 *   phases: ['request'],
 *   validate: (params) => (params as { name?: unknown }).name !== 'delete_everything',
 * };
 * server.use(readOnly);
 * ```
 */
export type ServerInterceptor = Interceptor<MiddlewareRequest>;

/** A middleware function as the wrap interceptor it is. */
export function middlewareWrap(middleware: Middleware): Wrap<MiddlewareRequest> {
  // Middleware's `next()` takes no argument, so the request goes inward unchanged.
  return { type: 'wrap', name: middleware.name || 'middleware', wrap: middleware };
}
