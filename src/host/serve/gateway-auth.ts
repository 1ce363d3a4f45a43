/**
 * How the gateway's HTTP endpoint knows who calls it: static bearer tokens (each one a named
 * caller) and JWT access tokens (through the resource-server helpers: `bearerAuth`
 * with a `jwtVerifier`, which also serves the RFC 9728 metadata). Without this, any process
 * that reaches the port calls every upstream tool under the gateway's own credentials.
 * Browser-safe: Node's request and response are used structurally.
 */
import { bearerAuth, removeCredentials } from '../../auth/server/bearer-auth.js';
import type { NodeRequestLike, NodeResponseLike } from '../../auth/server/bearer-auth.js';
import type { AuthInfo } from '../../auth/server/auth-info.js';
import { jwtVerifier } from '../../auth/server/jwt-verifier.js';
import type { Authentication } from '../../transports/http-server/request-authorizer.js';
import type { GatewayAuthConfig } from '../config/config-types.js';

/**
 * The `authenticate` hook of the gateway's HTTP server: the caller's {@link AuthInfo} (with
 * the JWT layer's per-request authorizer, when it has one), or false once it answered 401.
 */
export type GatewayAuthenticator = (
  req: NodeRequestLike,
  res: NodeResponseLike,
) => Promise<AuthInfo | Authentication<AuthInfo> | false | undefined>;

/** The principal of a static gateway token: the token's name, from no issuer, a client. */
function tokenAuthInfo(name: string): AuthInfo {
  return {
    principal: { issuer: '', subject: name, kind: 'client' },
    clientId: name,
    scopes: [],
    audience: [],
    claims: Object.freeze({}),
  };
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Compares digests in time independent of where they differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function unauthorized(res: NodeResponseLike, presented: boolean): false {
  const error = presented ? 'invalid_token' : 'unauthorized';
  res.writeHead(401, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'www-authenticate': presented
      ? 'Bearer realm="mcpkit-gateway", error="invalid_token"'
      : 'Bearer realm="mcpkit-gateway"',
  });
  res.end(
    JSON.stringify({
      error,
      error_description: presented
        ? "The bearer token is not one of the gateway's"
        : 'A bearer token is required',
    }),
  );
  return false;
}

/**
 * The gateway's inbound authentication, from the config's `mcpkit.gateway.auth` (or the
 * command line's token): a request must carry `Authorization: Bearer` with one of the named
 * tokens (compared in constant time) or, when `jwt` is set, a JWT access token of its
 * issuer for its audience (and scopes). Anything else gets 401 before MCP sees it, so no
 * upstream server is called. The token is removed from the request: it reaches no handler
 * and no upstream server.
 *
 * @example
 * ```ts
 * const authenticate = gatewayAuthenticator({ tokens: { 'ci-bot': process.env.CI_GATEWAY_TOKEN ?? '' }, jwt: undefined });
 * await new Gateway(host).serveHttp({ port: 3000, authenticate });
 * ```
 */
export function gatewayAuthenticator(config: GatewayAuthConfig): GatewayAuthenticator {
  const named = Object.entries(config.tokens);
  const jwt = config.jwt;
  if (named.length === 0 && !jwt)
    throw new TypeError('The gateway needs at least one token or a jwt section');
  let digests: Promise<[string, Uint8Array][]> | undefined;
  const bearer = jwt
    ? bearerAuth({
        resource: jwt.resource,
        authorizationServers: jwt.authorizationServers,
        verifier: jwtVerifier({ issuer: jwt.issuer, audience: jwt.audience, jwksUrl: jwt.jwksUrl }),
        requiredScopes: jwt.scopes,
        ...(jwt.scopes.length > 0 ? { scopesSupported: jwt.scopes } : {}),
      })
    : undefined;

  const tokenName = async (token: string): Promise<string | undefined> => {
    digests ??= Promise.all(
      named.map(async ([name, value]) => [name, await sha256(value)] as [string, Uint8Array]),
    );
    const presented = await sha256(token);
    let found: string | undefined;
    // Every token is compared, so the time taken does not say which one came close.
    for (const [name, digest] of await digests) if (sameBytes(presented, digest)) found = name;
    return found;
  };

  return async (req, res) => {
    const header = req.headers.authorization;
    const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (token !== undefined && named.length > 0) {
      const name = await tokenName(token);
      if (name !== undefined) {
        removeCredentials(req);
        return tokenAuthInfo(name);
      }
    }
    if (bearer) return bearer.node(req, res);
    return unauthorized(res, header !== undefined && header !== '');
  };
}
