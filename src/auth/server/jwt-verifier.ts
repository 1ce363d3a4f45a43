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
  /**
   * The `typ` header an access token must have (RFC 9068 §2.1, §4): `at+jwt` by default,
   * also written `application/at+jwt`; so an ID token or another JWT signed by the same
   * issuer is never taken for an access token. A list accepts any of its values; `false`
   * does not look (for an authorization server that issues access tokens typed `JWT`).
   */
  typ?: string | readonly string[] | false;
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

/** A `typ` value as compared (RFC 7515 §4.1.9): case-insensitive, `application/` implied. */
function mediaType(typ: string): string {
  const t = typ.toLowerCase();
  return t.startsWith('application/') ? t.slice('application/'.length) : t;
}

function list(v: string | readonly string[]): string[] {
  return (typeof v === 'string' ? [v] : [...v]).filter((s) => s !== '');
}

/**
 * Verifies JWT access tokens (RFC 9068): signature (keys from a JWKS URL, a JWKS or one
 * key), the `at+jwt` type (see {@link JwtVerifierOptions.typ}), `iss`, `aud` (this server
 * must be an audience: tokens for other resources are refused), `exp` (required) and `nbf`.
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
  };
  const typ = options.typ ?? 'at+jwt';
  const types = typ === false ? undefined : (typeof typ === 'string' ? [typ] : [...typ]).map(mediaType);
  if (types?.length === 0) throw new TypeError('jwtVerifier: list at least one typ, or pass typ: false');
  return {
    async verify(token: string): Promise<AuthInfo> {
      const { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify } = await loadJose();
      keys ??= jwksUrl !== undefined ? createRemoteJWKSet(jwksUrl) : createLocalJWKSet(jwks!);
      try {
        const { payload, protectedHeader } =
          typeof keys === 'function'
            ? await jwtVerify(token, keys, verifyOptions)
            : await jwtVerify(token, keys, verifyOptions);
        const got = protectedHeader.typ;
        if (types && !(typeof got === 'string' && types.includes(mediaType(got)))) {
          const said = typeof got === 'string' ? `typ ${JSON.stringify(got.slice(0, 40))}` : 'no typ';
          throw new InvalidTokenError(
            `The token has ${said}; an access token must be typed ${types.join(' or ')}`,
          );
        }
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
