import type { Params } from '../jsonrpc/index.js';
import type { RequestMap } from '../protocol/types/method-map.js';
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

/** Runs `inner` through the middleware chain, outermost first. */
export function runMiddleware(
  chain: readonly Middleware[],
  request: MiddlewareRequest,
  inner: () => unknown,
): Promise<unknown> {
  const step = (i: number): Promise<unknown> => {
    if (i === chain.length) return Promise.resolve().then(inner);
    let called = false;
    return Promise.resolve(
      chain[i]!(request, () => {
        if (called) return Promise.reject(new Error('next() called twice'));
        called = true;
        return step(i + 1);
      }),
    );
  };
  return step(0);
}
