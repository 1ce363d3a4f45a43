/**
 * Hostile servers against the OAuth client: each attack is refused with a clear AuthError,
 * nothing is sent where it should not be, and nothing is opened.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OAuthClient } from './client/oauth-client.js';
import { headlessInteraction } from './client/interaction.js';
import type { AuthorizationCallback, AuthorizationInteraction } from './client/interaction.js';
import { connectWith, startRawServer } from '../test-support/auth-fixtures.js';
import type { ProtectOptions } from '../test-support/auth-fixtures.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';
import { closeAfterEach, connectRefused, startProtected } from '../test-support/oauth-attacks.js';

// The per-test cleanup, the servers and the refused connection are the security suite's own.
const later = closeAfterEach();
const setup = (asOptions: TestAsOptions = {}, mcpOptions: ProtectOptions = {}) =>
  startProtected(later, asOptions, mcpOptions);
const refused = connectRefused;

const withMetadata = (change: Record<string, unknown>): TestAsOptions => ({
  metadata: (m) => ({ ...m, ...change }),
});

describe('hostile authorization server metadata', () => {
  it('refuses metadata whose issuer is not the one it was looked up for', async () => {
    const { as, mcp } = await setup(withMetadata({ issuer: 'https://honest.example' }));
    const r = await refused(mcp.url, 'IssuerMismatch');
    assert.equal(r.opened.length, 0);
    assert.equal(as.count('/register') + as.count('/authorize') + as.count('/token'), 0);
  });

  for (const methods of [['plain'], undefined]) {
    it(`refuses to authorize without S256 (code_challenge_methods_supported: ${JSON.stringify(methods)})`, async () => {
      const { as, mcp } = await setup(withMetadata({ code_challenge_methods_supported: methods }));
      const r = await refused(mcp.url, 'PkceNotSupported');
      assert.equal(r.opened.length, 0);
      assert.equal(as.count('/register'), 0, 'not even registered');
    });
  }

  for (const [name, value] of [
    ['authorization_endpoint', 'http://169.254.169.254/latest/meta-data'],
    ['token_endpoint', 'https://10.0.0.1/token'],
    ['registration_endpoint', 'http://192.168.1.1/register'],
    ['token_endpoint', 'https://[::ffff:a9fe:a9fe]/token'],
    ['token_endpoint', 'https://0x7f000001.internal/token'],
  ] as const) {
    it(`refuses a private-address ${name} (${value}) before contacting anything there`, async () => {
      const { mcp } = await setup(withMetadata({ [name]: value }));
      const r = await refused(mcp.url, 'UnsafeUrl');
      const host = new URL(value).host;
      assert.equal(
        r.urls.some((u) => new URL(u).host === host),
        false,
      );
      assert.equal(r.opened.length, 0);
    });
  }

  for (const value of [
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'http://evil.example.com/authorize',
  ]) {
    it(`never opens an authorization URL like ${value.slice(0, 24)}…`, async () => {
      const { mcp } = await setup(withMetadata({ authorization_endpoint: value }));
      const r = await refused(mcp.url, 'UnsafeUrl');
      assert.equal(r.opened.length, 0);
    });
  }
});

describe('hostile protected resource metadata', () => {
  it('refuses metadata for another resource before any authorization request', async () => {
    const { as, mcp } = await setup({}, { resource: 'https://evil.example.com/mcp' });
    const r = await refused(mcp.url, 'ResourceMismatch');
    assert.match(r.message, /evil\.example\.com/);
    assert.equal(as.requests.length, 0, 'the authorization server is never contacted');
  });

  it('refuses an authorization server on a private address', async () => {
    const { mcp } = await setup({}, { authorizationServers: ['http://10.1.2.3/tenant'] });
    const r = await refused(mcp.url, 'UnsafeUrl');
    assert.equal(
      r.urls.some((u) => u.includes('10.1.2.3')),
      false,
    );
  });

  it('refuses a resource_metadata pointer to the cloud metadata service without fetching it', async () => {
    const hostile = await startRawServer((_req, res) => {
      const rm = 'http://169.254.169.254/latest/meta-data/iam';
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${rm}"` }).end();
    });
    later(() => hostile.close());
    const r = await refused(`${hostile.origin}/mcp`, 'UnsafeUrl');
    assert.equal(
      r.urls.some((u) => u.includes('169.254')),
      false,
    );
  });

  it('checks every redirect hop of a metadata fetch', async () => {
    const hostile = await startRawServer((req, res) => {
      if (req.url?.startsWith('/.well-known/')) {
        res.writeHead(302, { location: 'http://10.0.0.7/.well-known/oauth-protected-resource' }).end();
      } else res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    });
    later(() => hostile.close());
    const r = await refused(`${hostile.origin}/mcp`, 'UnsafeUrl');
    assert.match(r.message, /redirect/);
    assert.equal(
      r.urls.some((u) => u.includes('10.0.0.7')),
      false,
    );
  });

  it('refuses loopback metadata when the MCP server is remote (no allowLoopback)', async () => {
    const { mcp } = await setup();
    // Pretend the server is remote by turning loopback off explicitly.
    const r = await refused(mcp.url, 'UnsafeUrl', { network: { allowLoopback: false } });
    assert.equal(r.urls.filter((u) => u.includes('.well-known')).length, 0);
  });
});

describe('hostile authorization responses', () => {
  it('refuses a response whose iss names another server (mix-up), before redeeming the code', async () => {
    const { as, mcp } = await setup({ iss: 'https://evil.example' });
    await refused(mcp.url, 'IssuerMismatch');
    assert.equal(as.tokenRequests.length, 0);
  });

  it('refuses a response without iss when the server advertises it', async () => {
    const { as, mcp } = await setup(withMetadata({ authorization_response_iss_parameter_supported: true }));
    await refused(mcp.url, 'IssuerMismatch');
    assert.equal(as.tokenRequests.length, 0);
  });

  it('refuses a replayed authorization response (old code, old state)', async () => {
    const { as, mcp } = await setup();
    let saved: AuthorizationCallback | undefined;
    const real = headlessInteraction();
    const replaying: AuthorizationInteraction = {
      redirectUri: real.redirectUri,
      async openAuthorizationUrl(url, ctx) {
        saved ??= await real.openAuthorizationUrl(url, ctx);
        return saved;
      },
    };
    const first = await connectWith(new OAuthClient({ serverUrl: mcp.url, interaction: replaying }), mcp.url);
    await first.close();
    await refused(mcp.url, 'AuthorizationFailed', { interaction: replaying });
    assert.equal(as.tokenRequests.filter((t) => t.grant === 'authorization_code').length, 1);
  });

  it('reports an error response as AuthorizationFailed', async () => {
    const { mcp } = await setup();
    const denying: AuthorizationInteraction = {
      redirectUri: 'http://127.0.0.1:33418/callback',
      openAuthorizationUrl: async (url) => ({
        error: 'access_denied',
        state: url.searchParams.get('state')!,
      }),
    };
    const r = await refused(mcp.url, 'AuthorizationFailed', { interaction: denying });
    assert.match(r.message, /access_denied/);
  });
});
