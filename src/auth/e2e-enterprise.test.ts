/**
 * Enterprise-Managed Authorization (SEP-990, final text) end to end on 127.0.0.1: an
 * enterprise IdP, the MCP server's authorization server and the MCP server, each on its own
 * port. Our client exchanges the user's ID token for an ID-JAG at the IdP (RFC 8693), redeems
 * it with the jwt-bearer grant (RFC 7523) and calls a tool; then every attack the text's
 * checks defend against is refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { OAuthClient } from './client/oauth-client.js';
import type { OAuthClientOptions } from './client/oauth-client.js';
import { crossAppAccess } from './client/cross-app-access.js';
import type { AssertionProvider, CrossAppAccessOptions } from './client/cross-app-access.js';
import { callText, connectWith, startProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';
import { closeAfterEach, connectRefused, startProtected, whoami } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** An enterprise IdP, and an authorization server trusting it in front of a protected MCP server. */
async function enterprise(idpOptions: TestAsOptions = {}, asOptions: TestAsOptions = {}) {
  const idp = await TestAuthServer.start({
    jagClientId: 'xaa-app',
    clients: [{ client_id: 'idp-app', client_secret: 'idp-secret', method: 'client_secret_post' }],
    ...idpOptions,
  });
  later(() => idp.close());
  const { as, mcp } = await startProtected(
    later,
    {
      grantTypes: [JWT_BEARER],
      tokenAuthMethods: ['client_secret_basic'],
      clients: [{ client_id: 'xaa-app', client_secret: 'xaa-secret', method: 'client_secret_basic' }],
      trustedIdps: [{ issuer: idp.issuer, jwksUri: `${idp.issuer}/jwks` }],
      ...asOptions,
    },
    { scopesSupported: ['mcp:read'] },
  );
  const idToken = await idp.sign({ sub: 'alice', aud: 'idp-app' }, 300, 'JWT');
  return { idp, as, mcp, idToken };
}

function idpOf(idp: TestAuthServer, idToken: string): CrossAppAccessOptions {
  return {
    idpTokenEndpoint: `${idp.issuer}/token`,
    idToken,
    idpClientId: 'idp-app',
    idpClientSecret: 'idp-secret',
    idpAuthMethod: 'client_secret_post',
  };
}

function options(url: string, assertion: AssertionProvider, extra: Partial<OAuthClientOptions> = {}) {
  return {
    serverUrl: url,
    grant: { type: 'jwt_bearer' as const, assertion },
    preRegistered: { clientId: 'xaa-app', clientSecret: 'xaa-secret' },
    ...extra,
  };
}

/** The cross-app access provider, asked with a changed context (a confused or hostile client). */
function twisted(base: AssertionProvider, change: { issuer?: string; resource?: string }): AssertionProvider {
  return Object.assign((ctx: Parameters<AssertionProvider>[0]) => base({ ...ctx, ...change }), {
    grantProfile: base.grantProfile!,
  });
}

/** Expects the authorization server to refuse the ID-JAG: the refusal names `why`. */
async function refusedAtAs(
  url: string,
  as: TestAuthServer,
  assertion: AssertionProvider,
  why: RegExp,
): Promise<void> {
  const r = await connectRefused(url, 'TokenRequestFailed', options(url, assertion));
  assert.match(r.message, why);
  assert.equal(as.tokenRequests.at(-1)!.grant, JWT_BEARER);
}

describe('enterprise-managed authorization', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`gets a token through IdP and authorization server and calls a tool (${era} era)`, async () => {
      const { idp, as, mcp, idToken } = await enterprise();
      const oauth = new OAuthClient(options(mcp.url, crossAppAccess(idpOf(idp, idToken))));
      const client = await connectWith(oauth, mcp.url, era);
      const me = JSON.parse(await callText(client, 'whoami')) as Record<string, unknown>;
      await client.close();
      assert.equal(me.subject, 'alice');
      assert.equal(me.clientId, 'xaa-app');
      assert.deepEqual(me.audience, [mcp.url]);
      assert.deepEqual(me.scopes, ['mcp:read']);
      // §4: the token exchange at the IdP, authenticated like the IdP's own client.
      const exchange = idp.tokenRequests[0]!;
      assert.equal(exchange.grant, TOKEN_EXCHANGE);
      assert.equal(exchange.auth, 'client_secret_post');
      assert.equal(exchange.body.subject_token, idToken);
      assert.equal(exchange.body.subject_token_type, 'urn:ietf:params:oauth:token-type:id_token');
      assert.equal(exchange.body.requested_token_type, 'urn:ietf:params:oauth:token-type:id-jag');
      assert.equal(exchange.body.audience, as.issuer);
      assert.equal(exchange.body.resource, mcp.url);
      assert.equal(exchange.body.scope, 'mcp:read');
      // §4.3: the ID-JAG's type and claims.
      const redeem = as.tokenRequests[0]!;
      assert.equal(redeem.grant, JWT_BEARER);
      assert.equal(redeem.auth, 'client_secret_basic');
      const jag = redeem.body.assertion!;
      assert.equal(decodeProtectedHeader(jag).typ, 'oauth-id-jag+jwt');
      const claims = decodeJwt(jag);
      assert.equal(claims.iss, idp.issuer);
      assert.equal(claims.sub, 'alice');
      assert.equal(claims.aud, as.issuer);
      assert.equal(claims.resource, mcp.url);
      assert.equal(claims.client_id, 'xaa-app');
      assert.equal(claims.scope, 'mcp:read');
      for (const c of ['jti', 'iat', 'exp'] as const) assert.notEqual(claims[c], undefined, c);
      // Nobody was sent to a browser.
      assert.equal(as.count('/authorize') + idp.count('/authorize'), 0);
    });
  }

  it('grants only the scope the IdP policy allowed', async () => {
    const { idp, mcp, idToken } = await enterprise({ idpPolicy: () => 'mcp:read' });
    const oauth = new OAuthClient(
      options(mcp.url, crossAppAccess(idpOf(idp, idToken)), { scope: 'mcp:read mcp:admin' }),
    );
    const me = await whoami(oauth, mcp.url);
    assert.deepEqual(me.scopes, ['mcp:read']);
    assert.equal(idp.tokenRequests[0]!.body.scope, 'mcp:read mcp:admin');
  });

  it('refuses an authorization server that does not list the ID-JAG profile, asking the IdP nothing', async () => {
    const { idp, as, mcp, idToken } = await enterprise(
      {},
      {
        metadata: (m) => {
          delete m.authorization_grant_profiles_supported;
          return m;
        },
      },
    );
    const r = await connectRefused(
      mcp.url,
      'InvalidConfiguration',
      options(mcp.url, crossAppAccess(idpOf(idp, idToken))),
    );
    assert.match(r.message, /authorization_grant_profiles_supported/);
    assert.equal(idp.tokenRequests.length + as.tokenRequests.length, 0);
  });

  it('goes ahead without the listed profile only when told to (a server older than the field)', async () => {
    const { idp, mcp, idToken } = await enterprise(
      {},
      {
        metadata: (m) => {
          delete m.authorization_grant_profiles_supported;
          return m;
        },
      },
    );
    const lax = crossAppAccess({ ...idpOf(idp, idToken), requireAdvertisedProfile: false });
    const me = await whoami(new OAuthClient(options(mcp.url, lax)), mcp.url);
    assert.equal(me.subject, 'alice');
  });

  it('reports an IdP policy refusal as TokenRequestFailed, asking the authorization server nothing', async () => {
    const { idp, as, mcp, idToken } = await enterprise({ idpPolicy: () => false });
    const r = await connectRefused(
      mcp.url,
      'TokenRequestFailed',
      options(mcp.url, crossAppAccess(idpOf(idp, idToken))),
    );
    assert.match(r.message, /token exchange at the identity provider failed: 400 invalid_grant/);
    assert.equal(as.tokenRequests.length, 0);
  });

  it('uses its Client ID Metadata Document as client ID when not pre-registered (§5)', async () => {
    const cimd = 'https://client.example/mcp-client.json';
    const { idp, as, mcp, idToken } = await enterprise(
      { jagClientId: cimd },
      { clients: [], cimd: true, tokenAuthMethods: ['none'] },
    );
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      grant: { type: 'jwt_bearer', assertion: crossAppAccess(idpOf(idp, idToken)) },
      clientMetadataUrl: cimd,
    });
    const me = await whoami(oauth, mcp.url);
    assert.equal(me.clientId, cimd);
    assert.equal(as.tokenRequests[0]!.body.client_id, cimd);
    assert.equal(as.count('/register'), 0);
  });
});

describe('enterprise-managed authorization attacks', () => {
  it('refuses an ID-JAG for another authorization server (audience)', async () => {
    const { idp, as, mcp, idToken } = await enterprise();
    const jag = twisted(crossAppAccess(idpOf(idp, idToken)), { issuer: 'https://other-as.example' });
    await refusedAtAs(mcp.url, as, jag, /invalid_grant.*"aud"/);
  });

  it('refuses an expired ID-JAG', async () => {
    const { idp, as, mcp, idToken } = await enterprise({ idJagTtl: -60 });
    await refusedAtAs(mcp.url, as, crossAppAccess(idpOf(idp, idToken)), /invalid_grant.*"exp"/);
  });

  it('refuses an ID-JAG from an IdP that is not trusted', async () => {
    const { as, mcp } = await enterprise();
    const rogue = await TestAuthServer.start({
      jagClientId: 'xaa-app',
      clients: [{ client_id: 'idp-app', client_secret: 'idp-secret', method: 'client_secret_post' }],
    });
    later(() => rogue.close());
    const idToken = await rogue.sign({ sub: 'mallory', aud: 'idp-app' }, 300, 'JWT');
    await refusedAtAs(mcp.url, as, crossAppAccess(idpOf(rogue, idToken)), /issuer is not trusted/);
    assert.equal(rogue.tokenRequests.length, 1, 'the rogue IdP did issue one');
  });

  it('refuses a replayed ID-JAG', async () => {
    const { idp, as, mcp, idToken } = await enterprise();
    const real = crossAppAccess(idpOf(idp, idToken));
    let kept: string | undefined;
    const keeping = Object.assign(
      async (ctx: Parameters<AssertionProvider>[0]) => (kept ??= await real(ctx)),
      {
        grantProfile: real.grantProfile!,
      },
    );
    const me = await whoami(new OAuthClient(options(mcp.url, keeping)), mcp.url);
    assert.equal(me.subject, 'alice');
    await refusedAtAs(mcp.url, as, keeping, /already used/);
    assert.equal(idp.tokenRequests.length, 1, 'the second attempt presented the same ID-JAG');
  });

  it('refuses a JWT of the trusted IdP that is not typed as an ID-JAG', async () => {
    const { idp, as, mcp } = await enterprise();
    const claims = { sub: 'alice', aud: as.issuer, resource: mcp.url, client_id: 'xaa-app' };
    const untyped = Object.assign(async () => idp.sign(claims, 300, 'JWT'), {
      grantProfile: 'urn:ietf:params:oauth:grant-profile:id-jag',
    });
    await refusedAtAs(mcp.url, as, untyped, /invalid_grant.*"typ"/);
  });

  it('the IdP refuses a token exchange without its client authentication', async () => {
    const { idp, as, mcp, idToken } = await enterprise();
    const { idpClientSecret: _s, idpAuthMethod: _m, ...anonymous } = idpOf(idp, idToken);
    const r = await connectRefused(
      mcp.url,
      'TokenRequestFailed',
      options(mcp.url, crossAppAccess(anonymous)),
    );
    assert.match(r.message, /identity provider failed: 401 invalid_client/);
    assert.equal(as.tokenRequests.length, 0);
  });

  it('refuses an ID-JAG issued for another client', async () => {
    const { idp, as, mcp, idToken } = await enterprise({ jagClientId: 'other-app' });
    await refusedAtAs(mcp.url, as, crossAppAccess(idpOf(idp, idToken)), /another client/);
  });

  it('refuses an ID-JAG for another resource than the one requested', async () => {
    const { idp, as, mcp, idToken } = await enterprise();
    const other = await startProtectedMcp(as);
    later(() => other.close());
    const jag = twisted(crossAppAccess(idpOf(idp, idToken)), { resource: other.url });
    await refusedAtAs(mcp.url, as, jag, /invalid_target/);
  });

  it('the MCP server refuses a token for another resource, and the ID-JAG itself', async () => {
    const { idp, as, mcp, idToken } = await enterprise();
    const other = await startProtectedMcp(as);
    later(() => other.close());
    const oauth = new OAuthClient(options(mcp.url, crossAppAccess(idpOf(idp, idToken))));
    await oauth.authorize();
    const token = (await oauth.accessToken())!;
    const jag = as.tokenRequests[0]!.body.assertion!;
    const post = (url: string, bearer: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    for (const [url, bearer] of [
      [other.url, token],
      [mcp.url, jag],
    ] as const) {
      const res = await post(url, bearer);
      await res.body?.cancel();
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /invalid_token/);
    }
    const ok = await post(mcp.url, token);
    await ok.body?.cancel();
    assert.notEqual(ok.status, 401, 'the token works where it belongs');
  });
});
