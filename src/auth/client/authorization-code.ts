/**
 * The authorization code grant with PKCE S256 (OAuth 2.1 §4.1): build the authorization
 * URL, let the interaction get the user's answer, validate it (state, RFC 9207 `iss`), and
 * exchange the code with the same RFC 8707 `resource`.
 */
import {
  AuthorizationResponseError,
  authorizationCodeGrantRequest,
  calculatePKCECodeChallenge,
  generateRandomCodeVerifier,
  generateRandomState,
  processAuthorizationCodeResponse,
  validateAuthResponse,
} from 'oauth4webapi';
import type { AuthorizationServer } from 'oauth4webapi';
import { AuthError } from '../errors.js';
import { clientAuthOf } from './client-auth.js';
import type { ResolvedClient } from './client-auth.js';
import type { GrantContext } from './grants.js';
import { oauthClient, requestOptions, toStored, tokenCall } from './grants.js';
import type { AuthorizationInteraction } from './interaction.js';
import { checkAuthorizationUrl } from './network-policy.js';
import type { StoredTokens } from './store.js';

/** One authorization request: what the callback must be checked against. */
export interface PendingAuthorization {
  url: URL;
  state: string;
  codeVerifier: string;
  /** The issuer recorded before redirecting the user (RFC 9207). */
  issuer: string;
  redirectUri: string;
}

/** One listed method, for the message: `String()` (and so `join`) throws on `{"toString": 1}`. */
const shownMethod = (m: unknown): string => (typeof m === 'string' ? m : JSON.stringify(m));

/** Refuses an authorization server that does not advertise PKCE with S256. */
export function requireS256(as: AuthorizationServer): void {
  const methods = as.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256')) {
    throw new AuthError(
      'PkceNotSupported',
      `${as.issuer} does not advertise PKCE with S256 (code_challenge_methods_supported: ` +
        `${Array.isArray(methods) ? methods.map(shownMethod).join(', ') || 'empty' : 'absent'}); refusing to authorize`,
    );
  }
}

/**
 * Builds the authorization URL: response_type=code, PKCE S256, a fresh state, the
 * redirect URI, the scope (when there is one) and the RFC 8707 resource.
 *
 * @example
 * ```ts
 * const pending = await buildAuthorizationUrl(ctx, 'http://127.0.0.1:3000/callback', 'files:read');
 * pending.url.searchParams.get('code_challenge_method'); // 'S256'
 * ```
 */
export async function buildAuthorizationUrl(
  ctx: GrantContext,
  redirectUri: string,
  scope: string | undefined,
): Promise<PendingAuthorization> {
  requireS256(ctx.as);
  if (typeof ctx.as.authorization_endpoint !== 'string') {
    throw new AuthError('DiscoveryFailed', `${ctx.as.issuer} has no authorization_endpoint`);
  }
  const url = checkAuthorizationUrl(ctx.as.authorization_endpoint, ctx.fetcher.policy);
  const codeVerifier = generateRandomCodeVerifier();
  const state = generateRandomState();
  const p = url.searchParams;
  p.set('response_type', 'code');
  p.set('client_id', ctx.client.clientId);
  p.set('redirect_uri', redirectUri);
  p.set('code_challenge', await calculatePKCECodeChallenge(codeVerifier));
  p.set('code_challenge_method', 'S256');
  p.set('state', state);
  p.set('resource', ctx.resource);
  if (scope !== undefined) p.set('scope', scope);
  else p.delete('scope');
  return { url, state, codeVerifier, issuer: ctx.as.issuer, redirectUri };
}

function callbackParams(callback: object): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(callback)) if (typeof v === 'string') params.set(k, v);
  return params;
}

/**
 * Validates the authorization response against the pending request: the RFC 9207 `iss`
 * (compared as a plain string with the recorded issuer, and required when the server
 * advertises it), then the state, then an error response. On an issuer mismatch nothing of
 * the response (not even its error) is acted on.
 */
export function validateCallback(
  as: AuthorizationServer,
  client: ResolvedClient,
  pending: PendingAuthorization,
  callback: object,
): URLSearchParams {
  const params = callbackParams(callback);
  const iss = params.get('iss');
  if (iss !== null && iss !== pending.issuer) {
    throw new AuthError(
      'IssuerMismatch',
      `The authorization response came from ${iss}, not from ${pending.issuer}`,
    );
  }
  try {
    return validateAuthResponse(as, oauthClient(client), params, pending.state);
  } catch (e) {
    if (e instanceof AuthorizationResponseError) {
      const d = e.error_description ? `: ${e.error_description}` : '';
      throw new AuthError('AuthorizationFailed', `The authorization server answered ${e.error}${d}`, {
        cause: e,
      });
    }
    const why = e instanceof Error ? e.message : String(e);
    const code = /"iss"/.test(why) ? 'IssuerMismatch' : 'AuthorizationFailed';
    throw new AuthError(code, `The authorization response was refused: ${why}`, { cause: e });
  }
}

/**
 * The whole authorization code flow: URL, interaction, validation, code exchange.
 *
 * @example
 * ```ts
 * const tokens = await authorizationCodeGrant(ctx, headlessInteraction(), 'mcp:read');
 * ```
 */
export async function authorizationCodeGrant(
  ctx: GrantContext,
  interaction: AuthorizationInteraction,
  scope: string | undefined,
  signal?: AbortSignal,
): Promise<StoredTokens> {
  const redirectUri = interaction.redirectUri;
  const pending = await buildAuthorizationUrl(ctx, redirectUri, scope);
  const context = signal ? { redirectUri, fetch: ctx.fetcher, signal } : { redirectUri, fetch: ctx.fetcher };
  const callback = await interaction.openAuthorizationUrl(pending.url, context);
  const params = validateCallback(ctx.as, ctx.client, pending, callback);
  return exchangeAuthorizationCode(ctx, pending, params, scope);
}

/**
 * Exchanges the code of a validated authorization response (see {@link validateCallback})
 * for tokens, with the PKCE verifier and the RFC 8707 `resource`: the last part of
 * {@link authorizationCodeGrant}, for tools that run the flow step by step.
 *
 * @example
 * ```ts
 * const pending = await buildAuthorizationUrl(ctx, 'http://127.0.0.1:3000/callback', 'mcp:read');
 * // The user authorizes; the redirect brings back the code and the state.
 * const params = validateCallback(ctx.as, ctx.client, pending, { code: 'abc', state: pending.state });
 * const tokens = await exchangeAuthorizationCode(ctx, pending, params, 'mcp:read');
 * ```
 */
export async function exchangeAuthorizationCode(
  ctx: GrantContext,
  pending: PendingAuthorization,
  params: URLSearchParams,
  scope: string | undefined,
): Promise<StoredTokens> {
  const auth = await clientAuthOf(ctx.client);
  const c = oauthClient(ctx.client);
  const res = await tokenCall('authorization code exchange', async () => {
    const options = requestOptions(ctx.fetcher, { resource: ctx.resource }, ctx.dpop);
    const response = await authorizationCodeGrantRequest(
      ctx.as,
      c,
      auth,
      params,
      pending.redirectUri,
      pending.codeVerifier,
      options,
    );
    return processAuthorizationCodeResponse(ctx.as, c, response);
  });
  return toStored(res, scope);
}
