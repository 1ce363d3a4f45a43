// The slow-client timeout policy of a Node HTTP server: what serve() sets on its own server,
// and the warning nodeListener gives once when the user's server keeps Node's defaults.
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Time to receive the request headers, and the whole request, when the options name none. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * An http.Server that times out slow and silent clients: `headersTimeout` (never longer than
 * `requestTimeout`) and `requestTimeout` checked often enough to matter, and a connection that
 * never starts a request dropped after `headersTimeout`.
 */
export async function createTimedServer(
  listener: RequestListener,
  options: { headersTimeoutMs?: number; requestTimeoutMs?: number } = {},
): Promise<Server> {
  // Loaded here, not with the module: importing the HTTP server entry does not load node:http
  // (about 4 ms); serve() is its first user.
  const { createServer } = await import('node:http');
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  // Node checks both timeouts only every connectionsCheckingInterval (default 30 s), which
  // would let a slow-drip client hold a request open far longer than requestTimeout.
  // Node times nothing out before a connection's first byte: a silent (half-open) socket
  // would be held forever. It gets headersTimeout to start a request; its first request
  // clears that (Node's keepAliveTimeout takes over between requests, and Node itself
  // clears that one when the next request comes).
  const httpServer = createServer(
    { connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 2))) },
    (req, res) => {
      if (req.socket.timeout) req.socket.setTimeout(0);
      listener(req, res);
    },
  );
  httpServer.headersTimeout = headersTimeout;
  httpServer.requestTimeout = requestTimeout;
  httpServer.on('connection', (socket: Socket) => socket.setTimeout(headersTimeout, () => socket.destroy()));
  return httpServer;
}

/** Whether the warning below has had its one look (the listener reads it: no call per request). */
export const timeoutsChecked = { done: false };

/** Once per process: says so when the user's own server keeps Node's lax slow-client timeouts. */
export function warnAboutTimeouts(req: IncomingMessage): void {
  if (timeoutsChecked.done) return;
  timeoutsChecked.done = true;
  const server = (req.socket as { server?: Server }).server;
  if (server && server.requestTimeout === 300_000 && server.headersTimeout === 60_000) {
    console.error(
      "[mcpkit] nodeListener: this http.Server keeps Node's default timeouts (headers 60 s, " +
        'request 300 s); set server.headersTimeout and server.requestTimeout (serve() uses 10 s and 30 s) ' +
        'so slow clients cannot hold connections open',
    );
  }
}
