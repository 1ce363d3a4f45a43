/**
 * `mcpkit/next`: an MCP endpoint as Next.js App Router route handlers. Each handler is the
 * fetch handler itself, so the same Host and Origin checks, body limit, sessions, streams and
 * auth hold as for `fetchHandler`. Next is not imported.
 */
import { fetchHandler } from '../transports/http-server/fetch-adapter.js';
import type { McpHttpHandler } from '../transports/http-server/mcp-http-handler.js';
import type { McpConnector } from '../transports/http-server/respond.js';
import { oneAuth } from './adapter-options.js';
import type { AdapterOptions } from './adapter-options.js';
import type { FetchAuthenticator } from './hono.js';

/** Options of {@link mcpNext}. */
export interface McpNextOptions extends AdapterOptions {
  /** A hand-written auth hook, as for `fetchHandler`; `auth` is the usual choice. */
  authenticate?: FetchAuthenticator;
}

/** A route handler of the App Router. */
export type RouteHandler = (request: Request) => Promise<Response>;

/** The route handlers of an MCP endpoint, for a `route.ts` to export. */
export interface McpRouteHandlers {
  GET: RouteHandler;
  POST: RouteHandler;
  DELETE: RouteHandler;
  OPTIONS: RouteHandler;
  /** The HTTP core, made on the first request (undefined before). */
  readonly handler: McpHttpHandler | undefined;
  /** Closes every session. */
  close(): Promise<void>;
}

/**
 * Route handlers for an MCP endpoint in a Next.js app (`app/mcp/route.ts`). The core is made
 * on the first request, not when Next loads the module while building. Host and Origin are
 * checked as for a server bound to 127.0.0.1: a deployment lists its host names in
 * `allowedHosts`. Legacy sessions live in this process; on a serverless platform, where
 * requests land on many instances, share them through `stores` or serve the stateless
 * modern era. For the deprecated HTTP+SSE transport, export the same handlers from
 * `app/sse/route.ts` and `app/messages/route.ts`.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpkit';
 * import { mcpNext } from 'mcpkit/next';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const routes = mcpNext(server, { allowedHosts: ['localhost', 'mcp.example.com'] });
 * // app/mcp/route.ts exports them: export const { GET, POST, DELETE } = routes;
 * const { GET, POST, DELETE } = routes;
 * ```
 */
export function mcpNext(connector: McpConnector, options: McpNextOptions = {}): McpRouteHandlers {
  const authenticate = oneAuth<FetchAuthenticator>(options.auth?.fetch, options.authenticate);
  let made: ReturnType<typeof fetchHandler> | undefined;
  const handle: RouteHandler = (request) => {
    made ??= fetchHandler(connector, { ...options, ...(authenticate ? { authenticate } : {}) });
    return made.fetch(request);
  };
  return {
    GET: handle,
    POST: handle,
    DELETE: handle,
    OPTIONS: handle,
    get handler() {
      return made?.handler;
    },
    close: async () => {
      await made?.handler.close();
    },
  };
}
