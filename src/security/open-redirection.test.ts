/**
 * Threat: Open Redirection (authorization security considerations, "Open Redirection").
 * Crafted redirects send the user, or the authorization response, somewhere the client did
 * not ask for.
 *
 * Defence (client side; mcpkit is not an authorization server, so exact matching of
 * registered redirect URIs is the authorization server's part): the client registers exactly
 * the redirect URI it listens on and names that one in the request and the code exchange,
 * never reusing a registration made for another; it sends a fresh state and drops any
 * response whose state is missing or different; the headless interaction only accepts a
 * redirect to its own redirect URI and follows nothing else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCredentialStore, OAuthClient, headlessInteraction } from '../auth/index.js';
import type { AuthorizationCallback, AuthorizationInteraction } from '../auth/index.js';
import { startRawServer } from '../test-support/auth-fixtures.js';
import { closeAfterEach, connectRefused, startProtected, whoami } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();
const REDIRECT = 'http://127.0.0.1:33418/callback';

/** An interaction that answers with `forge(the real response)` instead of the real response. */
function tampering(forge: (real: AuthorizationCallback) => AuthorizationCallback): AuthorizationInteraction {
  const real = headlessInteraction({ redirectUri: REDIRECT });
  return {
    redirectUri: REDIRECT,
    openAuthorizationUrl: async (url, ctx) => forge(await real.openAuthorizationUrl(url, ctx)),
  };
}

describe('open redirection', () => {
  it('drops a response without state, before redeeming its code', async () => {
    const { as, mcp } = await startProtected(later);
    const interaction = tampering(({ state: _s, ...rest }) => rest);
    await connectRefused(mcp.url, 'AuthorizationFailed', { interaction });
    assert.equal(as.count('/authorize'), 1);
    assert.equal(as.tokenRequests.length, 0);
  });

  it('drops a response whose state is not this request’s (a forged or another flow’s response)', async () => {
    const { as, mcp } = await startProtected(later);
    const interaction = tampering((real) => ({ ...real, state: 'attacker-state' }));
    await connectRefused(mcp.url, 'AuthorizationFailed', { interaction });
    assert.equal(as.tokenRequests.length, 0);
  });

  it('registers exactly its redirect URI, and never reuses a kept registration made for another', async () => {
    const { as, mcp } = await startProtected(later);
    // A poisoned credential store: a registration of this issuer for the attacker's redirect URI.
    const evil = { client_id: 'evil-client', redirect_uris: ['https://evil.example/cb'] };
    as.clients.set(evil.client_id, { ...evil, method: 'none' });
    const store = new MemoryCredentialStore();
    await store.set(as.issuer, {
      issuer: as.issuer,
      client: { ...evil, token_endpoint_auth_method: 'none' },
    });
    const interaction = headlessInteraction({ redirectUri: REDIRECT });
    const me = await whoami(new OAuthClient({ serverUrl: mcp.url, interaction, store }), mcp.url);
    assert.equal(me.subject, 'user-1');
    const registration = as.requests.find((r) => r.path === '/register');
    assert.deepEqual(registration?.body.redirect_uris, [REDIRECT]);
    const authorize = as.requests.find((r) => r.path === '/authorize')!;
    assert.notEqual(authorize.query.get('client_id'), evil.client_id);
    assert.equal(authorize.query.get('redirect_uri'), REDIRECT);
    assert.deepEqual(
      as.tokenRequests.map((t) => t.body.redirect_uri),
      [REDIRECT],
    );
  });

  it('does not follow an authorization endpoint that redirects elsewhere (headless)', async () => {
    const phishing = 'https://phishing.example/login?next=mcp';
    const redirector = await startRawServer((_req, res) => res.writeHead(302, { location: phishing }).end());
    later(() => redirector.close());
    const { as, mcp } = await startProtected(later, {
      metadata: (m) => ({ ...m, authorization_endpoint: `${redirector.origin}/authorize` }),
    });
    const interaction = headlessInteraction({ redirectUri: REDIRECT });
    const r = await connectRefused(mcp.url, 'AuthorizationFailed', { interaction });
    assert.match(r.message, /redirected to https:\/\/phishing\.example\/login/);
    assert.equal(
      r.urls.some((u) => u.includes('phishing.example')),
      false,
      'never fetched',
    );
    assert.equal(as.tokenRequests.length, 0);
  });
});
