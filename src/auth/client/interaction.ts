/**
 * The user-interaction seam of the authorization code flow: something shows the user the
 * authorization URL and hands back the parameters of the redirect. A browser opener with a
 * loopback listener lives in `mcpkit/auth/node`; {@link headlessInteraction} follows the
 * redirect itself, for tests and for authorization servers that approve at once.
 */
import { AuthError } from '../errors.js';
import type { GuardedFetch } from './guarded-fetch.js';
import { hostKind, shownUrl } from './network-policy.js';

/** The parameters of the authorization response (RFC 6749 §4.1.2, RFC 9207). */
export interface AuthorizationCallback {
  code?: string;
  state?: string;
  /** RFC 9207: the issuer that answered. */
  iss?: string;
  error?: string;
  error_description?: string;
  error_uri?: string;
}

/** What the client gives an interaction along with the URL. */
export interface InteractionContext {
  /** The redirect URI the authorization request names. */
  redirectUri: string;
  /** A fetch that applies the client's network policy (for headless interactions). */
  fetch: GuardedFetch;
  signal?: AbortSignal;
}

/**
 * Shows the user an authorization URL and resolves with the redirect's parameters. The URL
 * has already been checked (https, or http on loopback); never open it through a shell.
 *
 * @example
 * ```ts
 * const interaction: AuthorizationInteraction = {
 *   redirectUri: 'http://127.0.0.1:8765/callback',
 *   async openAuthorizationUrl(url) {
 *     window.open(url.href, '_blank', 'noopener');
 *     return waitForCallbackMessage(); // { code, state, iss }
 *   },
 * };
 * ```
 */
export interface AuthorizationInteraction {
  readonly redirectUri: string;
  openAuthorizationUrl(url: URL, context: InteractionContext): Promise<AuthorizationCallback>;
}

/**
 * Checks a redirect URI: `https:`, or `http:` on a loopback host (the spec's rule), no
 * fragment. Returns the application type it implies for Dynamic Client Registration.
 *
 * @example
 * ```ts
 * checkRedirectUri('http://127.0.0.1:3000/callback'); // 'native'
 * checkRedirectUri('http://example.com/cb');          // throws InvalidConfiguration
 * ```
 */
export function checkRedirectUri(uri: string): 'native' | 'web' {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new AuthError('InvalidConfiguration', `The redirect URI ${uri} is not an absolute URL`);
  }
  const loopback = hostKind(url.hostname) === 'loopback';
  if (url.hash !== '') throw new AuthError('InvalidConfiguration', 'A redirect URI must not have a fragment');
  if (url.protocol === 'https:') return loopback ? 'native' : 'web';
  if (url.protocol === 'http:' && loopback) return 'native';
  throw new AuthError(
    'InvalidConfiguration',
    `The redirect URI ${shownUrl(url)} must be https or http on loopback`,
  );
}

/**
 * Whether `url` is the redirect URI (same origin and path; the query holds the response).
 *
 * @example
 * ```ts
 * isRedirectTo(new URL('http://127.0.0.1:3000/callback?code=x'), 'http://127.0.0.1:3000/callback'); // true
 * ```
 */
export function isRedirectTo(url: URL, redirectUri: string): boolean {
  const r = new URL(redirectUri);
  return url.origin === r.origin && url.pathname === r.pathname;
}

/**
 * The authorization response carried by a redirect URL's query.
 *
 * @example
 * ```ts
 * callbackFromUrl(new URL('http://127.0.0.1:3000/callback?code=abc&state=xyz')); // { code: 'abc', state: 'xyz' }
 * ```
 */
export function callbackFromUrl(url: URL): AuthorizationCallback {
  const out: AuthorizationCallback = {};
  for (const key of ['code', 'state', 'iss', 'error', 'error_description', 'error_uri'] as const) {
    const v = url.searchParams.get(key);
    if (v !== null) out[key] = v;
  }
  return out;
}

/**
 * An interaction without a user: it GETs the authorization URL (through the client's
 * network policy, without following redirects) and reads the response from the `Location`
 * of the redirect to `redirectUri`. Works with authorization servers that approve at once,
 * such as test servers and the conformance suite's mocks; anything else (a login page)
 * fails with `AuthorizationFailed`.
 *
 * @example
 * ```ts
 * const oauth = new OAuthClient({ serverUrl, interaction: headlessInteraction(), network: { allowLoopback: true } });
 * ```
 */
export function headlessInteraction(options: { redirectUri?: string } = {}): AuthorizationInteraction {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:33418/callback';
  checkRedirectUri(redirectUri);
  return {
    redirectUri,
    async openAuthorizationUrl(url, context) {
      const init: { what: string; signal?: AbortSignal } = { what: 'authorization URL' };
      if (context.signal) init.signal = context.signal;
      const response = await context.fetch.fetch(url, init);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        throw new AuthError(
          'AuthorizationFailed',
          `The authorization endpoint answered ${response.status} instead of redirecting (a user must log in?)`,
        );
      }
      const target = new URL(location, url);
      if (!isRedirectTo(target, context.redirectUri)) {
        throw new AuthError(
          'AuthorizationFailed',
          `The authorization endpoint redirected to ${shownUrl(target)}`,
        );
      }
      return callbackFromUrl(target);
    },
  };
}
