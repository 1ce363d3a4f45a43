/** Parsing of `WWW-Authenticate` (RFC 9110 §11.6.1) and the Bearer challenge (RFC 6750, RFC 9728). */

/** One challenge: its scheme, its auth-params (names lowercased) or its token68. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** What a Bearer challenge tells an MCP client. */
export interface BearerChallenge {
  /** RFC 9728: where the protected resource metadata is. */
  resourceMetadata?: string;
  /** The scopes the current request needs, space-separated. */
  scope?: string;
  /** `invalid_token`, `insufficient_scope`, `invalid_request`... */
  error?: string;
  errorDescription?: string;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*\s*(?:,|$)/;

/**
 * Parses a `WWW-Authenticate` value into its challenges. Lenient about whitespace and
 * empty list elements; names are case-insensitive and the first occurrence wins.
 *
 * @example
 * ```ts
 * parseWwwAuthenticate('Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"');
 * // [{ scheme: 'Bearer', params: { resource_metadata: 'https://x/…', scope: 'a b' } }]
 * ```
 */
export function parseWwwAuthenticate(value: string): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  let current: AuthChallenge | undefined;
  let i = 0;
  const n = value.length;
  const skip = (chars: string): void => {
    while (i < n && chars.includes(value[i]!)) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < n && TCHAR.test(value[i]!)) i++;
    return value.slice(start, i);
  };
  while (i < n) {
    skip(' \t,');
    if (i >= n) break;
    const name = token();
    if (name === '') {
      i++; // Not a token character: skip it.
      continue;
    }
    skip(' \t');
    if (value[i] === '=' && current) {
      i++;
      skip(' \t');
      let v = '';
      if (value[i] === '"') {
        i++;
        while (i < n && value[i] !== '"') {
          if (value[i] === '\\' && i + 1 < n) i++;
          v += value[i];
          i++;
        }
        i++;
      } else {
        v = token();
      }
      const key = name.toLowerCase();
      // Own keys only: `in` saw `constructor` as present, and `__proto__` cannot be assigned.
      if (!Object.hasOwn(current.params, key)) {
        Object.defineProperty(current.params, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      continue;
    }
    current = { scheme: name, params: {} };
    out.push(current);
    const t68 = TOKEN68.exec(value.slice(i));
    if (t68) {
      current.token68 = t68[0].replace(/[\s,]+$/, '');
      i += current.token68.length;
    }
  }
  return out;
}

/**
 * The Bearer challenge of a response's `WWW-Authenticate` header, if there is one (else its
 * DPoP challenge, which has the same parameters).
 *
 * @example
 * ```ts
 * const c = bearerChallengeOf(response.headers);
 * if (c?.error === 'insufficient_scope') stepUp(c.scope);
 * ```
 */
export function bearerChallengeOf(headers: Headers): BearerChallenge | undefined {
  const value = headers.get('www-authenticate');
  if (value === null) return undefined;
  // A DPoP challenge (RFC 9449 §7.1) carries the same parameters.
  const challenges = parseWwwAuthenticate(value);
  const bearer =
    challenges.find((c) => c.scheme.toLowerCase() === 'bearer') ??
    challenges.find((c) => c.scheme.toLowerCase() === 'dpop');
  if (!bearer) return undefined;
  const p = bearer.params;
  const out: BearerChallenge = {};
  if (p.resource_metadata) out.resourceMetadata = p.resource_metadata;
  if (p.scope !== undefined && p.scope.trim() !== '') out.scope = p.scope.trim();
  if (p.error) out.error = p.error;
  if (p.error_description) out.errorDescription = p.error_description;
  return out;
}

/** Splits a space-delimited scope string into a set (RFC 6749 §3.3). */
export function scopeSet(scope: string | undefined): Set<string> {
  return new Set((scope ?? '').split(' ').filter((s) => s !== ''));
}
