/**
 * Parts of the test authorization server: client authentication at the token endpoint, and
 * the identity provider's token exchange for an ID-JAG. Test-only.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { LoggedRequest, TestAuthServer } from './auth-test-server.js';

/** Authenticates the client of a token request; returns its id or an error. */
export async function authenticateClient(
  as: TestAuthServer,
  log: LoggedRequest,
): Promise<{ id: string; method: string } | { error: string }> {
  const h = log.headers.authorization;
  const b = log.body;
  let id: string | undefined;
  let method = 'none';
  let secret: string | undefined;
  if (h?.startsWith('Basic ')) {
    const [u, pw] = Buffer.from(h.slice(6), 'base64').toString('utf8').split(':');
    id = decodeURIComponent((u ?? '').replace(/\+/g, ' '));
    secret = decodeURIComponent((pw ?? '').replace(/\+/g, ' '));
    method = 'client_secret_basic';
  } else if (b.client_assertion !== undefined) {
    method = 'private_key_jwt';
    id = b.client_id;
  } else if (b.client_secret !== undefined) {
    id = b.client_id;
    secret = b.client_secret;
    method = 'client_secret_post';
  } else {
    id = b.client_id;
  }
  if (id === undefined) return { error: 'invalid_client' };
  if (id.startsWith('https://') && as.options.cimd && method === 'none') return { id, method };
  const client = as.clients.get(id);
  if (!client || client.method !== method) return { error: 'invalid_client' };
  if (method.startsWith('client_secret') && secret !== client.client_secret)
    return { error: 'invalid_client' };
  if (method === 'private_key_jwt') {
    try {
      const { payload } = await jwtVerify(b.client_assertion!, client.publicKey!, {
        audience: as.issuer,
      });
      if (payload.iss !== id || payload.sub !== id) return { error: 'invalid_client' };
    } catch {
      return { error: 'invalid_client' };
    }
  }
  return { id, method };
}

/** As identity provider: an ID token for an ID-JAG (RFC 8693). */
export async function exchangeForIdJag(
  as: TestAuthServer,
  b: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  as.tokenRequests.push({ grant: b.grant_type!, auth: 'none', body: b });
  const ok =
    b.requested_token_type === 'urn:ietf:params:oauth:token-type:id-jag' &&
    b.subject_token_type === 'urn:ietf:params:oauth:token-type:id_token' &&
    b.audience &&
    b.resource &&
    b.subject_token;
  if (!ok) return { status: 400, body: { error: 'invalid_request' } };
  try {
    const { payload } = await jwtVerify(b.subject_token!, as.keys.publicKey, { issuer: as.issuer });
    const jag = await new SignJWT({
      sub: payload.sub,
      resource: b.resource,
      client_id: as.options.jagClientId,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
      .setIssuer(as.issuer)
      .setAudience(b.audience!)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(as.keys.privateKey);
    const body = {
      access_token: jag,
      issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      token_type: 'N_A',
    };
    return { status: 200, body };
  } catch {
    return { status: 400, body: { error: 'invalid_grant' } };
  }
}
