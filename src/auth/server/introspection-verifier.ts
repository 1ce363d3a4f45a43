/** A {@link TokenVerifier} that asks the authorization server (RFC 7662 token introspection). */
import {
  ClientSecretPost,
  None,
  allowInsecureRequests,
  customFetch,
  introspectionRequest,
  processIntrospectionResponse,
} from 'oauth4webapi';
import type { AuthorizationServer, IntrospectionRequestOptions } from 'oauth4webapi';
import { clientSecretBasic } from '../client/client-auth.js';
import { authInfoFromClaims, InvalidTokenError } from './auth-info.js';
import type { AuthInfo, TokenVerifier } from './auth-info.js';

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The introspection endpoint. */
  endpoint: string;
  /** The authorization server's issuer (default: the endpoint's origin). */
  issuer?: string;
  /** This resource server's credentials at the authorization server. */
  clientId: string;
  clientSecret?: string;
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** This server's identifier(s); the response's `aud` must name one. */
  audience: string | readonly string[];
  /** Refuse responses without `aud` (default true: audience binding is required). */
  requireAudience?: boolean;
  fetch?: typeof fetch;
  /** Allow an http endpoint (tests; default false). */
  allowHttp?: boolean;
}

/**
 * Verifies opaque tokens by introspection: the token must be `active`, unexpired, and
 * issued for this server (`aud`).
 *
 * @example
 * ```ts
 * const verifier = introspectionVerifier({
 *   endpoint: 'https://auth.example.com/introspect',
 *   clientId: 'mcp-server', clientSecret: process.env.INTROSPECTION_SECRET,
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const audience = (typeof options.audience === 'string' ? [options.audience] : [...options.audience]).filter(
    (a) => a !== '',
  );
  if (audience.length === 0)
    throw new TypeError('introspectionVerifier needs the audience this server accepts');
  const endpoint = new URL(options.endpoint);
  const as: AuthorizationServer = {
    issuer: options.issuer ?? endpoint.origin,
    introspection_endpoint: endpoint.href,
  };
  const client = { client_id: options.clientId };
  const secret = options.clientSecret;
  const method = options.authMethod ?? (secret === undefined ? 'none' : 'client_secret_basic');
  if (method !== 'none' && secret === undefined) throw new TypeError(`${method} needs clientSecret`);
  const auth =
    method === 'none'
      ? None()
      : method === 'client_secret_post'
        ? ClientSecretPost(secret!)
        : clientSecretBasic(secret!);
  const requestOptions: IntrospectionRequestOptions = {};
  if (options.fetch) {
    const f = options.fetch;
    requestOptions[customFetch] = (url, init) => f(url, init as RequestInit);
  }
  if (options.allowHttp === true) requestOptions[allowInsecureRequests] = true;
  return {
    async verify(token: string): Promise<AuthInfo> {
      const response = await introspectionRequest(as, client, auth, token, requestOptions);
      const result = await processIntrospectionResponse(as, client, response);
      if (result.active !== true) throw new InvalidTokenError('The token is not active');
      const now = Math.floor(Date.now() / 1000);
      if (typeof result.exp === 'number' && result.exp <= now)
        throw new InvalidTokenError('The token has expired');
      if (typeof result.nbf === 'number' && result.nbf > now + 5)
        throw new InvalidTokenError('The token is not valid yet');
      const info = authInfoFromClaims(result as unknown as Record<string, unknown>);
      const forUs = info.audience.some((a) => audience.includes(a));
      if (!forUs && (info.audience.length > 0 || options.requireAudience !== false)) {
        throw new InvalidTokenError('The token was not issued for this server');
      }
      return info;
    },
  };
}
