/**
 * Plain words for the OAuth debugger's failures: what went wrong, why the client refuses,
 * and what to change. Keyed on the OAuth client's own error codes, so an explanation always
 * matches the check that failed.
 */
import { findAuthError } from '../auth/errors.js';

/** A failure as the page shows it. */
export interface Explained {
  /** The OAuth client's error code (`IssuerMismatch`...), or `Timeout`, `Error`. */
  code: string;
  /** A short title: "Authorization server mix-up". */
  title: string;
  /** What happened and why it matters, in plain words. */
  explanation: string;
  /** The error's own message. */
  message: string;
}

const TITLES: Record<string, [string, string]> = {
  IssuerMismatch: [
    'Authorization server mix-up (issuer mismatch)',
    'The metadata names a different issuer than the one it was fetched for. RFC 8414 §3.3 requires ' +
      'the two to be identical: otherwise one authorization server could pose as another and receive ' +
      'the authorization code or the tokens meant for it. The client stops here. Fix the "issuer" in the ' +
      "authorization server's metadata (or the authorization_servers list of the resource metadata).",
  ],
  ResourceMismatch: [
    'Resource mismatch',
    'The protected resource metadata describes another resource than the MCP server you connected to. ' +
      'RFC 9728 §3.3 requires its "resource" to be the server\'s own URL: otherwise a token could be ' +
      'requested for, and then used at, another server. Make "resource" the exact URL of the MCP endpoint.',
  ],
  UnsafeUrl: [
    'Address refused by the SSRF guard',
    'A URL of the flow points at a loopback, private or link-local address (or plain http to a ' +
      'public host). A malicious MCP server controls every URL of discovery, so with the guard on the ' +
      'client only reaches public https addresses: otherwise it could be made to fetch internal ' +
      'services or cloud metadata. Turn the guard off only for servers you run yourself.',
  ],
  PkceNotSupported: [
    'No PKCE with S256',
    'The authorization server does not list S256 in code_challenge_methods_supported. MCP requires ' +
      'PKCE with S256 so that an intercepted authorization code is useless; the client refuses to ' +
      'authorize rather than send the user to a server that may ignore the challenge.',
  ],
  DiscoveryFailed: [
    'Discovery failed',
    'A metadata document could not be fetched or read: it is missing, not a JSON object, too large, ' +
      'or the server did not answer in time. The exchange below shows what came back.',
  ],
  RegistrationFailed: [
    'No client identity',
    'The client could not get a client ID: no pre-registered credentials, no Client ID Metadata ' +
      'Document support, and dynamic registration failed or is not offered.',
  ],
  AuthorizationFailed: [
    'Authorization refused',
    'The authorization response was an error, or did not match the request (state), so the code ' +
      'in it is not used.',
  ],
  TokenRequestFailed: [
    'Token request failed',
    'The token endpoint refused the request; its error is below. An invalid_grant usually means ' +
      'the code or refresh token was used already, expired, or was issued for another client or resource.',
  ],
  InvalidConfiguration: [
    'Configuration refused',
    'An option of the flow cannot work with this server (see the message).',
  ],
};

/** Explains an error of a step. */
export function explain(e: unknown): Explained {
  const auth = findAuthError(e);
  const message = e instanceof Error ? e.message : String(e);
  let timedOut = /No answer within|timed out after/.test(message);
  for (let c: unknown = e, d = 0; c instanceof Error && d < 8 && !timedOut; c = c.cause, d++)
    timedOut = c.name === 'TimeoutError';
  if (timedOut) {
    return {
      code: 'Timeout',
      title: 'No answer in time',
      explanation:
        "The server did not answer within the debugger's timeout. It may be down, slow, or holding the " +
        'connection open on purpose; the flow stops instead of waiting forever.',
      message,
    };
  }
  if (auth) {
    const [title, explanation] = TITLES[auth.code] ?? ['OAuth error', 'See the message.'];
    let full = auth.message;
    for (let c: unknown = auth.cause, d = 0; c instanceof Error && d < 4; c = c.cause, d++) {
      if (c.name === 'TimeoutError') {
        return { ...explain(new Error('No answer within the timeout')), message: auth.message };
      }
      if (!full.includes(c.message)) full += ` (${c.message})`;
    }
    return { code: auth.code, title, explanation, message: full };
  }
  return { code: 'Error', title: 'Step failed', explanation: 'See the message.', message };
}
