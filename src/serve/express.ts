/**
 * `mcpkit/express`: an MCP endpoint as Express middleware. It hands the request to the Node
 * listener, so Express adds nothing and takes nothing away: the same Host and Origin checks,
 * body limit, sessions, streams and auth as `serve()`. Express is not imported.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHttpHandler } from '../transports/http-server/mcp-http-handler.js';
import { nodeListener } from './node-listener.js';
import type { NodeAuthenticator } from './node-listener.js';
import type { McpConnector } from '../transports/http-server/respond.js';
import { oneAuth, ownedPaths, pathOf } from './adapter-options.js';
import type { AdapterOptions } from './adapter-options.js';

/** Options of {@link mcpExpress}. */
export interface McpExpressOptions extends AdapterOptions {
  /** A hand-written auth hook, as for `serve()`; `auth` is the usual choice. */
  authenticate?: NodeAuthenticator;
}

/** An Express request as the middleware reads it (structural: no dependency on Express's types). */
export interface ExpressRequestLike extends IncomingMessage {
  /** The URL as the client sent it; Express strips a mount path from `url`. */
  originalUrl?: string;
  /** What a body parser (`express.json()`...) made of the body, when one ran first. */
  body?: unknown;
}

/** The middleware, with the handler behind it. */
export interface McpExpressMiddleware {
  (req: ExpressRequestLike, res: ServerResponse, next: (error?: unknown) => void): void;
  /** The HTTP core (its live session count, for instance). */
  readonly handler: McpHttpHandler;
  /** Closes every session; call it when the app shuts down. */
  close(): Promise<void>;
}

/**
 * Serves an MCP server from an Express app, at `/mcp` (and the deprecated `/sse` and
 * `/messages` unless `legacySse: null`); every other path goes on to the app's own routes.
 * Host and Origin are checked as for a server bound to 127.0.0.1 unless `bindHost` or
 * `allowedHosts` say otherwise. Mount it before any body parser: a body `express.json()`
 * already read is still held to `maxBodyBytes`, but only after that parser's own limit and
 * errors. Paths are matched as the client sent them, wherever the middleware is mounted.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { McpServer } from 'mcpkit';
 * import { mcpExpress } from 'mcpkit/express';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const app = express();
 * app.use(mcpExpress(server));
 * const listener = app.listen(3000, '127.0.0.1');
 * listener.headersTimeout = 10_000;
 * listener.requestTimeout = 30_000;
 * ```
 */
export function mcpExpress(connector: McpConnector, options: McpExpressOptions = {}): McpExpressMiddleware {
  const authenticate = oneAuth<NodeAuthenticator>(options.auth?.node, options.authenticate);
  const { listener, handler } = nodeListener(connector, {
    ...options,
    ...(authenticate ? { authenticate } : {}),
  });
  const owned = ownedPaths(options);
  const middleware = (
    req: ExpressRequestLike,
    res: ServerResponse,
    next: (error?: unknown) => void,
  ): void => {
    const target = req.originalUrl ?? req.url ?? '/';
    if (!owned.has(pathOf(target))) return next();
    // The core and the auth layer read req.url: give them the path the client addressed.
    req.url = target;
    listener(req, res, req.readableEnded ? bodyOf(req.body) : undefined);
  };
  return Object.assign(middleware, { handler, close: () => handler.close() });
}

/** The body a parser already read, as text again (a parsed JSON value is serialized back). */
function bodyOf(parsed: unknown): string | Uint8Array {
  if (typeof parsed === 'string' || parsed instanceof Uint8Array) return parsed;
  return parsed === undefined ? '' : JSON.stringify(parsed);
}
