import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { McpServer } from '../../server/index.js';
import { createFetchHandler } from '../../transports/http-server/index.js';
import { serve } from '../../serve/index.js';
import type { RunningServer } from '../../serve/index.js';
import { TestAuthServer } from '../../test-support/auth-test-server.js';
import { InvalidTokenError, authInfoOf } from './auth-info.js';
import type { TokenVerifier } from './auth-info.js';
import { bearerChallenge, createBearerAuth } from './bearer-auth.js';
import type { BearerAuthOptions, BearerRequest } from './bearer-auth.js';
import { introspectionVerifier } from './introspection-verifier.js';
import { jwtVerifier } from './jwt-verifier.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
let as: TestAuthServer;
let stranger: TestAuthServer;

before(async () => {
  as = await TestAuthServer.create({});
  as.attach(ISSUER);
  stranger = await TestAuthServer.create({});
  stranger.attach(ISSUER);
});

async function bearer(options: Partial<BearerAuthOptions> = {}) {
  return createBearerAuth({
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: await as.jwks() }),
    ...options,
  });
}

function req(
  headers: Record<string, string> = {},
  path = '/mcp',
  method = 'POST',
  query = '',
): BearerRequest {
  return { method, path, query, header: (n) => headers[n] };
}

const good = (claims: Record<string, unknown> = {}, ttl = 300) =>
  as.sign({ sub: 'alice', client_id: 'app', aud: RESOURCE, scope: 'mcp:read', ...claims }, ttl);

describe('protected resource metadata', () => {
  it('is served at the path-inserted well-known URL, with CORS', async () => {
    const auth = await bearer({ scopesSupported: ['mcp:read'], metadata: { resource_name: 'Demo' } });
    assert.equal(auth.metadataUrl, 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    const d = await auth.check(req({}, '/.well-known/oauth-protected-resource/mcp', 'GET'));
    assert.equal(d.kind, 'respond');
    if (d.kind !== 'respond') return;
    assert.equal(d.status, 200);
    assert.equal(d.headers['access-control-allow-origin'], '*');
    assert.deepEqual(JSON.parse(d.body), {
      resource_name: 'Demo',
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:read'],
    });
    const pre = await auth.check(req({}, '/.well-known/oauth-protected-resource/mcp', 'OPTIONS'));
    assert.equal(pre.kind === 'respond' && pre.status, 204);
  });
});

describe('bearer checks', () => {
  it('401 with resource_metadata and scope, and no error code, when the token is missing', async () => {
    const auth = await bearer({ requiredScopes: ['mcp:read'] });
    const d = await auth.check(req());
    assert.ok(d.kind === 'respond');
    assert.equal(d.status, 401);
    assert.equal(
      d.headers['www-authenticate'],
      `Bearer resource_metadata="${auth.metadataUrl}", scope="mcp:read"`,
    );
  });

  it('accepts a good token and exposes the principal, never the token', async () => {
    const auth = await bearer({ requiredScopes: ['mcp:read'] });
    const token = await good();
    const d = await auth.check(req({ authorization: `Bearer ${token}` }));
    assert.ok(d.kind === 'authenticated');
    assert.equal(d.authInfo.subject, 'alice');
    assert.equal(d.authInfo.clientId, 'app');
    assert.deepEqual(d.authInfo.scopes, ['mcp:read']);
    assert.equal(JSON.stringify(d.authInfo).includes(token), false);
  });

  const rejected: [string, () => Promise<string>, RegExp][] = [
    ['forged (another key)', () => stranger.sign({ sub: 'mallory', aud: RESOURCE }), /not valid/],
    ['expired', () => good({}, -120), /expired/],
    ['for another audience', () => good({ aud: 'https://other.example.com/mcp' }), /aud/],
    [
      'from another issuer',
      async () =>
        new SignJWT({ aud: RESOURCE })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer('x')
          .setExpirationTime('5m')
          .sign(new Uint8Array(32)),
      /not valid/,
    ],
    [
      'unsigned (alg none)',
      async () =>
        new UnsecuredJWT({ aud: RESOURCE, sub: 'x' }).setIssuer(ISSUER).setExpirationTime('5m').encode(),
      /not valid/,
    ],
    ['without exp', () => as.sign({ aud: RESOURCE }, null), /exp/],
    ['garbage', async () => 'abc.def.ghi', /not valid/],
  ];
  for (const [what, mint, why] of rejected) {
    it(`401 invalid_token for a token ${what}`, async () => {
      const auth = await bearer();
      const d = await auth.check(req({ authorization: `Bearer ${await mint()}` }));
      assert.ok(d.kind === 'respond');
      assert.equal(d.status, 401);
      assert.match(d.headers['www-authenticate']!, /error="invalid_token"/);
      assert.match(JSON.parse(d.body).error_description, why);
    });
  }

  it('decides per-message scopes on the parsed call, never on a raw Mcp-* header', async () => {
    const seen: (string | undefined)[] = [];
    const auth = await bearer({
      requiredScopes: (r) => {
        seen.push(r.header('mcp-method'));
        return r.mcpMethod === 'tools/call' && r.header('mcp-name') === 'write'
          ? ['mcp:read', 'mcp:write']
          : ['mcp:read'];
      },
    });
    const token = await good();
    // Up front the raw header is hidden: the request as a whole needs mcp:read only.
    const d = await auth.check(
      req({ authorization: `Bearer ${token}`, 'mcp-method': 'tools/call', 'mcp-name': 'write' }),
    );
    assert.ok(d.kind === 'authenticated');
    assert.deepEqual(seen, [undefined]);
    const list = { method: 'tools/list', name: undefined, scopes: [] };
    assert.equal(await d.authorizer.authorize([list]), undefined);
    const refused = await d.authorizer.authorize([list, { method: 'tools/call', name: 'write', scopes: [] }]);
    assert.equal(refused?.status, 403);
    const challenge = refused!.headers['www-authenticate']!;
    assert.match(challenge, /^Bearer /);
    assert.match(challenge, /error="insufficient_scope"/);
    assert.match(challenge, /scope="mcp:read mcp:write"/);
    assert.match(
      challenge,
      /resource_metadata="https:\/\/mcp\.example\.com\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    // The per-message view's header() gives the body's values, not the request's headers.
    assert.deepEqual(seen.slice(1), ['tools/list', 'tools/list', 'tools/call']);
  });

  it('never shows the rule a raw Mcp-Param-* header, before or after the body is parsed', async () => {
    const params: (string | undefined)[] = [];
    const auth = await bearer({
      requiredScopes: (r) => {
        params.push(r.header('mcp-param-target'));
        return [];
      },
    });
    const headers = { authorization: `Bearer ${await good()}`, 'mcp-param-target': 'prod' };
    const d = await auth.check(req(headers));
    assert.ok(d.kind === 'authenticated');
    await d.authorizer.authorize([{ method: 'tools/call', name: 'deploy', scopes: [] }]);
    assert.deepEqual(params, [undefined, undefined]);
  });

  it('adds the scopes a tool declares, matched exactly, to what the request needs', async () => {
    const auth = await bearer({
      requiredScopes: ['files:read'],
      satisfies: (g, r) => g === r || (g === 'files' && r.startsWith('files:')),
    });
    const d = await auth.check(req({ authorization: `Bearer ${await good({ scope: 'files' })}` }));
    assert.ok(d.kind === 'authenticated');
    const call = { method: 'tools/call', name: 'purge', scopes: ['files:admin'] };
    const refused = await d.authorizer.authorize([call]);
    assert.equal(refused?.status, 403);
    assert.match(refused!.headers['www-authenticate']!, /scope="files:read files:admin"/);
  });

  it('honours scope hierarchies through satisfies', async () => {
    const auth = await bearer({
      requiredScopes: ['files:read'],
      satisfies: (g, r) => g === r || (g === 'files' && r.startsWith('files:')),
    });
    const d = await auth.check(req({ authorization: `Bearer ${await good({ scope: 'files' })}` }));
    assert.equal(d.kind, 'authenticated');
  });

  it('400 for a token in the URL or a malformed header', async () => {
    const auth = await bearer();
    const inUrl = await auth.check(req({}, '/mcp', 'POST', 'x=1&access_token=abc'));
    assert.ok(inUrl.kind === 'respond' && inUrl.status === 400);
    for (const h of ['Basic abc', 'Bearer', 'Bearer a b', 'bearer  ']) {
      const d = await auth.check(req({ authorization: h }));
      assert.ok(d.kind === 'respond' && d.status === 400, h);
    }
  });

  it('503 (not 401) when the verifier itself fails', async () => {
    const broken: TokenVerifier = { verify: () => Promise.reject(new Error('introspection endpoint down')) };
    const d = await (await bearer({ verifier: broken })).check(req({ authorization: 'Bearer abc' }));
    assert.ok(d.kind === 'respond' && d.status === 503);
  });

  it('quotes challenge values safely', () => {
    assert.equal(
      bearerChallenge({ resourceMetadata: 'https://x/', errorDescription: 'a "b" \\ c\r\nd' }),
      'Bearer resource_metadata="https://x/", error_description="a \\"b\\" \\\\ c  d"',
    );
  });

  it('refuses to build a JWT verifier without an audience', () => {
    assert.throws(() => jwtVerifier({ issuer: ISSUER, audience: [], key: new Uint8Array(32) }), /audience/);
  });
});

describe('DPoP in the bearer layer', () => {
  const jkt = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';

  it('advertises DPoP in the metadata when configured', async () => {
    const auth = await bearer({ dpop: { required: true, algorithms: ['ES256'] } });
    assert.deepEqual(auth.metadata.dpop_signing_alg_values_supported, ['ES256']);
    assert.equal(auth.metadata.dpop_bound_access_tokens_required, true);
    assert.equal((await bearer()).metadata.dpop_signing_alg_values_supported, undefined);
  });

  it('refuses an unbound token sent with the DPoP scheme, and a confirmation it cannot check', async () => {
    const auth = await bearer();
    const unbound = await auth.check(req({ authorization: `DPoP ${await good()}` }));
    assert.ok(unbound.kind === 'respond' && unbound.status === 401);
    assert.match(
      unbound.headers['www-authenticate']!,
      /^DPoP algs="[^"]*ES256[^"]*", .*error="invalid_token"/,
    );
    const mtls = await good({ cnf: { 'x5t#S256': 'abc' } });
    const d = await auth.check(req({ authorization: `Bearer ${mtls}` }));
    assert.ok(d.kind === 'respond' && d.status === 401);
    assert.match(JSON.parse(d.body).error_description, /confirmation/);
  });

  it('with required: a Bearer token is refused, and the 401 challenge is a DPoP one', async () => {
    const auth = await bearer({ dpop: { required: true } });
    const d = await auth.check(req({ authorization: `Bearer ${await good()}` }));
    assert.ok(d.kind === 'respond' && d.status === 401);
    assert.match(d.headers['www-authenticate']!, /^DPoP /);
    const none = await auth.check(req());
    assert.ok(none.kind === 'respond' && none.status === 401);
    assert.match(none.headers['www-authenticate']!, /^DPoP algs=/);
    // A bound token still needs its proof.
    const bound = await auth.check(req({ authorization: `DPoP ${await good({ cnf: { jkt } })}` }));
    assert.ok(bound.kind === 'respond' && bound.status === 401);
    assert.match(bound.headers['www-authenticate']!, /error="invalid_dpop_proof"/);
  });

  it('refuses proof algorithms that are not asymmetric', () => {
    assert.throws(
      () =>
        createBearerAuth({
          resource: RESOURCE,
          authorizationServers: [ISSUER],
          verifier: { verify: () => Promise.reject(new InvalidTokenError('x')) },
          dpop: { algorithms: ['HS256'] },
        }),
      /asymmetric/,
    );
  });
});

describe('bearer layer on the HTTP server', () => {
  let running: RunningServer;
  let server: McpServer;
  before(async () => {
    server = new McpServer({ name: 'p', version: '1.0.0' });
    server.tool({ name: 'whoami' }, (_a, ctx) => authInfoOf(ctx)?.subject ?? 'nobody');
    const jwks = await as.jwks();
    let audience = '';
    const lazy = { verify: (t: string) => jwtVerifier({ issuer: ISSUER, audience, jwks }).verify(t) };
    running = await serve(server, { authenticate: (q, s) => auth.node(q, s) });
    audience = running.url;
    const auth = createBearerAuth({ resource: running.url, authorizationServers: [ISSUER], verifier: lazy });
  });
  after(async () => {
    await running.close();
    await server.close();
  });

  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const post = (token: string, body: unknown, extra: Record<string, string> = {}) =>
    fetch(running.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...extra,
      },
      body: JSON.stringify(body),
    });

  it('binds a legacy session to its principal: another user cannot use the session id', async () => {
    const alice = await as.sign({ sub: 'alice', aud: running.url });
    const bob = await as.sign({ sub: 'bob', aud: running.url });
    const r = await post(alice, init);
    assert.equal(r.status, 200);
    await r.body?.cancel();
    const sid = r.headers.get('mcp-session-id')!;
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const asBob = await post(bob, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, h);
    assert.equal(asBob.status, 404);
    await asBob.body?.cancel();
    const asAlice = await post(alice, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, h);
    assert.equal(asAlice.status, 200);
    await asAlice.body?.cancel();
  });

  it('serves the metadata on the same port and answers 401 with the challenge', async () => {
    const meta = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', running.url));
    assert.equal(((await meta.json()) as { resource: string }).resource, running.url);
    const r = await fetch(running.url, { method: 'POST', body: '{}' });
    assert.equal(r.status, 401);
    assert.match(
      r.headers.get('www-authenticate')!,
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
  });
});

describe('introspection verifier', () => {
  let real: TestAuthServer;
  before(async () => (real = await TestAuthServer.start({})));
  after(() => real.close());

  const verifier = () =>
    introspectionVerifier({
      endpoint: `${real.issuer}/introspect`,
      clientId: 'rs',
      clientSecret: 'x',
      audience: RESOURCE,
      allowHttp: true,
    });

  it('accepts an active token issued for this server', async () => {
    const info = await verifier().verify(await real.sign({ sub: 'carol', aud: RESOURCE, scope: 'a b' }));
    assert.equal(info.subject, 'carol');
    assert.deepEqual(info.scopes, ['a', 'b']);
  });

  it('refuses inactive tokens and tokens for another audience', async () => {
    await assert.rejects(verifier().verify('nonsense'), InvalidTokenError);
    await assert.rejects(
      verifier().verify(await real.sign({ aud: 'https://else.example/mcp' })),
      /not issued for this server/,
    );
    await assert.rejects(verifier().verify(await real.sign({})), /not issued for this server/);
  });
});

describe('bearer layer on the fetch handler', () => {
  it('serves the metadata, answers 401, and hands the principal to handlers', async () => {
    const server = new McpServer({ name: 'p', version: '1.0.0' });
    const auth = await bearer();
    const { fetch: handle, handler } = createFetchHandler(server, {
      authenticate: auth.fetch,
      bindHost: '0.0.0.0',
      allowedHosts: ['mcp.example.com'],
    });
    try {
      const host = { host: 'mcp.example.com' };
      const meta = await handle(new Request(auth.metadataUrl, { headers: host }));
      assert.equal(meta.status, 200);
      assert.equal(((await meta.json()) as { resource: string }).resource, RESOURCE);
      const anonymous = await handle(new Request(RESOURCE, { method: 'POST', headers: host, body: '{}' }));
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.headers.get('www-authenticate')!, /resource_metadata=/);
      const headers = {
        ...host,
        authorization: `Bearer ${await good()}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const ok = await handle(new Request(RESOURCE, { method: 'POST', headers, body }));
      assert.equal(ok.status, 200);
      await ok.body?.cancel();
    } finally {
      await handler.close();
      await server.close();
    }
  });
});
