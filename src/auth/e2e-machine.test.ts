/**
 * End to end for the grants without a user: client_credentials (secret and private_key_jwt)
 * and cross-app access (RFC 8693 token exchange for an ID-JAG, then RFC 7523 jwt-bearer).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { exportPKCS8, generateKeyPair } from 'jose';
import { OAuthClient } from './client/oauth-client.js';
import type { OAuthClientOptions } from './client/oauth-client.js';
import { crossAppAccess } from './client/cross-app-access.js';
import { callText, connectWith, startProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function server(options: TestAsOptions) {
  const as = await TestAuthServer.start(options);
  cleanup.push(() => as.close());
  const mcp = await startProtectedMcp(as, { scopesSupported: ['mcp:read'] });
  cleanup.push(() => mcp.close());
  return { as, mcp };
}

async function whoami(options: OAuthClientOptions): Promise<Record<string, unknown>> {
  const oauth = new OAuthClient(options);
  const client = await connectWith(oauth, String(options.serverUrl));
  try {
    return JSON.parse(await callText(client, 'whoami')) as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

const CC = ['client_credentials'];

describe('client_credentials grant', () => {
  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`authenticates with ${method} and gets a token for the resource`, async () => {
      const clients = [{ client_id: 'robot', client_secret: 'pw:with%odd chars', method }];
      const { as, mcp } = await server({ grantTypes: CC, tokenAuthMethods: [method], clients });
      const me = await whoami({
        serverUrl: mcp.url,
        grant: 'client_credentials',
        preRegistered: { clientId: 'robot', clientSecret: 'pw:with%odd chars' },
      });
      assert.equal(me.clientId, 'robot');
      assert.deepEqual(me.audience, [mcp.url]);
      const t = as.tokenRequests[0]!;
      assert.equal(t.auth, method);
      assert.equal(t.body.resource, mcp.url);
      assert.equal(t.body.scope, 'mcp:read');
      assert.equal(as.count('/authorize'), 0);
    });
  }

  it('authenticates with private_key_jwt (ES256, audience = issuer), from PEM or a CryptoKey', async () => {
    const keys = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(keys.privateKey);
    const clients = [{ client_id: 'signer', method: 'private_key_jwt', publicKey: keys.publicKey }];
    const { as, mcp } = await server({ grantTypes: CC, tokenAuthMethods: ['private_key_jwt'], clients });
    for (const privateKey of [{ pem, alg: 'ES256' }, keys.privateKey]) {
      const me = await whoami({
        serverUrl: mcp.url,
        grant: 'client_credentials',
        preRegistered: { clientId: 'signer', privateKey },
      });
      assert.equal(me.clientId, 'signer');
    }
    assert.deepEqual(
      as.tokenRequests.map((t) => t.auth),
      ['private_key_jwt', 'private_key_jwt'],
    );
  });

  it('refuses a server that does not offer the grant', async () => {
    const clients = [{ client_id: 'robot', client_secret: 's', method: 'client_secret_basic' }];
    const { as, mcp } = await server({ clients });
    await assert.rejects(
      whoami({
        serverUrl: mcp.url,
        grant: 'client_credentials',
        preRegistered: { clientId: 'robot', clientSecret: 's' },
      }),
      (e: Error) => /does not support the client_credentials grant/.test(String(e.cause ?? e)),
    );
    assert.equal(as.tokenRequests.length, 0);
  });
});

describe('cross-app access', () => {
  it('exchanges the ID token for an ID-JAG at the IdP, then gets a token with a jwt-bearer grant', async () => {
    const idp = await TestAuthServer.start({ jagClientId: 'xaa-app' });
    cleanup.push(() => idp.close());
    const { as, mcp } = await server({
      grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      tokenAuthMethods: ['client_secret_basic'],
      clients: [{ client_id: 'xaa-app', client_secret: 'xaa-secret', method: 'client_secret_basic' }],
      trustedIdps: [{ issuer: idp.issuer, jwksUri: `${idp.issuer}/jwks` }],
    });
    const idToken = await idp.sign({ sub: 'alice@example.com', aud: 'idp-app' }, 300, 'JWT');
    const me = await whoami({
      serverUrl: mcp.url,
      grant: {
        type: 'jwt_bearer',
        assertion: crossAppAccess({
          idpTokenEndpoint: `${idp.issuer}/token`,
          idToken,
          idpClientId: 'idp-app',
        }),
      },
      preRegistered: { clientId: 'xaa-app', clientSecret: 'xaa-secret' },
    });
    assert.equal(me.subject, 'alice@example.com');
    assert.deepEqual(me.audience, [mcp.url]);
    const exchange = idp.tokenRequests[0]!.body;
    assert.equal(exchange.audience, as.issuer);
    assert.equal(exchange.resource, mcp.url);
    assert.equal(exchange.client_id, 'idp-app');
    assert.equal(as.tokenRequests[0]!.grant, 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    assert.equal(as.tokenRequests[0]!.auth, 'client_secret_basic');
  });
});
