/**
 * Threat: Communication Security (authorization security considerations, "Communication
 * Security"; OAuth 2.1 §1.5). Credentials, codes and tokens travel in clear text, or in URLs
 * that end up in logs and histories.
 *
 * Defence: every URL of the OAuth chain (resource metadata, authorization server, each of its
 * endpoints, each redirect hop) must be https, plain http being allowed only on loopback
 * (`network.allowHttp` is the explicit opt-out for tests); a redirect URI must be https or
 * http on a loopback host, without a fragment, checked when the client is built; tokens
 * travel only in the Authorization header, and the server refuses one in the query (400).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError, OAuthClient, headlessInteraction } from '../auth/index.js';
import { recordingFetch, startRawServer } from '../test-support/auth-fixtures.js';
import { closeAfterEach, connectRefused, startProtected, whoami } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();
const CLEAR = 'auth.example.com';

describe('communication security', () => {
  it('refuses an authorization server reached over plain http, without contacting it', async () => {
    const { mcp } = await startProtected(later, {}, { authorizationServers: [`http://${CLEAR}`] });
    const r = await connectRefused(mcp.url, 'UnsafeUrl');
    assert.match(r.message, /plain http/);
    assert.equal(
      r.urls.some((u) => u.includes(CLEAR)),
      false,
    );
  });

  for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint']) {
    it(`refuses a plain http ${endpoint} before sending anything there or opening anything`, async () => {
      const { as, mcp } = await startProtected(later, {
        metadata: (m) => ({ ...m, [endpoint]: `http://${CLEAR}/${endpoint}` }),
      });
      const r = await connectRefused(mcp.url, 'UnsafeUrl');
      assert.equal(
        r.urls.some((u) => u.includes(CLEAR)),
        false,
      );
      assert.equal(r.opened.length, 0);
      assert.equal(as.count('/register') + as.count('/token'), 0);
    });
  }

  it('refuses a plain http resource_metadata pointer', async () => {
    const server = await startRawServer((_req, res) => {
      const pointer = `http://${CLEAR}/.well-known/oauth-protected-resource`;
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${pointer}"` }).end();
    });
    later(() => server.close());
    const r = await connectRefused(`${server.origin}/mcp`, 'UnsafeUrl');
    assert.equal(
      r.urls.some((u) => u.includes(CLEAR)),
      false,
    );
  });

  for (const uri of [
    'http://app.example.com/callback',
    'http://192.168.1.20:8080/callback',
    'https://app.example.com/callback#fragment',
    'myapp:/callback',
  ]) {
    it(`refuses the redirect URI ${uri} when the client is built`, () => {
      const refused = (e: unknown): boolean => e instanceof AuthError && e.code === 'InvalidConfiguration';
      assert.throws(() => headlessInteraction({ redirectUri: uri }), refused);
      const interaction = {
        redirectUri: uri,
        openAuthorizationUrl: () => Promise.reject(new Error('never')),
      };
      assert.throws(
        () => new OAuthClient({ serverUrl: 'https://mcp.example.com/mcp', interaction }),
        refused,
      );
    });
  }

  it('sends the token in the Authorization header only; the server refuses one in the URL (400)', async () => {
    const { mcp } = await startProtected(later);
    const rec = recordingFetch();
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      interaction: headlessInteraction(),
      fetch: rec.fetch,
    });
    await whoami(oauth, mcp.url);
    const token = await oauth.accessToken();
    assert.ok(token);
    assert.ok(mcp.seen.some((s) => s.authorization === `Bearer ${token}`));
    assert.ok(
      rec.urls.some((u) => u.startsWith(mcp.url)),
      'the MCP requests went through the recorder',
    );
    assert.equal(
      rec.urls.some((u) => u.includes(token)),
      false,
    );
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const inUrl = await fetch(`${mcp.url}?access_token=${token}`, { method: 'POST', headers, body });
    assert.equal(inUrl.status, 400);
    assert.match(await inUrl.text(), /not accepted in URLs/);
  });
});
