/**
 * The resource-server side: a bearer-token `authenticate` hook for mcpkit's HTTP server
 * (Node listener and fetch handler) that also serves the RFC 9728 protected resource
 * metadata. Browser/worker-safe: Node's request and response are used structurally.
 */
import type { AuthInfo, TokenVerifier } from './auth-info.js';
import { InvalidTokenError } from './auth-info.js';

/** The parts of an HTTP request the bearer layer reads. */
export interface BearerRequest {
  method: string;
  path: string;
  query: string;
  header(name: string): string | undefined;
}

/** RFC 9728 protected resource metadata as served. */
export interface ResourceMetadataDocument {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  [name: string]: unknown;
}

/** Options of {@link createBearerAuth}. */
export interface BearerAuthOptions {
  /** This server's resource identifier: the public URL of the MCP endpoint. */
  resource: string;
  /** The authorization servers whose tokens are accepted (their issuer identifiers). */
  authorizationServers: readonly string[];
  verifier: TokenVerifier;
  /**
   * Scopes a request needs: fixed, or decided per request. Modern-era requests carry
   * `Mcp-Method` and `Mcp-Name` headers to decide on; legacy ones only the path.
   */
  requiredScopes?: readonly string[] | ((request: BearerRequest) => readonly string[]);
  /** Listed in the metadata (the minimal set for basic use; never `offline_access`). */
  scopesSupported?: readonly string[];
  /** Whether a granted scope satisfies a required one (default: equality); for scope hierarchies. */
  satisfies?: (granted: string, required: string) => boolean;
  /** Extra metadata fields (`resource_name`, `resource_documentation`...). */
  metadata?: Record<string, unknown>;
  /** Also serve the metadata at `/.well-known/oauth-protected-resource` (default false). */
  metadataAtRoot?: boolean;
}

/** What the bearer layer decided about one request. */
export type BearerDecision =
  | { kind: 'authenticated'; authInfo: AuthInfo }
  /** Let it through unauthenticated (CORS preflight). */
  | { kind: 'pass' }
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: string };

/** A request as `createNodeListener` passes it (structural, so no node:http import). */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A response as `createNodeListener` passes it. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
}

/** The bearer layer: hooks for both server bindings, and what it serves. */
export interface BearerAuth {
  readonly metadata: ResourceMetadataDocument;
  /** Where the metadata is served (the `resource_metadata` of challenges). */
  readonly metadataUrl: string;
  /** The `authenticate` option of `serve()` and `createNodeListener()`. */
  readonly node: (req: NodeRequestLike, res: NodeResponseLike) => Promise<AuthInfo | false | undefined>;
  /** The `authenticate` option of `createFetchHandler()`. */
  readonly fetch: (request: Request) => Promise<AuthInfo | Response | undefined>;
  /** The decision itself, for other frameworks. */
  check(request: BearerRequest): Promise<BearerDecision>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`;
}

/**
 * A `WWW-Authenticate: Bearer` challenge (RFC 6750 §3, RFC 9728 §5.1).
 *
 * @example
 * ```ts
 * bearerChallenge({ resourceMetadata: 'https://x/.well-known/oauth-protected-resource', scope: 'a b' });
 * // 'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"'
 * ```
 */
export function bearerChallenge(p: {
  resourceMetadata: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}): string {
  const parts = [`resource_metadata=${quoted(p.resourceMetadata)}`];
  if (p.scope) parts.push(`scope=${quoted(p.scope)}`);
  if (p.error) parts.push(`error=${quoted(p.error)}`);
  if (p.errorDescription) parts.push(`error_description=${quoted(p.errorDescription)}`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The path-inserted RFC 9728 metadata URL of a resource.
 *
 * @example
 * ```ts
 * resourceMetadataUrl('https://mcp.example.com/mcp'); // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 * ```
 */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return new URL(`${WELL_KNOWN}${path}`, url.origin).href;
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): BearerDecision {
  return {
    kind: 'respond',
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(body),
  };
}

/**
 * Protects an MCP HTTP endpoint with bearer tokens: serves the protected resource metadata,
 * answers 401 with a `WWW-Authenticate` challenge (`resource_metadata`, `scope`, `error`)
 * when the token is missing or refused, 403 `insufficient_scope` when it lacks a required
 * scope, 400 for a token in the URL. Handlers then read the principal from `ctx.authInfo`;
 * the token itself is removed from the Node request and never reaches them.
 *
 * @example
 * ```ts
 * const auth = createBearerAuth({
 *   resource: 'https://mcp.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   verifier: jwtVerifier({ issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp',
 *     jwksUrl: 'https://auth.example.com/jwks' }),
 *   requiredScopes: ['mcp:use'],
 * });
 * await serve(server, { host: '0.0.0.0', allowedHosts: ['mcp.example.com'], authenticate: auth.node });
 * ```
 */
export function createBearerAuth(options: BearerAuthOptions): BearerAuth {
  const resource = new URL(options.resource);
  if (resource.hash !== '') throw new TypeError('A resource identifier has no fragment');
  if (options.authorizationServers.length === 0)
    throw new TypeError('List at least one authorization server');
  const metadataUrl = resourceMetadataUrl(options.resource);
  const paths = new Set([new URL(metadataUrl).pathname]);
  if (options.metadataAtRoot === true) paths.add(WELL_KNOWN);
  const metadata: ResourceMetadataDocument = {
    ...options.metadata,
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported) metadata.scopes_supported = [...options.scopesSupported];
  const metadataBody = JSON.stringify(metadata);
  const satisfies = options.satisfies ?? ((g: string, r: string) => g === r);

  const required = (req: BearerRequest): readonly string[] => {
    const r = options.requiredScopes;
    return typeof r === 'function' ? r(req) : (r ?? []);
  };
  const challenge = (
    scopes: readonly string[],
    error?: string,
    description?: string,
  ): Record<string, string> => ({
    'www-authenticate': bearerChallenge({
      resourceMetadata: metadataUrl,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
      ...(error ? { error } : {}),
      ...(description ? { errorDescription: description } : {}),
    }),
  });

  async function check(req: BearerRequest): Promise<BearerDecision> {
    const method = req.method.toUpperCase();
    if (paths.has(req.path)) {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };
      if (method === 'OPTIONS') return { kind: 'respond', status: 204, headers: cors, body: '' };
      if (method !== 'GET' && method !== 'HEAD')
        return json(405, { error: 'method_not_allowed' }, { allow: 'GET' });
      const headers = { 'content-type': 'application/json', 'cache-control': 'max-age=300', ...cors };
      return { kind: 'respond', status: 200, headers, body: method === 'HEAD' ? '' : metadataBody };
    }
    if (method === 'OPTIONS') return { kind: 'pass' };
    if (/(?:^|&)access_token=/.test(req.query)) {
      return json(400, {
        error: 'invalid_request',
        error_description: 'Access tokens are not accepted in URLs',
      });
    }
    const scopes = required(req);
    const header = req.header('authorization');
    if (header === undefined || header === '') {
      const body = { error: 'unauthorized', error_description: 'A bearer token is required' };
      return json(401, body, challenge(scopes));
    }
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m) {
      const d = 'The Authorization header must be "Bearer <token>"';
      return json(
        400,
        { error: 'invalid_request', error_description: d },
        challenge(scopes, 'invalid_request', d),
      );
    }
    let info: AuthInfo;
    try {
      info = await options.verifier.verify(m[1]!);
    } catch (e) {
      if (!(e instanceof InvalidTokenError)) {
        return json(503, {
          error: 'temporarily_unavailable',
          error_description: 'The token could not be verified',
        });
      }
      return json(
        401,
        { error: 'invalid_token', error_description: e.message },
        challenge(scopes, 'invalid_token', e.message),
      );
    }
    const missing = scopes.filter((r) => !info.scopes.some((g) => satisfies(g, r)));
    if (missing.length > 0) {
      const d = `This request needs the scope ${scopes.join(' ')}`;
      return json(
        403,
        { error: 'insufficient_scope', error_description: d },
        challenge(scopes, 'insufficient_scope', d),
      );
    }
    return { kind: 'authenticated', authInfo: info };
  }

  const node = async (req: NodeRequestLike, res: NodeResponseLike): Promise<AuthInfo | false | undefined> => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const request: BearerRequest = {
      method: req.method ?? 'GET',
      path: q < 0 ? url : url.slice(0, q),
      query: q < 0 ? '' : url.slice(q + 1),
      header: (name) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      },
    };
    let d: BearerDecision;
    try {
      d = await check(request);
    } catch {
      d = json(500, { error: 'server_error' });
    }
    if (d.kind === 'respond') {
      res.writeHead(d.status, d.headers);
      res.end(d.body);
      return false;
    }
    delete req.headers.authorization;
    return d.kind === 'authenticated' ? d.authInfo : undefined;
  };

  const fetchHook = async (request: Request): Promise<AuthInfo | Response | undefined> => {
    const url = new URL(request.url);
    let d: BearerDecision;
    try {
      d = await check({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        header: (name) => request.headers.get(name) ?? undefined,
      });
    } catch {
      d = json(500, { error: 'server_error' });
    }
    if (d.kind === 'respond') {
      const body = d.status === 204 || d.body === '' ? null : d.body;
      return new Response(body, { status: d.status, headers: d.headers });
    }
    return d.kind === 'authenticated' ? d.authInfo : undefined;
  };

  return { metadata, metadataUrl, node, fetch: fetchHook, check };
}
