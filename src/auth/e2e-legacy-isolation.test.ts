/**
 * End to end: the 2025-03-26 discovery fallbacks, discovery variants (OIDC, issuer paths),
 * and the isolation of credentials between authorization servers.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { McpServer } from '../server/index.js';
import { createNodeListener, serve } from '../serve/index.js';
import { OAuthClient } from './client/oauth-client.js';
import { headlessInteraction } from './client/interaction.js';
import { MemoryCredentialStore } from './client/store.js';
import { findAuthError } from './errors.js';
import { callText, connectWith, startProtectedMcp } from '../test-support/auth-fixtures.js';
import { authInfoOf } from './server/auth-info.js';
import { createBearerAuth } from './server/bearer-auth.js';
import type { BearerAuth } from './server/bearer-auth.js';
import { jwtVerifier } from './server/jwt-verifier.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function oauth(url: string, extra: Partial<ConstructorParameters<typeof OAuthClient>[0]> = {}): OAuthClient {
  return new OAuthClient({
    serverUrl: url,
    interaction: headlessInteraction({ redirectUri: REDIRECT }),
    ...extra,
  });
}

async function whoami(o: OAuthClient, url: string): Promise<Record<string, unknown>> {
  const client = await connectWith(o, url);
  try {
    return JSON.parse(await callText(client, 'whoami')) as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

/** A 2025-03-26 server: MCP and the authorization server on one origin, no resource metadata. */
async function legacyServer(options: TestAsOptions): Promise<{ as: TestAuthServer; url: string }> {
  const as = await TestAuthServer.create(options);
  const server = new McpServer({ name: 'legacy', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_a, ctx) => JSON.stringify(authInfoOf(ctx) ?? null));
  let audience = '';
  const { listener } = createNodeListener(server, {
    authenticate: async (req, res) => {
      const h = req.headers.authorization ?? '';
      try {
        const v = jwtVerifier({ issuer: as.issuer, audience, jwks: await as.jwks() });
        return await v.verify(h.replace(/^Bearer /, ''));
      } catch {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end();
        return false;
      }
    },
  });
  const http = createServer((req, res) =>
    req.url?.startsWith('/mcp') ? listener(req, res) : as.listener(req, res),
  );
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  as.attach(origin);
  audience = `${origin}/mcp`;
  cleanup.push(async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
    await server.close();
  });
  return { as, url: audience };
}

describe('2025-03-26 fallbacks', () => {
  it('uses authorization server metadata at the server root when there is no resource metadata', async () => {
    const { as, url } = await legacyServer({ issuerPath: '/oauth', metadataAt: 'root' });
    const me = await whoami(oauth(url), url);
    assert.deepEqual(me.audience, [url]);
    assert.equal(as.requests.find((r) => r.path === '/oauth/authorize')!.query.get('resource'), url);
  });

  it('falls back to /authorize, /token and /register when there is no metadata at all', async () => {
    const { as, url } = await legacyServer({ metadataAt: 'none' });
    await whoami(oauth(url), url);
    assert.deepEqual(
      ['/register', '/authorize', '/token'].map((p) => as.count(p)),
      [1, 1, 1],
    );
  });

  it('can be turned off', async () => {
    const { url } = await legacyServer({ metadataAt: 'none' });
    await assert.rejects(connectWith(oauth(url, { legacyFallbacks: false }), url), (e: unknown) => {
      return findAuthError(e)?.code === 'DiscoveryFailed';
    });
  });
});

describe('discovery variants', () => {
  for (const metadataAt of ['oauth', 'oidc-inserted', 'oidc-appended'] as const) {
    it(`finds an issuer with a path through ${metadataAt} metadata`, async () => {
      const as = await TestAuthServer.start({ issuerPath: '/tenant1', metadataAt });
      cleanup.push(() => as.close());
      const mcp = await startProtectedMcp(as);
      cleanup.push(() => mcp.close());
      await whoami(oauth(mcp.url), mcp.url);
      assert.equal(
        as.count('/.well-known/oauth-authorization-server'),
        0,
        'never the root for an issuer with a path',
      );
    });
  }
});

describe('credentials per authorization server', () => {
  it('never presents one server’s registration to another (shared store)', async () => {
    const store = new MemoryCredentialStore();
    const a = await TestAuthServer.start({});
    const b = await TestAuthServer.start({});
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const mcpA = await startProtectedMcp(a);
    const mcpB = await startProtectedMcp(b);
    cleanup.push(
      () => mcpA.close(),
      () => mcpB.close(),
    );
    await whoami(oauth(mcpA.url, { store }), mcpA.url);
    await whoami(oauth(mcpB.url, { store }), mcpB.url);
    const idA = (await store.get(a.issuer))!.client!.client_id;
    const idB = (await store.get(b.issuer))!.client!.client_id;
    assert.notEqual(idA, idB);
    const seenAtB = JSON.stringify(
      b.requests.map((r) => [r.query.toString(), r.body, r.headers.authorization]),
    );
    assert.equal(seenAtB.includes(idA), false);
  });

  it('does not use credentials pre-registered for another issuer', async () => {
    const a = await TestAuthServer.start({ dcr: false });
    cleanup.push(() => a.close());
    const mcp = await startProtectedMcp(a);
    cleanup.push(() => mcp.close());
    const pre = { clientId: 'for-b', clientSecret: 'x', issuer: 'https://b.example' };
    await assert.rejects(connectWith(oauth(mcp.url, { preRegistered: pre }), mcp.url), (e: unknown) => {
      return findAuthError(e)?.code === 'RegistrationFailed';
    });
    assert.equal(a.count('/authorize') + a.count('/token'), 0);
  });

  it('refuses issuer-less pre-registered credentials once the server moves to another authorization server', async () => {
    const a = await TestAuthServer.start({
      clients: [
        { client_id: 'app', client_secret: 's', method: 'client_secret_basic', redirect_uris: [REDIRECT] },
      ],
    });
    const b = await TestAuthServer.start({
      clients: [
        { client_id: 'app', client_secret: 's', method: 'client_secret_basic', redirect_uris: [REDIRECT] },
      ],
    });
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const server = new McpServer({ name: 'moving', version: '1.0.0' });
    server.tool({ name: 'whoami' }, () => 'me');
    let current: BearerAuth | undefined;
    const running = await serve(server, { authenticate: (req, res) => current!.node(req, res) });
    cleanup.push(() => running.close());
    const authFor = async (as: TestAuthServer) =>
      createBearerAuth({
        resource: running.url,
        authorizationServers: [as.issuer],
        verifier: jwtVerifier({ issuer: as.issuer, audience: running.url, jwks: await as.jwks() }),
      });
    current = await authFor(a);
    const o = oauth(running.url, { preRegistered: { clientId: 'app', clientSecret: 's' } });
    const client = await connectWith(o, running.url);
    cleanup.push(() => client.close());
    assert.equal(await callText(client, 'whoami'), 'me');
    current = await authFor(b);
    await assert.rejects(
      callText(client, 'whoami'),
      (e: unknown) => findAuthError(e)?.code === 'IssuerMismatch',
    );
    assert.equal(b.count('/authorize') + b.count('/token'), 0);
  });
});
