// serve(): an MCP server on its own node:http server, in one call: the Node listener, the
// slow-client timeouts and, when asked, the Redis stores, composed.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpConnector, McpHttpHandler, McpHttpOptions } from '../transports/http-server/index.js';
import type { RedisStoresOptions } from '../stores/redis/redis-options.js';
import { nodeListener } from './node-listener.js';
import type { NodeAuthenticator } from './node-listener.js';
import { storesFor } from './redis-wiring.js';
import { createTimedServer } from './timeouts.js';

export interface ServeOptions extends McpHttpOptions {
  /** Port to listen on; 0 picks a free one (default 0). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: loopback only). */
  host?: string;
  authenticate?: NodeAuthenticator;
  /** Time to receive the request headers (default 10 s) and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * Connections the kernel may hold before they are accepted (default 4096, capped by the
   * system's `somaxconn`). Node's default of 511 let a burst of thousands of connections
   * overflow: the rest stayed in the kernel, unseen and so untimed, for up to a minute.
   */
  backlog?: number;
  /**
   * Runs this node as one of many behind a load balancer, with Redis holding the shared
   * state: a `redis://` URL or the options of `connectRedisStores`. Start-up fails when
   * Redis cannot be reached. The optional `ioredis` package is loaded only then.
   */
  redis?: string | RedisStoresOptions;
}

/** A running MCP HTTP server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly httpServer: Server;
  readonly handler: McpHttpHandler;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Serves an MCP server over Streamable HTTP (both eras) and legacy HTTP+SSE, in one call.
 * Binds to 127.0.0.1 by default, with Host and Origin checks on.
 *
 * @example
 * ```ts
 * const running = await serve(server, { port: 3000 });
 * console.error(`MCP endpoint: ${running.url}`);
 * ```
 */
export async function serve(connector: McpConnector, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const { stores, own: ownStores } = await storesFor(options);
  const { listener, handler } = nodeListener(connector, {
    ...options,
    bindHost: host,
    ...(stores ? { stores } : {}),
  });
  const httpServer = await createTimedServer(listener, options);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (e) => {
      void handler.close().then(() => ownStores?.close());
      reject(e);
    });
    httpServer.listen({ port: options.port ?? 0, host, backlog: options.backlog ?? 4096 }, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const close = async (): Promise<void> => {
    await handler.close();
    httpServer.closeAllConnections?.();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    await ownStores?.close();
  };
  return {
    url: `http://${shownHost}:${port}${options.path ?? '/mcp'}`,
    port,
    httpServer,
    handler,
    close,
    [Symbol.asyncDispose]: close,
  };
}
