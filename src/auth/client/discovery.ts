/**
 * Finding the authorization server of an MCP server: RFC 9728 protected resource metadata
 * (the `resource_metadata` pointer, then the path-inserted and root well-known URLs), then
 * RFC 8414 / OpenID Connect discovery in the order the MCP specification gives, then the
 * 2025-03-26 fallbacks when the server publishes no resource metadata at all.
 */
import { JSON_ATTRIBUTE_COMPARISON, processDiscoveryResponse } from 'oauth4webapi';
import type { AuthorizationServer } from 'oauth4webapi';
import { AuthError } from '../errors.js';
import type { GuardedFetch } from './guarded-fetch.js';
import { checkFetchUrl, shownUrl } from './network-policy.js';
import type { BearerChallenge } from './www-authenticate.js';

/** RFC 9728 protected resource metadata, as far as an MCP client reads it. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [name: string]: unknown;
}

/** Everything discovery learned. */
export interface Discovery {
  /** The RFC 8707 `resource` value for authorization and token requests. */
  resource: string;
  /** The protected resource metadata, absent for a 2025-03-26 server. */
  resourceMetadata?: ProtectedResourceMetadata;
  /** The validated authorization server metadata (synthesized when there is none). */
  as: AuthorizationServer;
  /** `none`: current spec; `metadata`: no PRM, AS metadata at the server's origin; `defaults`: no metadata at all. */
  legacy: 'none' | 'metadata' | 'defaults';
}

/** What discovery may do. */
export interface DiscoveryOptions {
  /** Use the 2025-03-26 fallbacks when no protected resource metadata exists (default true). */
  legacyFallbacks?: boolean;
  /** Picks one of several authorization servers (default: the preferred issuer, else the first). */
  selectAuthorizationServer?: (issuers: readonly string[]) => string;
  /** Issuers to pick first when listed (those pre-registered credentials belong to). */
  preferIssuers?: readonly string[];
}

/**
 * The canonical URI of an MCP server (RFC 8707 §2): no fragment, lowercase scheme and host,
 * and no trailing slash on an empty path.
 *
 * @example
 * ```ts
 * canonicalResourceUri(new URL('HTTPS://MCP.example.com/')); // 'https://mcp.example.com'
 * ```
 */
export function canonicalResourceUri(url: URL): string {
  const u = new URL(url);
  u.hash = '';
  const s = u.href;
  return u.pathname === '/' && u.search === '' ? s.slice(0, -1) : s;
}

/**
 * Whether protected resource metadata naming `resource` may describe the server at
 * `serverUrl` (RFC 9728 §3.3): `resource` must be the server's own URL, compared as
 * canonical URIs (case of scheme and host, a trailing slash). A parent path is another
 * resource, and refused: a token for it would be good at every server beneath it. The one
 * other value is the origin, for a document found at the origin's root well-known URL
 * (`rootWellKnown`): that URL is the metadata location of the origin itself.
 *
 * @example
 * ```ts
 * resourceMatches('https://mcp.example.com/mcp', new URL('https://mcp.example.com/mcp')); // true
 * resourceMatches('https://mcp.example.com/api', new URL('https://mcp.example.com/api/mcp')); // false
 * resourceMatches('https://mcp.example.com', new URL('https://mcp.example.com/mcp'), { rootWellKnown: true }); // true
 * ```
 */
export function resourceMatches(
  resource: string,
  serverUrl: URL,
  found: { rootWellKnown?: boolean } = {},
): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.hash !== '' || r.origin !== serverUrl.origin) return false;
  const rp = r.pathname.replace(/\/$/, '');
  if (rp === serverUrl.pathname.replace(/\/$/, '') && r.search === serverUrl.search) return true;
  return found.rootWellKnown === true && rp === '' && r.search === '';
}

/**
 * RFC 9728 §3.1 well-known URLs for a resource: path-inserted first, then the root.
 *
 * @example
 * ```ts
 * protectedResourceMetadataUrls(new URL('https://example.com/public/mcp')).map(String);
 * // ['https://example.com/.well-known/oauth-protected-resource/public/mcp',
 * //  'https://example.com/.well-known/oauth-protected-resource']
 * ```
 */
export function protectedResourceMetadataUrls(serverUrl: URL): URL[] {
  const path = serverUrl.pathname.replace(/\/$/, '');
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl);
  return path === '' ? [root] : [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl), root];
}

/**
 * Authorization server metadata URLs in the MCP specification's order: for an issuer with
 * a path, RFC 8414 path-inserted, OIDC path-inserted, OIDC path-appended; otherwise RFC 8414
 * then OIDC.
 *
 * @example
 * ```ts
 * authorizationServerMetadataUrls(new URL('https://auth.example.com/tenant1')).map(String);
 * // …/.well-known/oauth-authorization-server/tenant1, …/.well-known/openid-configuration/tenant1,
 * // …/tenant1/.well-known/openid-configuration
 * ```
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const at = (p: string): URL => new URL(p, issuer.origin);
  if (path === '') {
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  }
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

async function jsonObject(response: Response, what: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = await response.json();
  } catch (e) {
    throw new AuthError('DiscoveryFailed', `The ${what} is not JSON`, { cause: e });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AuthError('DiscoveryFailed', `The ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

const JSON_ACCEPT = { accept: 'application/json' };

/** A field of a fetched document, for an error message: `String()` throws on `{"toString": 1}`. */
function shownValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The first half of {@link discover}: the protected resource metadata of `serverUrl` (the
 * challenge's `resource_metadata` first, then the well-known URLs), or undefined when none
 * is published. Throws `ResourceMismatch` for a document about another resource. A seam for
 * tools that show discovery step by step (the inspector's OAuth debugger).
 *
 * @example
 * ```ts
 * const url = new URL('https://mcp.example.com/mcp');
 * const prm = await discoverResourceMetadata(guarded, url, { resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp' });
 * prm?.authorization_servers; // ['https://auth.example.com']
 * ```
 */
export async function discoverResourceMetadata(
  fetcher: GuardedFetch,
  serverUrl: URL,
  challenge: BearerChallenge | undefined,
): Promise<ProtectedResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (challenge?.resourceMetadata) {
    candidates.push(
      checkFetchUrl(new URL(challenge.resourceMetadata, serverUrl), 'resource metadata URL', fetcher.policy),
    );
  }
  candidates.push(...protectedResourceMetadataUrls(serverUrl));
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl).href;
  for (const [i, url] of candidates.entries()) {
    const what = 'protected resource metadata';
    const response = await fetcher.fetch(url, { what, follow: true, headers: JSON_ACCEPT });
    if (response.status !== 200) continue;
    const doc = await jsonObject(response, `${what} at ${shownUrl(url)}`);
    if (typeof doc.resource !== 'string') {
      throw new AuthError('DiscoveryFailed', `The ${what} at ${shownUrl(url)} has no "resource"`);
    }
    // A document the challenge pointed to must name the server itself (RFC 9728 §3.3).
    const rootWellKnown = url.href === root && !(i === 0 && challenge?.resourceMetadata);
    if (!resourceMatches(doc.resource, serverUrl, { rootWellKnown })) {
      throw new AuthError(
        'ResourceMismatch',
        `The ${what} at ${shownUrl(url)} is for ${doc.resource}, not for ${canonicalResourceUri(serverUrl)}`,
      );
    }
    return doc as ProtectedResourceMetadata;
  }
  return undefined;
}

function pickIssuer(prm: ProtectedResourceMetadata, options: DiscoveryOptions): string {
  const list = prm.authorization_servers;
  if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === 'string')) {
    throw new AuthError('DiscoveryFailed', 'The protected resource metadata lists no authorization server');
  }
  const preferred = list.find((i) => options.preferIssuers?.includes(i));
  if (preferred !== undefined) return preferred;
  const chosen = options.selectAuthorizationServer ? options.selectAuthorizationServer(list) : list[0]!;
  if (!list.includes(chosen)) {
    throw new AuthError(
      'InvalidConfiguration',
      `selectAuthorizationServer chose ${chosen}, which is not listed`,
    );
  }
  return chosen;
}

/** Checks the endpoints the client will use, before any of them is contacted. */
function checkEndpoints(as: AuthorizationServer, fetcher: GuardedFetch): void {
  for (const name of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
    const value = as[name];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw new AuthError('DiscoveryFailed', `The metadata's ${name} is not a string`);
    checkFetchUrl(value, name.replace('_', ' '), fetcher.policy);
  }
}

async function fetchAsMetadata(
  fetcher: GuardedFetch,
  issuer: URL,
  expectIssuer: (doc: Response) => Promise<AuthorizationServer>,
): Promise<AuthorizationServer | undefined> {
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const what = 'authorization server metadata';
    const response = await fetcher.fetch(url, { what, follow: true, headers: JSON_ACCEPT });
    if (response.status !== 200) continue;
    return expectIssuer(response);
  }
  return undefined;
}

/**
 * Runs discovery for `serverUrl` after a 401 (with its challenge) or before the first
 * request (without). Throws an {@link AuthError}: `ResourceMismatch` for metadata about
 * another resource, `IssuerMismatch` for metadata whose issuer differs from the one it was
 * looked up for, `UnsafeUrl` for any URL the network policy refuses.
 *
 * @example
 * ```ts
 * const d = await discover(guarded, new URL('https://mcp.example.com/mcp'), bearerChallengeOf(res.headers));
 * d.as.token_endpoint; // 'https://auth.example.com/token'
 * ```
 */
export async function discover(
  fetcher: GuardedFetch,
  serverUrl: URL,
  challenge: BearerChallenge | undefined,
  options: DiscoveryOptions = {},
): Promise<Discovery> {
  const prm = await discoverResourceMetadata(fetcher, serverUrl, challenge);
  return discoverAuthorizationServer(fetcher, serverUrl, prm, options);
}

/**
 * The second half of {@link discover}: the authorization server of the protected resource
 * metadata `prm` (its issuer checked, RFC 8414 §3.3), or the 2025-03-26 fallbacks when
 * there is none. Throws `IssuerMismatch` for metadata naming another issuer.
 *
 * @example
 * ```ts
 * const url = new URL('https://mcp.example.com/mcp');
 * const prm = await discoverResourceMetadata(guarded, url, undefined);
 * const d = await discoverAuthorizationServer(guarded, url, prm);
 * d.as.issuer; // 'https://auth.example.com'
 * ```
 */
export async function discoverAuthorizationServer(
  fetcher: GuardedFetch,
  serverUrl: URL,
  prm: ProtectedResourceMetadata | undefined,
  options: DiscoveryOptions = {},
): Promise<Discovery> {
  if (prm) {
    const issuer = checkFetchUrl(pickIssuer(prm, options), 'authorization server', fetcher.policy);
    const as = await fetchAsMetadata(fetcher, issuer, async (response) => {
      try {
        return await processDiscoveryResponse(issuer, response);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        const mismatch = (e as { code?: unknown }).code === JSON_ATTRIBUTE_COMPARISON;
        const code = mismatch ? 'IssuerMismatch' : 'DiscoveryFailed';
        throw new AuthError(code, `The metadata of ${issuer.href} was refused: ${why}`, { cause: e });
      }
    });
    if (!as) {
      throw new AuthError('DiscoveryFailed', `No authorization server metadata found for ${issuer.href}`);
    }
    checkEndpoints(as, fetcher);
    return { resource: prm.resource, resourceMetadata: prm, as, legacy: 'none' };
  }
  if (options.legacyFallbacks === false) {
    throw new AuthError('DiscoveryFailed', `${shownUrl(serverUrl)} publishes no protected resource metadata`);
  }
  // 2025-03-26: the authorization server is at the MCP server's origin.
  const origin = new URL(serverUrl.origin);
  const resource = canonicalResourceUri(serverUrl);
  const found = await fetchAsMetadata(fetcher, origin, async (response) => {
    const doc = await jsonObject(response, 'authorization server metadata');
    // Served by the MCP server's own origin, which vouches for it; it must not name another origin.
    if (
      typeof doc.issuer !== 'string' ||
      !URL.canParse(doc.issuer) ||
      new URL(doc.issuer).origin !== origin.origin
    ) {
      throw new AuthError(
        'IssuerMismatch',
        `The metadata at ${origin.origin} names the issuer ${shownValue(doc.issuer)}`,
      );
    }
    return doc as unknown as AuthorizationServer;
  });
  if (found) {
    checkEndpoints(found, fetcher);
    return { resource, as: found, legacy: 'metadata' };
  }
  const as: AuthorizationServer = {
    issuer: origin.origin,
    authorization_endpoint: new URL('/authorize', origin).href,
    token_endpoint: new URL('/token', origin).href,
    registration_endpoint: new URL('/register', origin).href,
    response_types_supported: ['code'],
    // 2025-03-26 required PKCE of every authorization server.
    code_challenge_methods_supported: ['S256'],
  };
  return { resource, as, legacy: 'defaults' };
}
