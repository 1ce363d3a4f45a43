/**
 * Threat: a web page on a foreign origin reaches a server bound to loopback (or to one host
 * name) through DNS rebinding. Defence: the Host and Origin checks run before anything else,
 * authentication included, so such a request is refused 403 as such, token or no token,
 * in the Node listener (`serve`, `nodeListener`) and in the fetch handler alike. A
 * request with a good Host and no token is still challenged (401).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '../server/server.js';
import { fetchHandler } from '../transports/http-server/index.js';
import { bearerAuth } from '../auth/server/bearer-auth.js';
import type { BearerAuth } from '../auth/server/bearer-auth.js';
import { jwtVerifier } from '../auth/server/jwt-verifier.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { initializeRequest, POST_HEADERS, request } from '../test-support/http-server-harness.js';
import type { RawResponse } from '../test-support/http-server-harness.js';
import { bearerOf, startScopedMcp } from '../test-support/security-fixtures.js';
import type { ScopedMcp } from '../test-support/security-fixtures.js';

const body = JSON.stringify(initializeRequest());

/** Forbidden by the guard: 403 with its JSON-RPC body, and no challenge. */
function assertForbidden(status: number, challenge: string | null | undefined, text: string): void {
  assert.equal(status, 403, text);
  assert.equal(challenge ?? undefined, undefined, 'a rebinding page is not invited to authenticate');
  assert.match(text, /Forbidden: (Host|Origin)/);
}

describe('Node listener (serve)', () => {
  let mcp: ScopedMcp;
  before(async () => (mcp = await startScopedMcp()));
  after(() => mcp.close());

  const post = (headers: Record<string, string>): Promise<RawResponse> =>
    request(mcp.url, { headers: { ...POST_HEADERS, ...headers }, body });

  it('a foreign Host without a token gets 403, not 401', async () => {
    const r = await post({ host: 'attacker.example:80' });
    assertForbidden(r.status, r.headers['www-authenticate'], r.body);
  });

  it('a foreign Origin without a token gets 403, not 401', async () => {
    const r = await post({ origin: 'https://attacker.example' });
    assertForbidden(r.status, r.headers['www-authenticate'], r.body);
  });

  it('a foreign Host with a good token gets 403 too, and the metadata is not served to it', async () => {
    const r = await post({ host: 'attacker.example', ...bearerOf(await mcp.token('mcp')) });
    assertForbidden(r.status, r.headers['www-authenticate'], r.body);
    const meta = await request(mcp.auth.metadataUrl, {
      method: 'GET',
      headers: { host: 'attacker.example' },
    });
    assert.equal(meta.status, 403);
  });

  it('a good Host without a token is still challenged', async () => {
    const r = await post({});
    assert.equal(r.status, 401);
    assert.match(String(r.headers['www-authenticate']), /^Bearer resource_metadata=/);
  });
});

describe('fetch handler', () => {
  const RESOURCE = 'https://mcp.example.com/mcp';
  let server: McpServer;
  let auth: BearerAuth;
  let handle: (r: Request) => Promise<Response>;
  let close: () => Promise<void>;
  before(async () => {
    const as = await TestAuthServer.create();
    as.attach('https://auth.example.com');
    server = new McpServer({ name: 'f', version: '1.0.0' });
    auth = bearerAuth({
      resource: RESOURCE,
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer, audience: RESOURCE, jwks: await as.jwks() }),
    });
    const made = fetchHandler(server, {
      authenticate: auth.fetch,
      bindHost: '0.0.0.0',
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
    handle = made.fetch;
    close = async () => {
      await made.handler.close();
      await server.close();
    };
  });
  after(() => close());

  const post = (url: string, headers: Record<string, string>) =>
    handle(new Request(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body }));

  it('a foreign Host without a token gets 403, not 401', async () => {
    const r = await post('https://attacker.example/mcp', {});
    assertForbidden(r.status, r.headers.get('www-authenticate'), await r.text());
  });

  it('a foreign Origin without a token gets 403, not 401', async () => {
    const r = await post(RESOURCE, { origin: 'https://attacker.example' });
    assertForbidden(r.status, r.headers.get('www-authenticate'), await r.text());
  });

  it('an allowed Host and Origin without a token are challenged', async () => {
    const r = await post(RESOURCE, { origin: 'https://app.example.com' });
    assert.equal(r.status, 401);
    assert.match(r.headers.get('www-authenticate') ?? '', /resource_metadata=/);
  });
});
