/**
 * The resource-server side: a bearer-token `authenticate` hook for mcpkit's HTTP server
 * (Node listener and fetch handler) that also serves the RFC 9728 protected resource
 * metadata. Browser/worker-safe: Node's request and response are used structurally.
 */
import { Authentication } from '../../transports/http-server/request-authorizer.js';
import type { RequestAuthorizer } from '../../transports/http-server/request-authorizer.js';
import type { AuthInfo, TokenVerifier } from './auth-info.js';
import { InvalidTokenError } from './auth-info.js';
import { DpopProofChecker } from './dpop-proof.js';
import type { DpopOptions } from './dpop-proof.js';
import { scopeAuthorizer, wholeRequest } from './scope-rules.js';

/** The parts of an HTTP request the bearer layer reads. */
export interface BearerRequest {
  /** The HTTP method. */
  method: string;
  path: string;
  query: string;
  /**
   * A request header by lower-case name. For `requiredScopes`, `mcp-method` and `mcp-name`
   * give {@link BearerRequest.mcpMethod} and {@link BearerRequest.mcpName}: what the body
   * says, never the raw header; `mcp-param-*` gives nothing (decide on the tool, not on a
   * header a client writes).
   */
  header(name: string): string | undefined;
  /**
   * The JSON-RPC method of the message being authorized, read from the parsed body (after
   * any `Mcp-Method` header was checked against it). Undefined when the decision is about
   * the HTTP request as a whole: before the body is read, and for GET and DELETE.
   */
  mcpMethod?: string | undefined;
  /** What `Mcp-Name` mirrors, from the body: the tool or prompt name, the resource URI, the task id. */
  mcpName?: string | undefined;
}

/** RFC 9728 protected resource metadata as served. */
export interface ResourceMetadataDocument {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  [name: string]: unknown;
}

/** Options of {@link bearerAuth}. */
export interface BearerAuthOptions {
  /** This server's resource identifier: the public URL of the MCP endpoint. */
  resource: string;
  /** The authorization servers whose tokens are accepted (their issuer identifiers). */
  authorizationServers: readonly string[];
  verifier: TokenVerifier;
  /**
   * Scopes a request needs: fixed, or decided per request. A function is called once for
   * the HTTP request as a whole, without `mcpMethod` (what any request needs: checked before
   * the body is read, and named in the 401 challenge), then, in both eras, once for each
   * message of a POST body, with `mcpMethod` and `mcpName` read from the parsed body. Raw
   * `Mcp-*` headers never decide. Tools may also declare their own scopes (`scopes` on
   * `server.tool`), which are checked here as well.
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
  /**
   * DPoP (RFC 9449). A token bound to a key (`cnf.jkt`) is always held to its proof; these
   * options advertise DPoP in the metadata, can demand bound tokens only, and turn on
   * server nonces.
   */
  dpop?: DpopOptions;
}

/** What the bearer layer decided about one request. */
export type BearerDecision =
  /** Authenticated: the principal, and the authorizer to ask once the body is parsed. */
  | { kind: 'authenticated'; authInfo: AuthInfo; authorizer: RequestAuthorizer }
  /** Let it through unauthenticated (CORS preflight). */
  | { kind: 'pass' }
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: string };

/** A request as `nodeListener` passes it (structural, so no node:http import). */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  /** Node's name, value, name, value... list, which also holds the token until it is removed. */
  rawHeaders?: string[];
}

/** A response as `nodeListener` passes it. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
}

/**
 * Removes the credentials (`Authorization`, `DPoP`) from a Node request, from its parsed
 * headers and from `rawHeaders`, so that no handler behind the auth layer can read them.
 */
export function removeCredentials(req: NodeRequestLike): void {
  delete req.headers.authorization;
  delete req.headers.dpop;
  const raw = req.rawHeaders;
  if (raw) {
    for (let i = raw.length - 2; i >= 0; i -= 2) {
      if (CREDENTIAL_HEADERS.has(raw[i]!.toLowerCase())) raw.splice(i, 2);
    }
  }
}

/** The bearer layer: hooks for both server bindings, and what it serves. */
export interface BearerAuth {
  readonly metadata: ResourceMetadataDocument;
  /** Where the metadata is served (the `resource_metadata` of challenges). */
  readonly metadataUrl: string;
  /**
   * The `authenticate` option of `serve()` and `nodeListener()`: answers and returns
   * false, or returns the principal with its authorizer (undefined for a CORS preflight).
   */
  readonly node: (
    req: NodeRequestLike,
    res: NodeResponseLike,
  ) => Promise<Authentication<AuthInfo> | false | undefined>;
  /** The `authenticate` option of `fetchHandler()`. */
  readonly fetch: (request: Request) => Promise<Authentication<AuthInfo> | Response | undefined>;
  /**
   * The decision itself, for other frameworks. Per-message scopes are the authorizer's to
   * decide, once the body is parsed: call its `authorize` with the calls of the body.
   */
  check(request: BearerRequest): Promise<BearerDecision>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`;
}

/**
 * A `WWW-Authenticate` challenge (RFC 6750 §3, RFC 9728 §5.1): `Bearer` by default, or
 * `DPoP` (RFC 9449 §7.1) with the accepted proof algorithms.
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
  scheme?: 'Bearer' | 'DPoP';
  /** `DPoP` only: the proof algorithms accepted, space-separated. */
  algs?: string;
}): string {
  const parts = [`resource_metadata=${quoted(p.resourceMetadata)}`];
  if (p.scheme === 'DPoP' && p.algs) parts.unshift(`algs=${quoted(p.algs)}`);
  if (p.scope) parts.push(`scope=${quoted(p.scope)}`);
  if (p.error) parts.push(`error=${quoted(p.error)}`);
  if (p.errorDescription) parts.push(`error_description=${quoted(p.errorDescription)}`);
  return `${p.scheme ?? 'Bearer'} ${parts.join(', ')}`;
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

function json(
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): BearerDecision & { kind: 'respond' } {
  return {
    kind: 'respond',
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(body),
  };
}

/** Headers that carry credentials: taken off the Node request once checked. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'dpop']);

/** The token of an `Authorization: Bearer` or `Authorization: DPoP` header (RFC 6750 §2.1, RFC 9449 §7.1). */
const AUTHORIZATION = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The key a token is bound to: `cnf.jkt`; null for a confirmation this server cannot check. */
function boundKey(info: AuthInfo): string | null | undefined {
  const cnf = info.claims.cnf;
  if (cnf === undefined) return undefined;
  if (typeof cnf !== 'object' || cnf === null) return null;
  const jkt = (cnf as Record<string, unknown>).jkt;
  return typeof jkt === 'string' && jkt !== '' ? jkt : null;
}

/**
 * Protects an MCP HTTP endpoint with OAuth access tokens: serves the protected resource
 * metadata, answers 401 with a `WWW-Authenticate` challenge (`resource_metadata`, `scope`,
 * `error`) when the token is missing or refused, 400 for a token in the URL. A DPoP-bound
 * token (`cnf.jkt`) is accepted only as `Authorization: DPoP` with a valid proof of its key.
 * Scopes are decided in one place: what the whole request needs up front, then each message
 * of the parsed body (its method and name from the body, in both eras, and the scopes its
 * tool declares), answered 403 `insufficient_scope` naming every scope the request needs.
 * Handlers read the principal from `ctx.authInfo`; the token itself is removed from the Node
 * request and never reaches them.
 *
 * @example
 * ```ts
 * const auth = bearerAuth({
 *   resource: 'https://mcp.example.com/mcp',
 *   authorizationServers: ['https://auth.example.com'],
 *   verifier: jwtVerifier({ issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp',
 *     jwksUrl: 'https://auth.example.com/jwks' }),
 *   requiredScopes: ['mcp:use'],
 * });
 * await serve(server, { host: '0.0.0.0', allowedHosts: ['mcp.example.com'], authenticate: auth.node });
 * ```
 */
export function bearerAuth(options: BearerAuthOptions): BearerAuth {
  const resource = new URL(options.resource);
  if (resource.hash !== '') throw new TypeError('A resource identifier has no fragment');
  if (options.authorizationServers.length === 0)
    throw new TypeError('List at least one authorization server');
  const metadataUrl = resourceMetadataUrl(options.resource);
  const paths = new Set([new URL(metadataUrl).pathname]);
  if (options.metadataAtRoot === true) paths.add(WELL_KNOWN);
  const dpop = new DpopProofChecker(options.dpop);
  const metadata: ResourceMetadataDocument = {
    ...options.metadata,
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported) metadata.scopes_supported = [...options.scopesSupported];
  if (options.dpop) {
    metadata.dpop_signing_alg_values_supported = [...dpop.algorithms];
    if (dpop.required) metadata.dpop_bound_access_tokens_required = true;
  }
  const metadataBody = JSON.stringify(metadata);
  const satisfies = options.satisfies ?? ((g: string, r: string) => g === r);
  const rule = options.requiredScopes;

  const challenge = (
    scheme: 'Bearer' | 'DPoP',
    scopes: readonly string[],
    error?: string,
    description?: string,
  ): Record<string, string> => ({
    'www-authenticate': bearerChallenge({
      scheme,
      resourceMetadata: metadataUrl,
      ...(scheme === 'DPoP' ? { algs: dpop.algorithms.join(' ') } : {}),
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
      ...(error ? { error } : {}),
      ...(description ? { errorDescription: description } : {}),
    }),
  });
  const refused = (
    status: number,
    scheme: 'Bearer' | 'DPoP',
    scopes: readonly string[],
    error: string,
    description: string,
    extra: Record<string, string> = {},
  ) =>
    json(
      status,
      { error, error_description: description },
      { ...challenge(scheme, scopes, error, description), ...extra },
    );
  const insufficient = (scheme: 'Bearer' | 'DPoP', scopes: readonly string[]) =>
    refused(403, scheme, scopes, 'insufficient_scope', `This request needs the scope ${scopes.join(' ')}`);

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
    // What the request as a whole needs; the messages of a POST body are decided later.
    const base = typeof rule === 'function' ? rule(wholeRequest(req)) : (rule ?? []);
    const expected = dpop.required ? 'DPoP' : 'Bearer';
    const header = req.header('authorization');
    if (header === undefined || header === '') {
      const d = dpop.required ? 'A DPoP-bound access token is required' : 'A bearer token is required';
      return json(401, { error: 'unauthorized', error_description: d }, challenge(expected, base));
    }
    const m = AUTHORIZATION.exec(header);
    if (!m) {
      const d = 'The Authorization header must be "Bearer <token>" or "DPoP <token>"';
      return refused(400, expected, base, 'invalid_request', d);
    }
    const scheme = m[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
    const token = m[2]!;
    let info: AuthInfo;
    try {
      info = await options.verifier.verify(token);
    } catch (e) {
      if (!(e instanceof InvalidTokenError)) {
        return json(503, {
          error: 'temporarily_unavailable',
          error_description: 'The token could not be verified',
        });
      }
      return refused(401, scheme, base, 'invalid_token', e.message);
    }
    // The sender constraint: a bound token proves its key on every request (RFC 9449 §7).
    const jkt = boundKey(info);
    if (jkt === null) {
      const d = 'The token is bound to a confirmation method this server cannot check';
      return refused(401, scheme, base, 'invalid_token', d);
    }
    if (jkt !== undefined) {
      if (scheme !== 'DPoP') {
        const d = 'The token is bound to a DPoP key: send it as "DPoP <token>" with a proof';
        return refused(401, 'DPoP', base, 'invalid_token', d);
      }
      // The URL the client addressed: this server's public origin, and the path it asked for.
      const url = `${resource.origin}${req.path}`;
      const failed = await dpop.check({ proof: req.header('dpop'), method, url, token, jkt });
      if (failed) {
        const nonce: Record<string, string> = failed.nonce ? { 'dpop-nonce': failed.nonce } : {};
        return refused(401, 'DPoP', base, failed.error, failed.description, nonce);
      }
    } else if (scheme === 'DPoP') {
      return refused(401, 'DPoP', base, 'invalid_token', 'The token is not bound to a DPoP key');
    } else if (dpop.required) {
      return refused(401, 'DPoP', base, 'invalid_token', 'This server accepts DPoP-bound tokens only');
    }
    if (base.some((r) => !info.scopes.some((g) => satisfies(g, r)))) return insufficient(scheme, base);
    const authorizer = scopeAuthorizer(req, info, { rule, base, satisfies }, (scopes) =>
      insufficient(scheme, scopes),
    );
    return { kind: 'authenticated', authInfo: info, authorizer };
  }

  const node = async (
    req: NodeRequestLike,
    res: NodeResponseLike,
  ): Promise<Authentication<AuthInfo> | false | undefined> => {
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
    removeCredentials(req);
    return d.kind === 'authenticated' ? new Authentication(d.authInfo, d.authorizer) : undefined;
  };

  const fetchHook = async (request: Request): Promise<Authentication<AuthInfo> | Response | undefined> => {
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
    return d.kind === 'authenticated' ? new Authentication(d.authInfo, d.authorizer) : undefined;
  };

  return { metadata, metadataUrl, node, fetch: fetchHook, check };
}
