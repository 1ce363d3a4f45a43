/**
 * What the framework adapters share: their options, and the paths an adapter answers inside
 * an application that serves other routes too. Each adapter is a thin translation to the
 * HTTP core, so the core's defaults (Host and Origin checks for a loopback server, the body
 * limit, sessions) hold whatever framework is in front.
 */
import type { BearerAuth } from '../auth/server/bearer-auth.js';
import { LocalError } from '../jsonrpc/index.js';
import type { McpHttpOptions } from '../transports/http-server/mcp-http-handler.js';

/** The options every adapter takes: the HTTP core's, and bearer-token auth. */
export interface AdapterOptions extends McpHttpOptions {
  /**
   * Protects the endpoint with OAuth access tokens, as made by `bearerAuth` (from
   * `mcpkit/auth`): every request to the adapter's paths is checked (401 with a challenge
   * without a valid token), after the Host and Origin checks, and the protected resource
   * metadata is served at its path-inserted URL (`auth.metadataUrl`).
   */
  auth?: Pick<BearerAuth, 'node' | 'fetch' | 'metadataUrl'>;
}

/**
 * The paths an adapter answers, as the client addresses them: the MCP endpoint, the
 * deprecated HTTP+SSE endpoints unless turned off, the resource metadata with `auth`, and
 * the Server Card and AI Catalog with `serverCard`.
 * Every other path is the application's.
 */
export function ownedPaths(options: AdapterOptions): ReadonlySet<string> {
  const paths = new Set([options.path ?? '/mcp']);
  const sse =
    options.legacySse === undefined ? { ssePath: '/sse', messagesPath: '/messages' } : options.legacySse;
  if (sse) paths.add(sse.ssePath).add(sse.messagesPath);
  if (options.auth) paths.add(new URL(options.auth.metadataUrl).pathname);
  if (options.serverCard !== undefined && options.serverCard !== false) {
    paths.add(`${(options.path ?? '/mcp').replace(/\/$/, '')}/server-card`);
    if (options.serverCard === true || options.serverCard.catalog !== false)
      paths.add('/.well-known/ai-catalog.json');
  }
  return paths;
}

/** The path of a request target (`/mcp?x=1` → `/mcp`). */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** `auth` and a hand-written `authenticate` are two answers to one question: take one. */
export function oneAuth<H>(auth: H | undefined, authenticate: H | undefined): H | undefined {
  if (auth !== undefined && authenticate !== undefined) {
    throw new LocalError('InvalidConfiguration', 'Pass either auth or authenticate, not both');
  }
  return auth ?? authenticate;
}
