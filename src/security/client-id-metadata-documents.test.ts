/**
 * Threat: Client ID Metadata Document Security (authorization security considerations) and
 * CIMD Trust Policies (security best practices). A URL-based client identity is only as
 * trustworthy as the origin serving it: a document on plain http, or on a bare origin, can
 * be served or replaced by someone else; and the authorization server fetching it can be
 * pointed at internal URLs.
 *
 * mcpkit is not an authorization server: fetching documents (and guarding that fetch against
 * SSRF), trust policies per domain, and showing the client's host to the user are the
 * authorization server's part. On the client side: a `clientMetadataUrl` must be https with
 * a path, checked when the client is built, before anything is sent; it is used only with an
 * authorization server that advertises support, as a public client (nothing registered, no
 * secret sent).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError, OAuthClient, headlessInteraction } from '../auth/index.js';
import { closeAfterEach, startProtected, whoami } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();
const DOCUMENT = 'https://client.example.com/oauth/client-metadata.json';

describe('client ID metadata documents', () => {
  for (const url of [
    'http://client.example.com/oauth/client-metadata.json',
    'https://client.example.com',
    'https://client.example.com/',
    'https://client.example.com/oauth/client-metadata.json#fragment',
    'client-metadata.json',
  ]) {
    it(`refuses the client metadata URL ${url} before sending anything`, () => {
      let sent = 0;
      const counting = (): Promise<Response> => {
        sent++;
        return Promise.reject(new Error('never'));
      };
      assert.throws(
        () =>
          new OAuthClient({
            serverUrl: 'https://mcp.example.com/mcp',
            interaction: headlessInteraction(),
            clientMetadataUrl: url,
            fetch: counting,
          }),
        (e: unknown) => e instanceof AuthError && e.code === 'InvalidConfiguration',
      );
      assert.equal(sent, 0);
    });
  }

  it('identifies with the document only where the server supports it, as a public client', async () => {
    const { as, mcp } = await startProtected(later, { cimd: true });
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      interaction: headlessInteraction(),
      clientMetadataUrl: DOCUMENT,
    });
    assert.equal((await whoami(oauth, mcp.url)).subject, 'user-1');
    assert.equal(as.count('/register'), 0, 'nothing registered');
    assert.equal(as.requests.find((r) => r.path === '/authorize')?.query.get('client_id'), DOCUMENT);
    const token = as.requests.find((r) => r.path === '/token')!;
    assert.equal(token.body.client_id, DOCUMENT);
    assert.equal(token.headers.authorization, undefined, 'no client secret');
    assert.equal(token.body.client_secret, undefined);
    assert.equal(token.body.client_assertion, undefined);
  });
});
