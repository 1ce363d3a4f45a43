/**
 * Workload identity federation (SEP-1933): a workload (a CI job, a pod, a cloud function)
 * holds a JWT its platform issued, and trades it at the MCP server's authorization server
 * for an access token with the RFC 7523 JWT-bearer grant. No user, no client secret.
 */
import { AuthError } from '../errors.js';
import type { AssertionProvider } from './cross-app-access.js';

/** Where the workload's JWT comes from: the token itself, or a function that reads a fresh one. */
export type WorkloadTokenSource = string | (() => string | Promise<string>);

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * An {@link AssertionProvider} that presents the workload's platform-issued JWT as the
 * JWT-bearer assertion. A function source is called for every token request, so a token
 * file the platform rotates (a Kubernetes projected service account token, say) is read
 * fresh each time. Use it with `grant: { type: 'jwt_bearer', assertion }`; a refused
 * assertion surfaces as the authorization server's error, without retrying or falling back
 * to another grant.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const tokenPath = '/var/run/secrets/tokens/mcp-token';
 * const oauth = new OAuthClient({
 *   serverUrl,
 *   preRegistered: { clientId: 'ci-deployer' },
 *   grant: { type: 'jwt_bearer', assertion: workloadIdentity(() => readFile(tokenPath, 'utf8')) },
 * });
 * ```
 */
export function workloadIdentity(source: WorkloadTokenSource): AssertionProvider {
  return async () => {
    const raw = typeof source === 'string' ? source : await source();
    const token = raw.trim();
    if (!JWT.test(token)) {
      throw new AuthError('InvalidConfiguration', 'The workload identity token is not a compact JWT');
    }
    return token;
  };
}
