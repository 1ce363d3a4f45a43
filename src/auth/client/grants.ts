/**
 * Token endpoint requests through oauth4webapi: refresh, client_credentials and RFC 7523
 * jwt-bearer grants, and the shared handling of token responses. Every request carries the
 * RFC 8707 `resource` of the MCP server.
 */
import {
  AuthorizationResponseError,
  ResponseBodyError,
  allowInsecureRequests,
  clientCredentialsGrantRequest,
  customFetch,
  genericTokenEndpointRequest,
  processClientCredentialsResponse,
  processGenericTokenEndpointResponse,
  processRefreshTokenResponse,
  refreshTokenGrantRequest,
} from 'oauth4webapi';
import type {
  AuthorizationServer,
  Client,
  TokenEndpointRequestOptions,
  TokenEndpointResponse,
} from 'oauth4webapi';
import { AuthError } from '../errors.js';
import { clientAuthOf } from './client-auth.js';
import type { ResolvedClient } from './client-auth.js';
import type { DpopProver } from './dpop.js';
import type { GuardedFetch } from './guarded-fetch.js';
import type { StoredTokens } from './store.js';

/** What every token request needs. */
export interface GrantContext {
  fetcher: GuardedFetch;
  as: AuthorizationServer;
  client: ResolvedClient;
  /** The RFC 8707 resource the token is for. */
  resource: string;
  /** Proves possession of this key at the token endpoint, for a DPoP-bound token (RFC 9449). */
  dpop?: DpopProver;
}

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The oauth4webapi options of a request: our guarded fetch, which enforces the network
 * policy (so oauth4webapi's own https-only check is left to it), and extra parameters.
 */
export function requestOptions(
  fetcher: GuardedFetch,
  extra?: Record<string, string>,
  dpop?: DpopProver,
): TokenEndpointRequestOptions {
  const options: TokenEndpointRequestOptions = {
    [customFetch]: dpop ? dpop.tokenFetch(fetcher.custom) : fetcher.custom,
    [allowInsecureRequests]: true,
  };
  if (extra) options.additionalParameters = extra;
  return options;
}

export function oauthClient(client: ResolvedClient): Client {
  return { client_id: client.clientId };
}

/** The OAuth error code of a failed token request, when the server sent one. */
export function oauthErrorOf(e: unknown): string | undefined {
  if (e instanceof ResponseBodyError || e instanceof AuthorizationResponseError) return e.error;
  return e instanceof AuthError ? oauthErrorOf(e.cause) : undefined;
}

/** Runs a token endpoint exchange, turning every failure into a `TokenRequestFailed` AuthError. */
export async function tokenCall(
  what: string,
  run: () => Promise<TokenEndpointResponse>,
): Promise<TokenEndpointResponse> {
  let res: TokenEndpointResponse;
  try {
    res = await run();
  } catch (e) {
    if (e instanceof AuthError) throw e;
    const detail =
      e instanceof ResponseBodyError
        ? `${e.status} ${e.error}${e.error_description ? `: ${e.error_description}` : ''}`
        : e instanceof Error
          ? e.message
          : String(e);
    throw new AuthError('TokenRequestFailed', `The ${what} failed: ${detail}`, { cause: e });
  }
  return res;
}

/**
 * The tokens of a token response, for storing: Bearer, or DPoP-bound (RFC 9449) when the
 * request carried a proof; nothing else. When the response names no scope, the
 * requested one is recorded; a refresh that returns no new refresh token keeps the old one.
 */
export function toStored(
  res: TokenEndpointResponse,
  requested?: string,
  previousRefresh?: string,
): StoredTokens {
  if (res.token_type !== 'bearer' && res.token_type !== 'dpop') {
    throw new AuthError(
      'TokenRequestFailed',
      `The token endpoint issued a ${res.token_type} token; only Bearer and DPoP are supported`,
    );
  }
  const out: StoredTokens = { access_token: res.access_token };
  if (res.token_type === 'dpop') out.token_type = 'DPoP';
  const refresh = res.refresh_token ?? previousRefresh;
  if (refresh !== undefined) out.refresh_token = refresh;
  if (typeof res.expires_in === 'number') out.expires_at = Math.floor(Date.now() / 1000) + res.expires_in;
  const scope = typeof res.scope === 'string' ? res.scope : requested;
  if (scope !== undefined) out.scope = scope;
  if (requested !== undefined) out.requested_scope = requested;
  return out;
}

/**
 * Exchanges a refresh token (RFC 6749 §6) with the same `resource`. The previous refresh
 * token is kept when the server does not rotate it.
 *
 * @example
 * ```ts
 * const fresh = await refreshGrant(ctx, stored);
 * ```
 */
export async function refreshGrant(ctx: GrantContext, tokens: StoredTokens): Promise<StoredTokens> {
  const refresh = tokens.refresh_token;
  if (refresh === undefined) throw new AuthError('TokenRequestFailed', 'There is no refresh token');
  const auth = await clientAuthOf(ctx.client);
  const c = oauthClient(ctx.client);
  const res = await tokenCall('refresh token grant', async () => {
    const options = requestOptions(ctx.fetcher, { resource: ctx.resource }, ctx.dpop);
    const response = await refreshTokenGrantRequest(ctx.as, c, auth, refresh, options);
    return processRefreshTokenResponse(ctx.as, c, response);
  });
  return toStored(res, tokens.requested_scope, refresh);
}

/**
 * The client_credentials grant (the MCP client-credentials extension): the client acts on
 * its own behalf with a secret or a private_key_jwt assertion.
 *
 * @example
 * ```ts
 * const tokens = await clientCredentialsGrant(ctx, 'mcp:read');
 * ```
 */
export async function clientCredentialsGrant(
  ctx: GrantContext,
  scope: string | undefined,
): Promise<StoredTokens> {
  const auth = await clientAuthOf(ctx.client);
  const c = oauthClient(ctx.client);
  const params: Record<string, string> = { resource: ctx.resource };
  if (scope !== undefined) params.scope = scope;
  const res = await tokenCall('client_credentials grant', async () => {
    const response = await clientCredentialsGrantRequest(
      ctx.as,
      c,
      auth,
      params,
      requestOptions(ctx.fetcher, undefined, ctx.dpop),
    );
    return processClientCredentialsResponse(ctx.as, c, response);
  });
  return toStored(res, scope);
}

/**
 * The RFC 7523 jwt-bearer grant: an assertion (for cross-app access, an ID-JAG) exchanged
 * for an access token at the MCP server's authorization server.
 *
 * @example
 * ```ts
 * const tokens = await jwtBearerGrant(ctx, idJag, undefined);
 * ```
 */
export async function jwtBearerGrant(
  ctx: GrantContext,
  assertion: string,
  scope: string | undefined,
): Promise<StoredTokens> {
  const auth = await clientAuthOf(ctx.client);
  const c = oauthClient(ctx.client);
  const params: Record<string, string> = { assertion, resource: ctx.resource };
  if (scope !== undefined) params.scope = scope;
  const res = await tokenCall('jwt-bearer grant', async () => {
    const response = await genericTokenEndpointRequest(
      ctx.as,
      c,
      auth,
      JWT_BEARER,
      params,
      requestOptions(ctx.fetcher, undefined, ctx.dpop),
    );
    return processGenericTokenEndpointResponse(ctx.as, c, response);
  });
  return toStored(res, scope);
}
