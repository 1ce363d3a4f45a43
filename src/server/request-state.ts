/**
 * Integrity-protected MRTR `requestState`. The state travels through the client, so it is
 * attacker-controlled input: it is signed with HMAC-SHA-256, carries an expiry, the
 * method, a digest of the request it belongs to and the principal, and every one of those
 * is checked when it comes back.
 */

/** Seals and opens request state. Swap it for a shared-key implementation to run many nodes. */
export interface RequestStateCodec {
  seal(payload: Record<string, unknown>): Promise<string>;
  /** The payload, or null when the token is forged, tampered with or malformed. */
  open(token: string): Promise<Record<string, unknown> | null>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/**
 * HMAC-SHA-256 request state. With no key, a random one is made per process: fine for one
 * process, but servers behind a load balancer must share a configured key.
 *
 * @example
 * ```ts
 * new McpServer(info, { requestState: new HmacRequestState(process.env.MRTR_KEY) });
 * ```
 */
export class HmacRequestState implements RequestStateCodec {
  /** The secret, until the key is made from it; undefined for a random per-process key. */
  private readonly raw: Uint8Array | undefined;
  private keyPromise: Promise<CryptoKey> | undefined;

  constructor(secret?: string | Uint8Array) {
    const raw = secret === undefined ? undefined : typeof secret === 'string' ? enc.encode(secret) : secret;
    if (raw !== undefined && raw.length < 16) {
      throw new RangeError('The request state key needs at least 16 bytes');
    }
    this.raw = raw;
  }

  /**
   * The key, made on first use: Cloudflare Workers forbid randomness and crypto at global
   * scope, where a server is commonly built.
   */
  private get key(): Promise<CryptoKey> {
    return (this.keyPromise ??= crypto.subtle.importKey(
      'raw',
      (this.raw ?? crypto.getRandomValues(new Uint8Array(32))) as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ));
  }

  async seal(payload: Record<string, unknown>): Promise<string> {
    const body = enc.encode(JSON.stringify(payload));
    const sig = new Uint8Array(await crypto.subtle.sign('HMAC', await this.key, body));
    return `${toBase64Url(body)}.${toBase64Url(sig)}`;
  }

  async open(token: string): Promise<Record<string, unknown> | null> {
    if (typeof token !== 'string' || token.length > 1_000_000) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const body = fromBase64Url(token.slice(0, dot));
    const sig = fromBase64Url(token.slice(dot + 1));
    if (!body || !sig) return null;
    const ok = await crypto.subtle.verify(
      'HMAC',
      await this.key,
      sig as Uint8Array<ArrayBuffer>,
      body as Uint8Array<ArrayBuffer>,
    );
    if (!ok) return null;
    try {
      const value: unknown = JSON.parse(dec.decode(body));
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }
}

/** A stable digest of a request's salient parameters, so state cannot move between requests. */
export async function digestRequest(method: string, salient: unknown): Promise<string> {
  const bytes = enc.encode(method + '\n' + canonicalJson(salient));
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const keys = Object.keys(value).sort();
  return (
    '{' +
    keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => JSON.stringify(k) + ':' + canonicalJson((value as Record<string, unknown>)[k]))
      .join(',') +
    '}'
  );
}
