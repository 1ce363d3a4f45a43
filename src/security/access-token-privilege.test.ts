/**
 * Threat: Access Token Privilege Restriction (authorization security considerations). A
 * request is processed before its token is validated, or a token is usable at servers it
 * was not meant for.
 *
 * Defence: on the server, the bearer layer validates the token (signature, issuer,
 * audience, expiry) before the request reaches any MCP handling, on every endpoint of both
 * eras and of the 2024-11-05 SSE transport, so no data goes to an unauthenticated caller;
 * on the client, every authorization, code exchange and refresh names the MCP server in the
 * RFC 8707 `resource` parameter, so the token it gets is restricted to that server. (The
 * server-side audience and `typ` rules: token-audience.test.ts; never forwarding the token:
 * token-passthrough.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { OAuthClient, createBearerAuth, headlessInteraction, jwtVerifier } from '../auth/index.js';
import type { BearerAuth } from '../auth/index.js';
import { McpServer } from '../server/index.js';
import { serve } from '../serve/index.js';
import { startProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { LEGACY, modern, postJson, request, rpc } from '../test-support/http-server-harness.js';
import { closeAfterEach, startProtected, whoami } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();

/** A server whose one tool returns a secret and counts its runs, behind bearer auth trusting `as`. */
async function guardedServer(as: TestAuthServer) {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' });
  const runs = { count: 0 };
  server.tool({ name: 'secret' }, () => {
    runs.count++;
    return 'the-secret-value';
  });
  const jwks = await as.jwks();
  const running = await serve(server, { port: 0, authenticate: (req, res) => auth.node(req, res) });
  const auth: BearerAuth = createBearerAuth({
    resource: running.url,
    authorizationServers: [as.issuer],
    verifier: jwtVerifier({ issuer: as.issuer, audience: running.url, jwks }),
  });
  later(async () => {
    await running.close();
    await server.close();
  });
  return { url: running.url, origin: new URL(running.url).origin, runs };
}

/** Every way in: both eras of Streamable HTTP, its GET stream, and the 2024-11-05 SSE transport. */
function everyEndpoint(url: string, origin: string, authorization: string | undefined) {
  const a: Record<string, string> = authorization === undefined ? {} : { authorization };
  const call = modern('tools/call', { name: 'secret', arguments: {} });
  return [
    ['modern tools/call', () => postJson(url, call.body, { ...call.headers, ...a })],
    [
      'legacy initialize',
      () =>
        postJson(
          url,
          rpc('initialize', {
            protocolVersion: LEGACY,
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          }),
          a,
        ),
    ],
    [
      'legacy tools/call in a guessed session',
      () =>
        postJson(url, rpc('tools/call', { name: 'secret', arguments: {} }), {
          ...a,
          'mcp-session-id': 'guessed',
          'mcp-protocol-version': LEGACY,
        }),
    ],
    [
      'GET stream',
      () => request(url, { method: 'GET', headers: { accept: 'text/event-stream', ...a }, timeoutMs: 5000 }),
    ],
    [
      '2024-11-05 /sse',
      () =>
        request(`${origin}/sse`, {
          method: 'GET',
          headers: { accept: 'text/event-stream', ...a },
          timeoutMs: 5000,
        }),
    ],
    [
      '2024-11-05 /messages',
      () =>
        postJson(
          `${origin}/messages?sessionId=guessed`,
          rpc('tools/call', { name: 'secret', arguments: {} }),
          a,
        ),
    ],
  ] as const;
}

describe('access token privilege restriction', () => {
  it('no request reaches a handler before its token is validated, on any endpoint', async () => {
    const as = await TestAuthServer.start();
    later(() => as.close());
    const { url, origin, runs } = await guardedServer(as);
    const attacker = await generateKeyPair('ES256');
    const claims = { sub: 'admin', client_id: 'c', aud: url };
    const b64 = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const tokens: Array<[string, string | undefined]> = [
      ['no token', undefined],
      ['a token that is not a JWT', 'Bearer not-a-jwt'],
      [
        'a token signed by someone else',
        `Bearer ${await new SignJWT(claims)
          .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
          .setIssuer(as.issuer)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(attacker.privateKey)}`,
      ],
      [
        'an unsigned token (alg none)',
        `Bearer ${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ ...claims, iss: as.issuer, iat: now, exp: now + 300 })}.`,
      ],
      ['an expired token', `Bearer ${await as.sign(claims, -600)}`],
    ];
    for (const [what, authorization] of tokens) {
      for (const [where, send] of everyEndpoint(url, origin, authorization)) {
        const r = await send();
        assert.ok(r.status === 401 || r.status === 400, `${what}, ${where}: ${r.status} ${r.body}`);
        assert.equal(r.body.includes('the-secret-value'), false, `${what}, ${where}`);
      }
    }
    assert.equal(runs.count, 0, 'no handler ran');
    // The same call with a valid token does reach the tool.
    const good = modern('tools/call', { name: 'secret', arguments: {} });
    const ok = await postJson(url, good.body, {
      ...good.headers,
      authorization: `Bearer ${await as.sign(claims)}`,
    });
    assert.equal(ok.status, 200, ok.body);
    assert.match(ok.body, /the-secret-value/);
    assert.equal(runs.count, 1);
  });

  it('the client asks for tokens restricted to this server: resource on every authorization, exchange and refresh', async () => {
    const { as, mcp } = await startProtected(later, { accessTokenTtl: 1 });
    const other = await startProtectedMcp(as);
    later(() => other.close());
    const oauth = new OAuthClient({ serverUrl: mcp.url, interaction: headlessInteraction() });
    await whoami(oauth, mcp.url);
    // The token expires at once (ttl 1 s, refreshed 30 s early): this refreshes it.
    const refreshed = await oauth.accessToken();
    assert.ok(refreshed);
    assert.equal(as.requests.find((r) => r.path === '/authorize')?.query.get('resource'), mcp.url);
    const grants = as.tokenRequests.map((t) => t.grant);
    assert.equal(grants[0], 'authorization_code');
    assert.ok(grants.includes('refresh_token'));
    for (const t of as.tokenRequests) assert.equal(t.body.resource, mcp.url, t.grant);
    assert.equal(decodeJwt(refreshed).aud, mcp.url, 'the token names this server, and only it');
    // Replayed at another server of the same authorization server, it is refused.
    const call = modern('tools/call', { name: 'whoami', arguments: {} });
    const replay = await postJson(other.url, call.body, {
      ...call.headers,
      authorization: `Bearer ${refreshed}`,
    });
    assert.equal(replay.status, 401);
  });
});
