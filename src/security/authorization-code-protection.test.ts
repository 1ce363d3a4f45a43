/**
 * Threat: Authorization Code Protection (authorization security considerations,
 * "Authorization Code Protection"; OAuth 2.1 §7.5). Someone who gets hold of an authorization
 * code (from the redirect, a log, a forged or replayed response) redeems it or injects it.
 *
 * Defence: PKCE with S256 on every authorization, the authorization server's support checked
 * in its metadata before anything is registered or opened (absent, empty or `plain` only:
 * refused); a fresh verifier per authorization that only ever travels to the token endpoint;
 * a fresh state per authorization, checked before the code is redeemed, so a replayed
 * response is dropped (forged responses: open-redirection.test.ts).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { OAuthClient, headlessInteraction } from '../auth/index.js';
import type { AuthorizationCallback, AuthorizationInteraction } from '../auth/index.js';
import { closeAfterEach, connectRefused, startProtected, whoami } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();
const REDIRECT = 'http://127.0.0.1:33418/callback';
const s256 = (v: string): string => createHash('sha256').update(v).digest('base64url');

describe('authorization code protection', () => {
  for (const [what, change] of [
    ['no code_challenge_methods_supported', { code_challenge_methods_supported: undefined }],
    ['plain only (a downgrade)', { code_challenge_methods_supported: ['plain'] }],
    ['an empty list', { code_challenge_methods_supported: [] }],
  ] as const) {
    it(`refuses an authorization server advertising ${what} before registering or opening anything`, async () => {
      const { as, mcp } = await startProtected(later, { metadata: (m) => ({ ...m, ...change }) });
      const r = await connectRefused(mcp.url, 'PkceNotSupported');
      assert.equal(r.opened.length, 0);
      assert.equal(as.count('/register') + as.count('/authorize') + as.count('/token'), 0);
    });
  }

  it('refuses OpenID Connect discovery metadata without code_challenge_methods_supported', async () => {
    const { as, mcp } = await startProtected(later, {
      metadataAt: 'oidc-inserted',
      metadata: (m) => ({ ...m, code_challenge_methods_supported: undefined }),
    });
    const r = await connectRefused(mcp.url, 'PkceNotSupported');
    assert.equal(r.opened.length, 0);
    assert.equal(as.count('/register'), 0);
  });

  it('an observer of the front channel never sees the verifier: S256, fresh per authorization', async () => {
    const { as, mcp } = await startProtected(later);
    const fronts: string[] = [];
    const watched: AuthorizationInteraction = {
      redirectUri: REDIRECT,
      async openAuthorizationUrl(url, ctx) {
        fronts.push(url.href);
        const callback = await headlessInteraction({ redirectUri: REDIRECT }).openAuthorizationUrl(url, ctx);
        fronts.push(JSON.stringify(callback));
        return callback;
      },
    };
    for (let i = 0; i < 2; i++) {
      const me = await whoami(new OAuthClient({ serverUrl: mcp.url, interaction: watched }), mcp.url);
      assert.equal(me.subject, 'user-1');
    }
    const authorizations = as.requests.filter((r) => r.path === '/authorize');
    const redemptions = as.tokenRequests.filter((t) => t.grant === 'authorization_code');
    assert.equal(authorizations.length, 2);
    assert.equal(redemptions.length, 2);
    const verifiers = redemptions.map((t) => t.body.code_verifier!);
    assert.notEqual(verifiers[0], verifiers[1], 'a fresh verifier per authorization');
    authorizations.forEach((a, i) => {
      assert.equal(a.query.get('code_challenge_method'), 'S256');
      assert.equal(a.query.get('code_challenge'), s256(verifiers[i]!));
    });
    for (const v of verifiers) {
      assert.ok(v.length >= 43);
      assert.equal(
        fronts.some((f) => f.includes(v)),
        false,
        'the verifier is never in the authorization URL or the response',
      );
    }
  });

  it('a code injected into the response, even with the right state, is not redeemed for the attacker', async () => {
    // The attacker knows this flow's state and the public client_id, and obtains a code
    // of its own (bound to its own PKCE challenge) for the same client and redirect URI.
    const { as, mcp } = await startProtected(later);
    const injected: string[] = [];
    const injecting: AuthorizationInteraction = {
      redirectUri: REDIRECT,
      async openAuthorizationUrl(url) {
        const own = new URL(url);
        own.searchParams.set('code_challenge', s256('the-attackers-own-verifier-of-forty-three-chars'));
        const res = await fetch(own, { redirect: 'manual' });
        const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
        injected.push(code);
        return { code, state: url.searchParams.get('state')! };
      },
    };
    const r = await connectRefused(mcp.url, 'TokenRequestFailed', { interaction: injecting });
    assert.match(r.message, /invalid_grant/);
    assert.equal(injected.length, 1);
    assert.deepEqual(
      as.tokenRequests.map((t) => [t.grant, t.body.code]),
      [['authorization_code', injected[0]]],
    );
    assert.equal(
      mcp.seen.some((s) => s.authorization !== ''),
      false,
      'no token ever reached the MCP server',
    );
  });

  it('a replayed response (an earlier code and state) is dropped before redemption', async () => {
    const { as, mcp } = await startProtected(later);
    let saved: AuthorizationCallback | undefined;
    const real = headlessInteraction({ redirectUri: REDIRECT });
    const replaying: AuthorizationInteraction = {
      redirectUri: REDIRECT,
      async openAuthorizationUrl(url, ctx) {
        saved ??= await real.openAuthorizationUrl(url, ctx);
        return saved;
      },
    };
    await whoami(new OAuthClient({ serverUrl: mcp.url, interaction: replaying }), mcp.url);
    await connectRefused(mcp.url, 'AuthorizationFailed', { interaction: replaying });
    assert.equal(as.tokenRequests.filter((t) => t.grant === 'authorization_code').length, 1);
  });
});
