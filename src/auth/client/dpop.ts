/**
 * DPoP (RFC 9449, MCP SEP-1932): sender-constrained access tokens. The client holds a key
 * pair and signs a fresh proof JWT for every token request and every request to the MCP
 * server; a stolen token is useless without the key. Servers may demand a nonce in the
 * proofs (`use_dpop_nonce`), which is remembered per origin and retried once.
 */
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';

/** The signature algorithm of our proofs; ES256 is the one every DPoP server must accept. */
export const DPOP_ALG = 'ES256';

type CustomFetch = (
  url: string,
  options: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal | null },
) => Promise<Response>;

function bytesToBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `htu`: the request URI without query and fragment (RFC 9449 §4.2). */
function htuOf(url: string | URL): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/**
 * A DPoP key pair and the proofs it signs. The private key is generated non-extractable:
 * it never leaves the process.
 *
 * @example
 * ```ts
 * const oauth = new OAuthClient({ serverUrl, interaction, dpop: await DpopProver.generate() });
 * ```
 */
export class DpopProver {
  /** The last nonce each origin gave us. */
  private readonly nonces = new Map<string, string>();

  private constructor(
    private readonly privateKey: CryptoKey,
    /** The public key, as the `jwk` header of every proof. */
    readonly publicJwk: JWK,
  ) {}

  /** A prover with a fresh ES256 key pair. */
  static async generate(): Promise<DpopProver> {
    const { privateKey, publicKey } = await generateKeyPair(DPOP_ALG, { extractable: false });
    const jwk = await exportJWK(publicKey);
    return new DpopProver(privateKey, { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } as JWK);
  }

  /** The key's SHA-256 JWK thumbprint: what a DPoP-bound token names in `cnf.jkt`. */
  thumbprint(): Promise<string> {
    return calculateJwkThumbprint(this.publicJwk, 'sha256');
  }

  /**
   * A proof for one request: `htm`, `htu`, a unique `jti`, `iat`, the origin's nonce if it
   * gave one, and `ath` (the token's SHA-256) when an access token goes with the request.
   */
  async proof(method: string, url: string | URL, accessToken?: string): Promise<string> {
    const claims: Record<string, unknown> = { htm: method.toUpperCase(), htu: htuOf(url) };
    const nonce = this.nonces.get(new URL(url).origin);
    if (nonce !== undefined) claims.nonce = nonce;
    if (accessToken !== undefined) {
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
      claims.ath = bytesToBase64Url(new Uint8Array(digest));
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: DPOP_ALG, typ: 'dpop+jwt', jwk: this.publicJwk })
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .sign(this.privateKey);
  }

  /** Remembers a `DPoP-Nonce` an origin sent; true when it is new (a retry may now succeed). */
  rememberNonce(url: string | URL, headers: Headers): boolean {
    const nonce = headers.get('dpop-nonce');
    if (nonce === null || nonce === '' || nonce.length > 1024) return false;
    const origin = new URL(url).origin;
    if (this.nonces.get(origin) === nonce) return false;
    this.nonces.set(origin, nonce);
    return true;
  }

  /**
   * Wraps the fetch of token endpoint requests: each carries a proof, and a
   * `use_dpop_nonce` answer (RFC 9449 §8) is retried once with the nonce it supplied.
   */
  tokenFetch(base: CustomFetch): CustomFetch {
    return async (url, options) => {
      for (let attempt = 0; ; attempt++) {
        const headers = { ...options.headers, dpop: await this.proof(options.method, url) };
        const response = await base(url, { ...options, headers });
        const fresh = this.rememberNonce(url, response.headers);
        if (attempt > 0 || !fresh || response.status !== 400) return response;
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as { error?: unknown } | undefined;
        if (body?.error !== 'use_dpop_nonce') return response;
        await response.body?.cancel().catch(() => undefined);
      }
    };
  }
}
