/** A {@link TokenVerifier} for JWT access tokens (RFC 9068), on jose. The audience check is not optional. */
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { loadJose } from '../jose-lazy.js';
import { authInfoFromClaims, InvalidTokenError } from './auth-info.js';
import type { AuthInfo, TokenVerifier } from './auth-info.js';

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The accepted issuer(s); required. */
  issuer: string | readonly string[];
  /** This server's identifier(s) (its RFC 8707 resource); required and never empty. */
  audience: string | readonly string[];
  /** Where the issuer publishes its keys (fetched and cached by jose). */
  jwksUrl?: string | URL;
  /** Or the keys themselves. */
  jwks?: JSONWebKeySet;
  /** Or one key. */
  key?: CryptoKey | Uint8Array;
  /** Accepted algorithms (default: the asymmetric ones; HMAC only when listed here). */
  algorithms?: readonly string[];
  /** Required `typ` header, for example `at+jwt` (default: not checked). */
  typ?: string;
  /** Clock skew allowed for `exp` and `nbf`, in seconds (default 5). */
  clockToleranceSec?: number;
}

const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

function list(v: string | readonly string[]): string[] {
  return (typeof v === 'string' ? [v] : [...v]).filter((s) => s !== '');
}

/**
 * Verifies JWT access tokens: signature (keys from a JWKS URL, a JWKS or one key), `iss`,
 * `aud` (this server must be an audience: tokens for other resources are refused),
 * `exp` (required) and `nbf`.
 *
 * @example
 * ```ts
 * const verifier = jwtVerifier({
 *   issuer: 'https://auth.example.com',
 *   audience: 'https://mcp.example.com/mcp',
 *   jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
 * });
 * ```
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const audience = list(options.audience);
  const issuer = list(options.issuer);
  if (audience.length === 0) throw new TypeError('jwtVerifier needs the audience this server accepts');
  if (issuer.length === 0) throw new TypeError('jwtVerifier needs the issuer it trusts');
  // The key set is made on the first verify (jose loads then); its inputs are checked now.
  const jwksUrl = options.jwksUrl !== undefined ? new URL(options.jwksUrl) : undefined;
  const jwks = jwksUrl === undefined ? options.jwks : undefined;
  if (jwks !== undefined && !Array.isArray((jwks as { keys?: unknown }).keys)) {
    throw new TypeError('jwtVerifier: jwks must be a JSON Web Key Set ({ keys: [...] })');
  }
  let keys: JWTVerifyGetKey | CryptoKey | Uint8Array | undefined =
    jwksUrl === undefined && jwks === undefined ? options.key : undefined;
  if (jwksUrl === undefined && jwks === undefined && keys === undefined) {
    throw new TypeError('jwtVerifier needs jwksUrl, jwks or key');
  }
  const verifyOptions = {
    issuer,
    audience,
    algorithms: [...(options.algorithms ?? ASYMMETRIC)],
    clockTolerance: options.clockToleranceSec ?? 5,
    requiredClaims: ['exp'],
    ...(options.typ !== undefined ? { typ: options.typ } : {}),
  };
  return {
    async verify(token: string): Promise<AuthInfo> {
      const { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify } = await loadJose();
      keys ??= jwksUrl !== undefined ? createRemoteJWKSet(jwksUrl) : createLocalJWKSet(jwks!);
      try {
        const { payload } =
          typeof keys === 'function'
            ? await jwtVerify(token, keys, verifyOptions)
            : await jwtVerify(token, keys, verifyOptions);
        return authInfoFromClaims(payload as Record<string, unknown>);
      } catch (e) {
        if (e instanceof errors.JWTExpired)
          throw new InvalidTokenError('The token has expired', { cause: e });
        if (e instanceof errors.JWTClaimValidationFailed) {
          throw new InvalidTokenError(`The token's ${e.claim} claim is not acceptable`, { cause: e });
        }
        if (e instanceof errors.JOSEError)
          throw new InvalidTokenError('The token is not valid', { cause: e });
        throw e;
      }
    },
  };
}
