/**
 * DPoP on the resource server (RFC 9449 §4.3, §7, §8): the checks of a proof that goes with
 * a DPoP-bound access token, a bounded memory of the proofs already seen, and server-provided
 * nonces. A stolen bound token is useless without the private key its `cnf.jkt` names.
 */
import { loadJose } from '../jose-lazy.js';

/** Options of the bearer layer's DPoP checks (`bearerAuth({ dpop })`). */
export interface DpopOptions {
  /**
   * Accept only DPoP-bound tokens; advertised as `dpop_bound_access_tokens_required`
   * (default false: a bound token needs its proof, an unbound one is accepted as Bearer).
   */
  required?: boolean;
  /**
   * Demand a nonce of this server in every proof (RFC 9449 §8): a proof without a current
   * one gets 401 `use_dpop_nonce` with a `DPoP-Nonce` header, which clients retry with.
   * Nonces are HMACs of a time slot (`lifetimeSec`, default 300; the previous slot's stays
   * valid): nodes given the same `secret` accept each other's. Default off.
   */
  nonce?: boolean | { secret?: Uint8Array; lifetimeSec?: number };
  /** Accepted proof algorithms (default: the asymmetric JWS algorithms). */
  algorithms?: readonly string[];
  /** How old a proof may be, by its `iat`, in seconds (default 60; 5 s of clock skew either way). */
  maxAgeSec?: number;
  /**
   * How many proof ids (`jti`) are remembered to refuse a replayed proof (default 50,000),
   * each until its `iat` is too old to be accepted anyway. Memory is per process: a cluster
   * should also demand nonces, which bound how long a proof stays usable.
   */
  replayCacheSize?: number;
}

/** Why a proof was refused: the `error` of the `WWW-Authenticate: DPoP` challenge. */
export interface DpopFailure {
  error: 'invalid_dpop_proof' | 'use_dpop_nonce';
  description: string;
  /** A fresh nonce, for `use_dpop_nonce` (sent as `DPoP-Nonce`). */
  nonce?: string;
}

/** What a proof is checked against: the request it came with and the token it must hold. */
export interface DpopRequest {
  /** The `DPoP` header as received (two headers joined by a comma are refused). */
  proof: string | undefined;
  /** The HTTP method. */
  method: string;
  /** The request URL as the client addressed it (query and fragment are ignored). */
  url: string;
  /** The access token the proof must name (`ath`). */
  token: string;
  /** The key the token is bound to (`cnf.jkt`). */
  jkt: string;
}

const ASYMMETRIC = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
  'EdDSA',
  'Ed25519',
];

const SKEW_SEC = 5;
const enc = new TextEncoder();

function base64Url(bytes: ArrayBuffer): string {
  const b = new Uint8Array(bytes);
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `htu` comparison form (RFC 9449 §4.3 step 9): scheme, host and path, no query or fragment. */
function htuOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * The proof ids seen lately, each kept until its proof is too old to pass anyway. Bounded:
 * past the cap the oldest is forgotten (its proof could be replayed within its window).
 */
class ReplayCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** False when `key` was seen and has not expired; otherwise remembers it until `until`. */
  add(key: string, until: number, now: number): boolean {
    const known = this.seen.get(key);
    if (known !== undefined && known > now) return false;
    // Insertion order is close to expiry order: drop expired entries from the front.
    for (const [k, expiry] of this.seen) {
      if (expiry > now) break;
      this.seen.delete(k);
    }
    if (this.seen.size >= this.max) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, until);
    return true;
  }
}

/** Nonces that are HMACs of a time slot: nothing stored, valid on every node with the secret. */
class SlotNonces {
  private key: Promise<CryptoKey> | undefined;
  private readonly cache = new Map<number, string>();

  constructor(
    private readonly secret: Uint8Array | undefined,
    private readonly lifetimeMs: number,
  ) {}

  async current(now: number): Promise<string> {
    return this.forSlot(Math.floor(now / this.lifetimeMs));
  }

  async valid(nonce: unknown, now: number): Promise<boolean> {
    if (typeof nonce !== 'string' || nonce.length > 200) return false;
    const slot = Math.floor(now / this.lifetimeMs);
    for (const s of [slot, slot - 1]) if (nonce === (await this.forSlot(s))) return true;
    return false;
  }

  private async forSlot(slot: number): Promise<string> {
    const cached = this.cache.get(slot);
    if (cached !== undefined) return cached;
    // The key is made on first use (no randomness at construction).
    this.key ??= crypto.subtle.importKey(
      'raw',
      // Copied: a key given as a view of a shared buffer is not a BufferSource.
      this.secret ? new Uint8Array(this.secret) : crypto.getRandomValues(new Uint8Array(32)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = await crypto.subtle.sign('HMAC', await this.key, enc.encode(String(slot)));
    const nonce = `${slot.toString(36)}.${base64Url(mac)}`;
    if (this.cache.size > 4) this.cache.clear();
    this.cache.set(slot, nonce);
    return nonce;
  }
}

/**
 * Checks DPoP proofs (RFC 9449 §4.3): one `DPoP` header holding a `dpop+jwt` signed with an
 * accepted asymmetric algorithm by the public key in its `jwk` header; `htm` and `htu` equal
 * to the request's method and URL; an `iat` within the window; a `jti` not seen before;
 * `ath` the SHA-256 of the access token; the key's thumbprint equal to the token's
 * `cnf.jkt`; and, when nonces are on, a current nonce.
 *
 * @example
 * ```ts
 * const checker = new DpopProofChecker({ nonce: true });
 * const failure = await checker.check({
 *   proof: 'eyJ0eXAiOiJkcG9wK2p3dCJ9…', method: 'POST', url: 'https://mcp.example.com/mcp',
 *   token: 'eyJ0eXAiOiJhdCtqd3QifQ…', jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I',
 * });
 * if (failure) console.error(failure.error, failure.description);
 * ```
 */
export class DpopProofChecker {
  readonly algorithms: readonly string[];
  readonly required: boolean;
  private readonly maxAgeSec: number;
  private readonly replays: ReplayCache;
  private readonly nonces: SlotNonces | undefined;

  constructor(options: DpopOptions = {}) {
    this.algorithms = [...(options.algorithms ?? ASYMMETRIC)];
    if (this.algorithms.some((a) => a === 'none' || a.startsWith('HS'))) {
      throw new TypeError('DPoP proofs are signed with asymmetric keys: none and HS* are not accepted');
    }
    this.required = options.required === true;
    this.maxAgeSec = options.maxAgeSec ?? 60;
    this.replays = new ReplayCache(options.replayCacheSize ?? 50_000);
    const n = options.nonce;
    this.nonces =
      n === undefined || n === false
        ? undefined
        : new SlotNonces(
            n === true ? undefined : n.secret,
            (n === true ? 300 : (n.lifetimeSec ?? 300)) * 1000,
          );
  }

  /** Undefined when the proof holds; otherwise why not (and a fresh nonce when one is needed). */
  async check(r: DpopRequest): Promise<DpopFailure | undefined> {
    const bad = (description: string): DpopFailure => ({ error: 'invalid_dpop_proof', description });
    const proof = r.proof?.trim();
    if (proof === undefined || proof === '') return bad('A DPoP proof is required with this token');
    if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(proof)) return bad('Send exactly one DPoP proof, a compact JWT');
    const { EmbeddedJWK, calculateJwkThumbprint, errors, jwtVerify } = await loadJose();
    let payload: Record<string, unknown>;
    let jwk: Record<string, unknown>;
    try {
      const verified = await jwtVerify(proof, EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: [...this.algorithms],
        requiredClaims: ['jti', 'htm', 'htu', 'iat'],
        maxTokenAge: this.maxAgeSec,
        clockTolerance: SKEW_SEC,
      });
      payload = verified.payload as Record<string, unknown>;
      jwk = verified.protectedHeader.jwk as Record<string, unknown>;
    } catch (e) {
      if (e instanceof errors.JWTClaimValidationFailed)
        return bad(`The proof's ${e.claim} claim is not acceptable`);
      if (e instanceof errors.JWTExpired) return bad('The proof is too old');
      if (e instanceof errors.JOSEError) return bad('The proof is not a valid DPoP proof');
      throw e;
    }
    if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256) {
      return bad('The proof needs a jti');
    }
    if (payload.htm !== r.method.toUpperCase()) return bad('The proof is for another HTTP method');
    const htu = typeof payload.htu === 'string' ? htuOf(payload.htu) : undefined;
    if (htu === undefined || htu !== htuOf(r.url)) return bad('The proof is for another URL');
    const ath = base64Url(await crypto.subtle.digest('SHA-256', enc.encode(r.token)));
    if (payload.ath !== ath) return bad('The proof does not name this access token (ath)');
    if ((await calculateJwkThumbprint(jwk, 'sha256')) !== r.jkt) {
      return bad('The proof is signed by another key than the one the token is bound to');
    }
    const now = Date.now();
    if (this.nonces && !(await this.nonces.valid(payload.nonce, now))) {
      return {
        error: 'use_dpop_nonce',
        description: 'The proof needs a current nonce of this server',
        nonce: await this.nonces.current(now),
      };
    }
    const until = (Number(payload.iat) + this.maxAgeSec + SKEW_SEC) * 1000;
    if (!this.replays.add(`${r.jkt} ${payload.jti}`, until, now)) return bad('The proof was used before');
    return undefined;
  }
}
