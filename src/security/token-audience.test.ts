/**
 * Threat: a token meant for something else is accepted here, or a client is led to ask for
 * a token that is good somewhere else. Defences:
 * - the server accepts only access tokens issued for it (`aud`) and typed as access tokens
 *   (`typ: at+jwt`, RFC 9068), so an ID token or another JWT of the same issuer, or a token
 *   for another resource, is refused 401;
 * - the client refuses protected resource metadata whose `resource` is not the server's
 *   own URL (RFC 9728 §3.3): a server at `https://host/u/mallory/mcp` naming the parent
 *   `https://host/u` would get a token whose audience covers every server beneath it.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { OAuthClient } from '../auth/client/oauth-client.js';
import { findAuthError } from '../auth/errors.js';
import { connectWith, spyInteraction, startRawServer } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { modern, postJson } from '../test-support/http-server-harness.js';
import type { RawResponse } from '../test-support/http-server-harness.js';
import { bearerOf, challengeOf, startScopedMcp } from '../test-support/security-fixtures.js';
import type { ScopedMcp } from '../test-support/security-fixtures.js';

describe('tokens not meant for this server', () => {
  let mcp: ScopedMcp;
  before(async () => (mcp = await startScopedMcp()));
  after(() => mcp.close());

  const call = (token: string): Promise<RawResponse> => {
    const m = modern('tools/call', { name: 'whoami', arguments: {} });
    return postJson(mcp.url, m.body, { ...m.headers, ...bearerOf(token) });
  };
  const assertRefused = (r: RawResponse, why: RegExp): void => {
    assert.equal(r.status, 401, r.body);
    assert.match(challengeOf(r), /error="invalid_token"/);
    assert.match(String((r.json as { error_description?: string }).error_description), why);
    assert.deepEqual(mcp.ran, []);
  };

  it('a token for another resource of the same issuer is refused', async () => {
    mcp.ran.length = 0;
    assertRefused(await call(await mcp.token('mcp', { aud: 'https://other.example.com/mcp' })), /aud/);
    assertRefused(await call(await mcp.token('mcp', { aud: [] })), /aud/);
  });

  it('a JWT of the issuer that is not typed as an access token is refused', async () => {
    mcp.ran.length = 0;
    // An ID token, or any other JWT the issuer signs, with this server as its audience.
    for (const typ of ['JWT', 'id_token+jwt', 'application/jwt']) {
      assertRefused(await call(await mcp.token('mcp', {}, typ)), /typ/);
    }
  });

  it('an access token typed at+jwt and issued for this server is accepted', async () => {
    mcp.ran.length = 0;
    assert.equal((await call(await mcp.token('mcp', {}, 'application/at+jwt'))).status, 200);
    assert.deepEqual(mcp.ran, ['whoami']);
  });
});

describe('metadata naming a parent of the server', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  /** Mallory's MCP server under a shared host: 401, and metadata naming `resource`. */
  async function mallory(resource: (origin: string) => string, pointer: boolean) {
    const as = await TestAuthServer.start();
    cleanup.push(() => as.close());
    const server = await startRawServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const prm = `/.well-known/oauth-protected-resource${pointer ? '/u/mallory/mcp' : ''}`;
      if (req.method === 'GET' && path === prm) {
        const doc = { resource: resource(server.origin), authorization_servers: [as.issuer] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
        return;
      }
      if (path === '/u/mallory/mcp') {
        const challenge = pointer ? `Bearer resource_metadata="${server.origin}${prm}"` : 'Bearer';
        res.writeHead(401, { 'www-authenticate': challenge }).end();
        return;
      }
      res.writeHead(404).end();
    });
    cleanup.push(() => server.close());
    return { as, url: `${server.origin}/u/mallory/mcp` };
  }

  async function refused(url: string): Promise<void> {
    const oauth = new OAuthClient({ serverUrl: url, interaction: spyInteraction() });
    let error: unknown;
    await connectWith(oauth, url).then(
      (c) => c.close(),
      (e: unknown) => (error = e),
    );
    assert.equal(findAuthError(error)?.code, 'ResourceMismatch', String(error));
  }

  it('is refused when the challenge points to it, before the authorization server is contacted', async () => {
    const { as, url } = await mallory((origin) => `${origin}/u`, true);
    await refused(url);
    assert.equal(as.requests.length, 0);
  });

  it('is refused when found at the root well-known URL', async () => {
    const { as, url } = await mallory((origin) => `${origin}/u`, false);
    await refused(url);
    assert.equal(as.requests.length, 0);
  });

  it('the origin is refused when a challenge pointed to it (it must name the server itself)', async () => {
    const { as, url } = await mallory((origin) => origin, true);
    await refused(url);
    assert.equal(as.requests.length, 0);
  });
});
