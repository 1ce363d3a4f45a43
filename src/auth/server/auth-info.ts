/** The principal of a verified request, as tool handlers see it (`ctx.authInfo`). */
import { principalOf } from '../../protocol/principal.js';
import type { Principal } from '../../protocol/principal.js';

export type { Principal, PrincipalKind } from '../../protocol/principal.js';

/**
 * Who made a request and what they may do. It never holds the token itself: handlers
 * cannot pass it downstream by accident. What a request opens (sessions, streams, tasks,
 * request state) is bound to its {@link AuthInfo.principal}: issuer plus subject, never
 * `sub` alone.
 */
export interface AuthInfo {
  /**
   * Who this is: the issuer's user or client. Set by the built-in verifiers; when a custom
   * verifier leaves it out it is derived from `issuer`, `subject` and `clientId`.
   */
  principal?: Principal;
  /** The resource owner (`sub`). */
  subject?: string;
  /** The OAuth client (`client_id`, or `azp`). */
  clientId?: string;
  /** The scopes granted. */
  scopes: string[];
  /** Epoch seconds. */
  expiresAt?: number;
  issuer?: string;
  /** The audiences the token was issued for (one of them is this server). */
  audience: string[];
  /** The other claims of the token or introspection response. */
  claims: Readonly<Record<string, unknown>>;
}

/** Verifies an access token; throws {@link InvalidTokenError} when it must not be accepted. */
export interface TokenVerifier {
  verify(token: string): Promise<AuthInfo>;
}

/**
 * The token is missing its mark: forged, expired, for another audience, revoked. The
 * bearer layer answers 401 `invalid_token` with this message as `error_description`.
 *
 * @example
 * ```ts
 * const verifier: TokenVerifier = {
 *   async verify(t) {
 *     if (!known(t)) throw new InvalidTokenError('unknown token');
 *     return { subject: 'me', scopes: ['mcp:use'], audience: ['https://mcp.example.com/mcp'], claims: {} };
 *   },
 * };
 * ```
 */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/**
 * The {@link AuthInfo} of a handler context, if the request was authenticated by the
 * bearer layer.
 *
 * @example
 * ```ts
 * server.tool({ name: 'whoami' }, (_args, ctx) => authInfoOf(ctx)?.subject ?? 'anonymous');
 * ```
 */
export function authInfoOf(ctx: { readonly authInfo: unknown }): AuthInfo | undefined {
  const a = ctx.authInfo as Partial<AuthInfo> | undefined;
  if (typeof a !== 'object' || a === null || !Array.isArray(a.scopes) || !Array.isArray(a.audience))
    return undefined;
  return a as AuthInfo;
}

/** Splits a `scope` claim (a space-separated string) or an `scp` claim (an array). */
export function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(claims.scp)) return claims.scp.filter((s): s is string => typeof s === 'string');
  if (typeof claims.scp === 'string') return claims.scp.split(' ').filter((s) => s !== '');
  return [];
}

/** The {@link AuthInfo} of a set of claims (a JWT payload or an introspection response). */
export function authInfoFromClaims(claims: Record<string, unknown>): AuthInfo {
  const aud = claims.aud;
  const info: AuthInfo = {
    scopes: scopesOf(claims),
    audience:
      typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [],
    claims: Object.freeze({ ...claims }),
  };
  if (typeof claims.sub === 'string') info.subject = claims.sub;
  const client = typeof claims.client_id === 'string' ? claims.client_id : claims.azp;
  if (typeof client === 'string') info.clientId = client;
  if (typeof claims.exp === 'number') info.expiresAt = claims.exp;
  if (typeof claims.iss === 'string') info.issuer = claims.iss;
  const principal = principalOf(info);
  if (principal) info.principal = principal;
  return info;
}
