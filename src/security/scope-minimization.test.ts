/**
 * Threat: a token granted the least a client asked for (`mcp:use`) calls a tool that needs
 * more (`admin`). Defence: a tool declares the scopes it needs on its definition; behind the
 * bearer layer a call without them gets 403 with the spec's scope challenge (every scope the
 * request needs, and where the metadata is) before the handler runs, so the client can step
 * up; without the bearer layer the server itself refuses with a JSON-RPC error. A connection
 * with no authentication at all (local use) is not held to scopes.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Client } from '../client/index.js';
import { ErrorCode } from '../jsonrpc/index.js';
import { McpServer } from '../server/index.js';
import { createMemoryPair } from '../transports/memory/index.js';
import { serve } from '../serve/index.js';
import { OAuthClient } from '../auth/client/oauth-client.js';
import { parseWwwAuthenticate } from '../auth/client/www-authenticate.js';
import { callText, connectWith, spyInteraction } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import {
  modern,
  openLegacySession,
  postJson,
  rpc,
  sseMessages,
} from '../test-support/http-server-harness.js';
import type { Obj } from '../test-support/http-server-harness.js';
import { bearerOf, challengeOf, openSession, startScopedMcp } from '../test-support/security-fixtures.js';
import type { ScopedMcp } from '../test-support/security-fixtures.js';

const callAdmin = () => rpc('tools/call', { name: 'admin_reset', arguments: {} });
const callWhoami = () => rpc('tools/call', { name: 'whoami', arguments: {} });

describe('a tool that declares its scopes, behind the bearer layer', () => {
  let mcp: ScopedMcp;
  let user: Record<string, string>;
  before(async () => {
    mcp = await startScopedMcp({ adminScopes: ['admin'], bearer: { requiredScopes: ['mcp:use'] } });
    user = bearerOf(await mcp.token('mcp:use'));
  });
  after(() => mcp.close());

  it('modern era: 403 with the scope challenge, naming every scope the call needs', async () => {
    mcp.ran.length = 0;
    const m = modern('tools/call', { name: 'admin_reset', arguments: {} });
    const r = await postJson(mcp.url, m.body, { ...user, ...m.headers });
    assert.equal(r.status, 403, r.body);
    const [challenge, ...others] = parseWwwAuthenticate(challengeOf(r));
    assert.equal(others.length, 0);
    assert.equal(challenge!.scheme, 'Bearer');
    assert.equal(challenge!.params.error, 'insufficient_scope');
    assert.equal(challenge!.params.scope, 'mcp:use admin');
    assert.equal(challenge!.params.resource_metadata, mcp.auth.metadataUrl);
    assert.match(challenge!.params.error_description ?? '', /admin/);
    assert.deepEqual(mcp.ran, []);
  });

  it('legacy era: the same 403, before the handler runs', async () => {
    const sid = await openSession(mcp.url, user);
    mcp.ran.length = 0;
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const r = await postJson(mcp.url, callAdmin(), h);
    assert.equal(r.status, 403, r.body);
    assert.match(challengeOf(r), /scope="mcp:use admin"/);
    assert.deepEqual(mcp.ran, []);
  });

  it('a batch holding one scoped call is refused whole, with one challenge', async () => {
    const sid = await openSession(mcp.url, user, '2025-03-26');
    mcp.ran.length = 0;
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' };
    const r = await postJson(mcp.url, [callWhoami(), callAdmin()], h);
    assert.equal(r.status, 403, r.body);
    assert.match(challengeOf(r), /scope="mcp:use admin"/);
    assert.deepEqual(mcp.ran, []);
  });

  it('a token holding the scope calls the tool; unscoped tools need only the base scope', async () => {
    mcp.ran.length = 0;
    const admin = bearerOf(await mcp.token('mcp:use admin'));
    const m = modern('tools/call', { name: 'admin_reset', arguments: {} });
    assert.equal((await postJson(mcp.url, m.body, { ...admin, ...m.headers })).status, 200);
    const w = modern('tools/call', { name: 'whoami', arguments: {} });
    assert.equal((await postJson(mcp.url, w.body, { ...user, ...w.headers })).status, 200);
    assert.deepEqual(mcp.ran, ['admin_reset', 'whoami']);
  });
});

describe('stepping up to a tool scope with our own OAuth client', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era} era: the 403 challenge leads to one more authorization with the union of scopes`, async () => {
      const as = await TestAuthServer.start();
      cleanup.push(() => as.close());
      const mcp = await startScopedMcp({
        as,
        adminScopes: ['admin'],
        bearer: { requiredScopes: ['mcp:use'], scopesSupported: ['mcp:use'] },
      });
      cleanup.push(() => mcp.close());
      const oauth = new OAuthClient({ serverUrl: mcp.url, interaction: spyInteraction() });
      const client = await connectWith(oauth, mcp.url, era);
      cleanup.push(() => client.close());
      assert.equal(await callText(client, 'whoami'), 'user-1');
      assert.equal(await callText(client, 'admin_reset'), 'reset done');
      const asked = as.requests.filter((r) => r.path === '/authorize').map((r) => r.query.get('scope'));
      assert.deepEqual(asked, ['mcp:use', 'mcp:use admin']);
      assert.deepEqual(mcp.ran, ['whoami', 'admin_reset']);
    });
  }
});

describe('without the bearer layer', () => {
  function scopedServer(ran: string[]): McpServer {
    const server = new McpServer({ name: 'scoped', version: '1.0.0' });
    server.tool({ name: 'admin_reset', scopes: ['admin'] }, () => {
      ran.push('admin_reset');
      return 'reset done';
    });
    return server;
  }

  it('a principal without the scope gets a JSON-RPC error naming it, and the tool does not run', async () => {
    const ran: string[] = [];
    const server = scopedServer(ran);
    // An authentication layer of the user's own: a principal, no authorizer.
    const principal = { subject: 'u', scopes: ['mcp:use'], audience: [], claims: {} };
    const running = await serve(server, { authenticate: () => principal });
    try {
      const sid = await openLegacySession(running.url);
      const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
      const r = await postJson(running.url, callAdmin(), h);
      assert.equal(r.status, 200);
      const error = sseMessages(r.body)[0]!.error as Obj;
      assert.equal(error.code, ErrorCode.InvalidRequest);
      assert.deepEqual(error.data, { error: 'insufficient_scope', scope: 'admin' });
      assert.deepEqual(ran, []);
      // A principal that carries no scope list at all holds none.
      const bare = await serve(scopedServer(ran), { authenticate: () => ({ subject: 'u' }) });
      try {
        const sid2 = await openLegacySession(bare.url);
        const h2 = { 'mcp-session-id': sid2, 'mcp-protocol-version': '2025-11-25' };
        const r2 = await postJson(bare.url, callAdmin(), h2);
        assert.equal((sseMessages(r2.body)[0]!.error as Obj).code, ErrorCode.InvalidRequest);
        assert.deepEqual(ran, []);
      } finally {
        await bare.close();
      }
    } finally {
      await running.close();
      await server.close();
    }
  });

  it('a connection with no authentication at all (local use) is not held to scopes', async () => {
    const ran: string[] = [];
    const server = scopedServer(ran);
    const [clientSide, serverSide] = createMemoryPair();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    try {
      const r = await client.callTool({ name: 'admin_reset', arguments: {} });
      assert.deepEqual(r.content, [{ type: 'text', text: 'reset done' }]);
      assert.deepEqual(ran, ['admin_reset']);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
