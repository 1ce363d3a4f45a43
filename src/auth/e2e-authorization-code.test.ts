/**
 * End to end: our Client over Streamable HTTP, an OAuthClient, the bearer-protected server
 * and the test authorization server, for the authorization code grant and its variants.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { OAuthClient } from './client/oauth-client.js';
import { headlessInteraction } from './client/interaction.js';
import { MemoryCredentialStore } from './client/store.js';
import { callText, connectWith, recordingFetch, startProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';
import type { AuthVia, ProtectOptions } from '../test-support/auth-fixtures.js';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(asOptions: TestAsOptions = {}, mcpOptions: ProtectOptions = {}) {
  const as = await TestAuthServer.start(asOptions);
  cleanup.push(() => as.close());
  const mcp = await startProtectedMcp(as, mcpOptions);
  cleanup.push(() => mcp.close());
  return { as, mcp };
}

function oauthFor(
  url: string,
  extra: Partial<ConstructorParameters<typeof OAuthClient>[0]> = {},
): OAuthClient {
  return new OAuthClient({
    serverUrl: url,
    interaction: headlessInteraction({ redirectUri: REDIRECT }),
    ...extra,
  });
}

async function whoami(oauth: OAuthClient, url: string, via: AuthVia): Promise<Record<string, unknown>> {
  const client = await connectWith(oauth, url, 'legacy', via);
  try {
    return JSON.parse(await callText(client, 'whoami')) as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

for (const via of ['fetch', 'auth option'] as const) {
  describe(`authorization code grant, end to end (through the ${via})`, () => {
    it('discovers, registers dynamically, authorizes with PKCE and calls a tool as the user', async () => {
      const { as, mcp } = await setup({ scopesSupported: ['mcp:read'] }, { scopesSupported: ['mcp:read'] });
      const oauth = oauthFor(mcp.url);
      const me = await whoami(oauth, mcp.url, via);
      assert.equal(me.subject, 'user-1');
      assert.deepEqual(me.audience, [mcp.url]);
      assert.deepEqual(me.scopes, ['mcp:read']);
      assert.equal('token' in me, false);
      assert.equal(as.count('/register'), 1);
      const reg = as.requests.find((r) => r.path === '/register')!;
      assert.equal(reg.body.application_type, 'native');
      const authz = as.requests.find((r) => r.path === '/authorize')!;
      assert.equal(authz.query.get('code_challenge_method'), 'S256');
      assert.equal(authz.query.get('resource'), mcp.url);
      assert.equal(authz.query.get('scope'), 'mcp:read');
      const tokenReq = as.tokenRequests.find((t) => t.grant === 'authorization_code')!;
      assert.equal(tokenReq.body.resource, mcp.url);
      assert.equal(oauth.issuer, as.issuer);
    });

    it('sends the token in the Authorization header only, never in a URL', async () => {
      const { mcp } = await setup();
      const rec = recordingFetch();
      const oauth = oauthFor(mcp.url, { fetch: rec.fetch });
      await whoami(oauth, mcp.url, via);
      const token = mcp.seen.find((h) => h.authorization.startsWith('Bearer '))!.authorization.slice(7);
      assert.ok(token.length > 20);
      assert.equal(
        rec.urls.some((u) => u.includes(token)),
        false,
      );
      const toMcp = mcp.seen.filter((h) => h.path === '/mcp');
      assert.equal(
        toMcp.filter((h) => h.authorization === '').length,
        1,
        'one unauthenticated request, then the token',
      );
      assert.ok(toMcp.length >= 3);
    });

    it('reuses stored tokens in a new client (same store), without authorizing again', async () => {
      const { as, mcp } = await setup();
      const store = new MemoryCredentialStore();
      await whoami(oauthFor(mcp.url, { store }), mcp.url, via);
      await whoami(oauthFor(mcp.url, { store }), mcp.url, via);
      assert.equal(as.count('/authorize'), 1);
      assert.equal(as.count('/register'), 1);
    });

    it('refreshes an expired access token with the refresh token and the same resource', async () => {
      const { as, mcp } = await setup({ accessTokenTtl: 30 });
      const oauth = oauthFor(mcp.url);
      const client = await connectWith(oauth, mcp.url, 'legacy', via);
      try {
        await callText(client, 'whoami');
        // Every token expires within the 30 s refresh margin: each request refreshes first.
        await callText(client, 'whoami');
      } finally {
        await client.close();
      }
      const refresh = as.tokenRequests.filter((t) => t.grant === 'refresh_token');
      assert.ok(refresh.length >= 1);
      assert.equal(refresh[0]!.body.resource, mcp.url);
      assert.equal(as.count('/authorize'), 1);
    });

    it('uses a Client ID Metadata Document when the server supports them', async () => {
      const { as, mcp } = await setup({ cimd: true });
      const cimd = 'https://app.example.com/oauth/client.json';
      await whoami(oauthFor(mcp.url, { clientMetadataUrl: cimd }), mcp.url, via);
      assert.equal(as.count('/register'), 0);
      assert.equal(as.requests.find((r) => r.path === '/authorize')!.query.get('client_id'), cimd);
    });

    it('prefers pre-registered credentials, with the method the server lists', async () => {
      for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
        const { as, mcp } = await setup({
          dcr: false,
          tokenAuthMethods: [method],
          clients: [{ client_id: 'pre', client_secret: 's3cret', method, redirect_uris: [REDIRECT] }],
        });
        await whoami(
          oauthFor(mcp.url, { preRegistered: { clientId: 'pre', clientSecret: 's3cret' } }),
          mcp.url,
          via,
        );
        assert.equal(as.tokenRequests[0]!.auth, method);
      }
    });

    it('uses the public-client method none when that is what the server lists', async () => {
      const { as, mcp } = await setup({ tokenAuthMethods: ['none'] });
      await whoami(oauthFor(mcp.url), mcp.url, via);
      assert.equal(as.tokenRequests[0]!.auth, 'none');
    });

    it('asks for offline_access only when the authorization server offers it', async () => {
      const offered = await setup(
        { scopesSupported: ['mcp:read', 'offline_access'] },
        { scopesSupported: ['mcp:read'] },
      );
      await whoami(oauthFor(offered.mcp.url), offered.mcp.url, via);
      assert.equal(
        offered.as.requests.find((r) => r.path === '/authorize')!.query.get('scope'),
        'mcp:read offline_access',
      );
      const notOffered = await setup({ scopesSupported: ['mcp:read'] }, { scopesSupported: ['mcp:read'] });
      await whoami(oauthFor(notOffered.mcp.url), notOffered.mcp.url, via);
      assert.equal(
        notOffered.as.requests.find((r) => r.path === '/authorize')!.query.get('scope'),
        'mcp:read',
      );
    });

    it('omits the scope when neither the challenge nor the metadata names one', async () => {
      const { as, mcp } = await setup();
      await whoami(oauthFor(mcp.url), mcp.url, via);
      assert.equal(as.requests.find((r) => r.path === '/authorize')!.query.has('scope'), false);
    });

    it('validates RFC 9207 iss when the server sends it', async () => {
      const { as, mcp } = await setup({ iss: true });
      await whoami(oauthFor(mcp.url), mcp.url, via);
      assert.equal(as.count('/authorize'), 1);
    });

    it('steps up on 403 insufficient_scope with the union of the scopes (modern era headers)', async () => {
      const { as, mcp } = await setup(
        {},
        {
          scopesSupported: ['mcp:read'],
          requiredScopes: (r) =>
            r.header('mcp-name') === 'write' ? ['mcp:read', 'mcp:write'] : ['mcp:read'],
        },
      );
      const oauth = oauthFor(mcp.url);
      const client = await connectWith(oauth, mcp.url, 'modern', via);
      try {
        assert.equal((await callText(client, 'whoami')) !== '', true);
        assert.equal(await callText(client, 'write'), 'written');
      } finally {
        await client.close();
      }
      const scopes = as.requests.filter((r) => r.path === '/authorize').map((r) => r.query.get('scope'));
      assert.deepEqual(scopes, ['mcp:read', 'mcp:read mcp:write']);
      assert.equal(oauth.grantedScope, 'mcp:read mcp:write');
    });

    it('gives up after 3 authorizations when the server keeps answering 403', async () => {
      const grantNothing = () => 'mcp:other';
      const { as, mcp } = await setup({ grant: grantNothing }, { requiredScopes: ['mcp:admin'] });
      const oauth = oauthFor(mcp.url);
      await assert.rejects(connectWith(oauth, mcp.url, 'legacy', via), (e: Error) =>
        /403/.test(String(e.cause ?? e)),
      );
      assert.equal(as.count('/authorize'), 3);
    });

    it('authorizes again when the refresh token is refused', async () => {
      const { as, mcp } = await setup({ accessTokenTtl: 30 });
      const store = new MemoryCredentialStore();
      const oauth = oauthFor(mcp.url, { store });
      const client = await connectWith(oauth, mcp.url, 'legacy', via);
      try {
        as.refreshTokens.clear();
        assert.match(await callText(client, 'whoami'), /user-1/);
      } finally {
        await client.close();
      }
      assert.equal(as.count('/authorize'), 2);
      assert.equal(as.tokenRequests.filter((t) => t.grant === 'refresh_token').length >= 1, true);
    });

    it('authorizes before connecting with authorize(), and forgets with signOut()', async () => {
      const { as, mcp } = await setup();
      const store = new MemoryCredentialStore();
      const oauth = oauthFor(mcp.url, { store });
      await oauth.authorize();
      assert.equal(as.count('/authorize'), 1);
      await whoami(oauth, mcp.url, via);
      assert.equal(mcp.seen.filter((h) => h.path === '/mcp' && h.authorization === '').length, 0);
      await oauth.signOut();
      assert.deepEqual((await store.get(as.issuer))?.tokens, {});
      await whoami(oauth, mcp.url, via);
      assert.equal(as.count('/authorize'), 2);
    });
  });
}
