/**
 * `mcpkit/hono`: an MCP endpoint as Hono middleware. It hands the web `Request` to the fetch
 * handler, so it runs wherever Hono does (Node, Bun, Deno, workers) with the same Host and
 * Origin checks, body limit, sessions, streams and auth as `fetchHandler`. Hono is
 * imported for its types only.
 */
import type { MiddlewareHandler } from 'hono';
import { fetchHandler } from '../transports/http-server/fetch-adapter.js';
import type { McpHttpHandler } from '../transports/http-server/mcp-http-handler.js';
import type { McpConnector } from '../transports/http-server/respond.js';
import { oneAuth, ownedPaths } from './adapter-options.js';
import type { AdapterOptions } from './adapter-options.js';

/** A fetch-style auth hook: a `Response` to answer, or the principal (or an `Authentication`). */
export type FetchAuthenticator = (request: Request) => Promise<unknown> | unknown;

/** Options of {@link mcpHono}. */
export interface McpHonoOptions extends AdapterOptions {
  /** A hand-written auth hook, as for `fetchHandler`; `auth` is the usual choice. */
  authenticate?: FetchAuthenticator;
}

/** The middleware, with the handler behind it. */
export type McpHonoMiddleware = MiddlewareHandler & {
  /** The HTTP core (its live session count, for instance). */
  readonly handler: McpHttpHandler;
  /** Closes every session; call it when the app shuts down. */
  close(): Promise<void>;
};

/**
 * Serves an MCP server from a Hono app, at `/mcp` (and the deprecated `/sse` and `/messages`
 * unless `legacySse: null`); every other path goes on to the app's own routes. Host and
 * Origin are checked as for a server bound to 127.0.0.1 unless `bindHost` or `allowedHosts`
 * say otherwise. A body another middleware already read (`c.req.json()`) is taken from
 * Hono's cache and still held to `maxBodyBytes`.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { serve } from '@hono/node-server';
 * import { McpServer } from 'mcpkit';
 * import { mcpHono } from 'mcpkit/hono';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const app = new Hono();
 * app.use(mcpHono(server));
 * serve({ fetch: app.fetch, port: 3000, hostname: '127.0.0.1' });
 * ```
 */
export function mcpHono(connector: McpConnector, options: McpHonoOptions = {}): McpHonoMiddleware {
  const authenticate = oneAuth<FetchAuthenticator>(options.auth?.fetch, options.authenticate);
  const { fetch, handler } = fetchHandler(connector, {
    ...options,
    ...(authenticate ? { authenticate } : {}),
  });
  const owned = ownedPaths(options);
  const middleware: MiddlewareHandler = async (c, next) => {
    if (!owned.has(c.req.path)) return next();
    let request = c.req.raw;
    if (request.bodyUsed) {
      // Read by an earlier middleware through Hono, which keeps it: the same bytes again.
      const body = await c.req.arrayBuffer();
      request = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
      });
    }
    return fetch(request);
  };
  return Object.assign(middleware, { handler, close: () => handler.close() });
}
