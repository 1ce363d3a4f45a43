/**
 * `mcpkit/fastify`: an MCP endpoint as a Fastify plugin. Its routes take the request over
 * in `onRequest`, before Fastify parses the body, and hand Node's request and response to
 * the Node listener: the same Host and Origin checks, body limit, sessions, streams and auth
 * as `serve()`. Fastify is imported for its types only.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { LocalError } from '../jsonrpc/index.js';
import type { McpHttpHandler } from '../transports/http-server/mcp-http-handler.js';
import { nodeListener } from './node-listener.js';
import type { NodeAuthenticator } from './node-listener.js';
import type { McpConnector } from '../transports/http-server/respond.js';
import { oneAuth, ownedPaths } from './adapter-options.js';
import type { AdapterOptions } from './adapter-options.js';

/** Options of {@link mcpFastify}. */
export interface McpFastifyOptions extends AdapterOptions {
  /** A hand-written auth hook, as for `serve()`; `auth` is the usual choice. */
  authenticate?: NodeAuthenticator;
}

/** The plugin, with the handler behind it. */
export type McpFastifyPlugin = FastifyPluginAsync & {
  /** The HTTP core (its live session count, for instance). */
  readonly handler: McpHttpHandler;
  /** Closes every session; the plugin also does when Fastify closes. */
  close(): Promise<void>;
};

let timeoutsChecked = false;

/**
 * Serves an MCP server from a Fastify app, at `/mcp` (and the deprecated `/sse` and
 * `/messages` unless `legacySse: null`). Register it without a `prefix`: set `path` for
 * another endpoint. Host and Origin are checked as for a server bound to 127.0.0.1 unless
 * `bindHost` or `allowedHosts` say otherwise. Fastify's `bodyLimit` does not apply to these
 * routes (their bodies are never parsed by Fastify); `maxBodyBytes` does.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { McpServer } from 'mcpkit';
 * import { mcpFastify } from 'mcpkit/fastify';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const app = Fastify({ requestTimeout: 30_000 });
 * await app.register(mcpFastify(server));
 * await app.listen({ port: 3000, host: '127.0.0.1' });
 * ```
 */
export function mcpFastify(connector: McpConnector, options: McpFastifyOptions = {}): McpFastifyPlugin {
  const authenticate = oneAuth<NodeAuthenticator>(options.auth?.node, options.authenticate);
  const { listener, handler } = nodeListener(connector, {
    ...options,
    ...(authenticate ? { authenticate } : {}),
  });
  const plugin = async (app: FastifyInstance): Promise<void> => {
    if (app.prefix !== '') {
      throw new LocalError(
        'InvalidConfiguration',
        `Register mcpFastify without a prefix (here ${app.prefix}); set its path option instead`,
      );
    }
    warnAboutTimeouts(app);
    app.addHook('onClose', () => handler.close());
    for (const url of ownedPaths(options)) {
      app.all(url, {
        // Taken over before the body is read: Fastify never parses it, the core reads the
        // stream under its own limit. A hijacked reply ends Fastify's part of the request.
        onRequest: (request, reply, done) => {
          reply.hijack();
          listener(request.raw, reply.raw);
          done();
        },
        handler: async () => undefined,
      });
    }
  };
  return Object.assign(plugin, { handler, close: () => handler.close() });
}

/** Once per process: Fastify's default `requestTimeout` is 0, no limit on a slow-drip client. */
function warnAboutTimeouts(app: FastifyInstance): void {
  if (timeoutsChecked || app.server.requestTimeout !== 0) return;
  timeoutsChecked = true;
  console.error(
    '[mcpkit] mcpFastify: this Fastify app has no requestTimeout, so a slow client can hold a ' +
      'connection open; create it with Fastify({ requestTimeout: 30_000 }) as serve() does',
  );
}
