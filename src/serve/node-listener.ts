// The Node listener: one node:http request bound to the HTTP core (node-exchange.ts), after
// the optional authenticator; the timeouts are the server's (timeouts.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpHttpHandler } from '../transports/http-server/index.js';
import type { McpConnector, McpHttpOptions } from '../transports/http-server/index.js';
import { attachAuthentication } from '../transports/http-server/request-authorizer.js';
import { NodeExchange } from './node-exchange.js';
import { timeoutsChecked, warnAboutTimeouts } from './timeouts.js';

/**
 * Optional hook that authenticates a request before MCP sees it (see the auth module): it
 * answers and returns false, or returns the principal, or an `Authentication` (the
 * principal plus an authorizer the handler asks once the body is parsed). It runs after the
 * Host and Origin checks.
 */
export type NodeAuthenticator = (
  req: IncomingMessage,
  res: ServerResponse,
) => Promise<unknown | false> | unknown | false;

/**
 * A `(req, res)` listener for node:http, and through it Express, Fastify (raw) or anything
 * else that exposes Node's request and response.
 *
 * The server is yours, and so are its timeouts: `serve()` sets `headersTimeout` 10 s,
 * `requestTimeout` 30 s, a 1 s `connectionsCheckingInterval` and a listen backlog of 4096;
 * Node's own defaults (60 s, 300 s, checked every 30 s, backlog 511) let a slow-drip or
 * silent client hold a connection for up to 90 s, and leave a burst of connections beyond
 * the backlog waiting in the kernel, unseen. Set them on your server (see RELIABILITY.md)
 * when it faces untrusted clients.
 *
 * @example
 * ```ts
 * const { listener } = nodeListener(server);
 * http.createServer(listener).listen(3000, '127.0.0.1');
 * ```
 */
export function nodeListener(
  connector: McpConnector,
  options: McpHttpOptions & { authenticate?: NodeAuthenticator } = {},
): {
  /**
   * Serves one request. `body` is the request body when a framework's parser has already
   * read it from `req` (Express's `express.json()`): it gets the same size limit and checks.
   */
  listener: (req: IncomingMessage, res: ServerResponse, body?: string | Uint8Array) => void;
  handler: McpHttpHandler;
} {
  const handler = new McpHttpHandler(connector, options);
  const authenticate = options.authenticate;
  const drainLimit = 2 * (options.maxBodyBytes ?? 4 * 1024 * 1024);
  const maxStreamBuffer = options.maxStreamBufferBytes ?? 4 * 1024 * 1024;
  const listener = (req: IncomingMessage, res: ServerResponse, body?: string | Uint8Array): void => {
    const ex = new NodeExchange(req, res, drainLimit, maxStreamBuffer, body);
    if (!timeoutsChecked.done) warnAboutTimeouts(req);
    // The Server Card and catalog are public: no authentication.
    if (!authenticate || handler.isPublicPath(ex.path)) {
      void handler.handle(ex);
      return;
    }
    // DNS rebinding first: a foreign Host or Origin gets 403 whether or not it has a token.
    if (!handler.admit(ex)) return;
    void (async () => {
      const auth = await authenticate(req, res);
      if (auth === false) return; // The authenticator has answered (401/403).
      attachAuthentication(ex, auth);
      await handler.handle(ex);
    })();
  };
  return { listener, handler };
}
