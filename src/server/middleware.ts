import type { Params } from '../jsonrpc/index.js';
import type { ServerContext } from './server-context.js';

/** One incoming request as middleware sees it. */
export interface MiddlewareRequest {
  readonly method: string;
  readonly params: Params;
  readonly ctx: ServerContext;
}

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
