/** Part of the test authorization server: client authentication at the token endpoint. Test-only. */
import { jwtVerify } from 'jose';
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
