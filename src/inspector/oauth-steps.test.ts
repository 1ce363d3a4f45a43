/**
 * The OAuth debugger's step driver without a browser: the whole flow against the test
 * authorization server and a protected mcpkit server on 127.0.0.1 in both eras, and each
 * failure it must explain (mix-up, resource mismatch, SSRF guard, no S256, bad or slow
 * metadata).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { startProtectedMcp, startRawServer } from '../test-support/auth-fixtures.js';
import type { ProtectOptions } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import type { TestAsOptions } from '../test-support/auth-test-server.js';
import { STEP_IDS } from './oauth-flow-types.js';
import type { FlowStep, OAuthFlowOptions } from './oauth-flow-types.js';
import { OAuthFlow } from './oauth-steps.js';

const REDIRECT = 'http://127.0.0.1:33419/oauth/callback';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const STEP_UP: ProtectOptions = {
  scopesSupported: ['mcp:read'],
  requiredScopes: (r) => (r.mcpName === 'write' ? ['mcp:read', 'mcp:write'] : ['mcp:read']),
};

async function setup(asOptions: TestAsOptions = {}, mcpOptions: ProtectOptions = STEP_UP) {
  const as = await TestAuthServer.start(asOptions);
  cleanup.push(() => as.close());
  const mcp = await startProtectedMcp(as, mcpOptions);
  cleanup.push(() => mcp.close());
  return { as, mcp };
}

function flowFor(url: string, extra: Partial<OAuthFlowOptions> = {}): OAuthFlow {
  const flow = new OAuthFlow({ serverUrl: url, redirectUri: REDIRECT, timeoutMs: 10_000, ...extra });
  cleanup.push(() => flow.close());
  return flow;
}

/** Runs steps until one fails or the flow ends, following each authorization here. */
async function runAll(flow: OAuthFlow): Promise<FlowStep[]> {
  for (let i = 0; i < 20 && flow.snapshot().next; i++) {
    const step = await flow.next();
    if (step.status === 'waiting') await flow.follow();
  }
  return flow.steps;
}

const statuses = (steps: FlowStep[]): Record<string, string> =>
  Object.fromEntries(steps.map((s) => [s.id, s.status]));

for (const era of ['legacy', 'modern'] as const) {
  describe(`OAuth debugger steps (${era} era)`, () => {
    it('walks the whole flow: challenge, metadata, registration, PKCE, token, call, refresh, step-up', async () => {
      const { as, mcp } = await setup();
      const flow = flowFor(mcp.url, { era, stepUpTool: 'write' });
      const steps = await runAll(flow);
      assert.deepEqual(
        statuses(steps),
        Object.fromEntries(STEP_IDS.map((id) => [id, 'passed'])),
        JSON.stringify(steps.map((s) => [s.id, s.failure, s.checks.filter((c) => !c.ok && !c.info)])),
      );
      const byId = (id: string): FlowStep => steps.find((s) => s.id === id)!;
      assert.equal(byId('challenge').exchanges[0]!.status, 401);
      assert.match(
        byId('challenge').exchanges[0]!.responseHeaders!['www-authenticate']!,
        /resource_metadata=/,
      );
      assert.equal(byId('resource-metadata').exchanges[0]!.status, 200);
      assert.equal(byId('client').facts.source, 'dynamic-registration');
      assert.equal(byId('authorize').facts.scope, 'mcp:read');
      assert.deepEqual(byId('call').facts.tools, ['whoami', 'write']);
      const stepUp = byId('step-up');
      assert.ok(stepUp.exchanges.some((x) => x.status === 403));
      assert.equal(stepUp.facts.scope, 'mcp:read mcp:write');
      // Every check of a passed flow passed, and no secret reached the record.
      assert.deepEqual(
        steps.flatMap((s) => s.checks.filter((c) => !c.ok && !c.info)),
        [],
      );
      const issued = as.tokenRequests.length;
      assert.equal(issued, 3, 'code, refresh, step-up code');
      const all = JSON.stringify(steps);
      const token = mcp.seen.findLast((h) => h.authorization.startsWith('Bearer '))!.authorization.slice(7);
      assert.equal(all.includes(token), false, 'the access token is masked');
      assert.match(all, /Bearer eyJ.…\(redacted, \d+ chars\)/);
      for (const refresh of as.refreshTokens.keys()) assert.equal(all.includes(refresh), false);
      for (const client of as.clients.values())
        if (client.client_secret) assert.equal(all.includes(client.client_secret), false);
    });
  });
}

describe('OAuth debugger steps: failures explained', () => {
  it('an authorization server mix-up (issuer mismatch) stops at the metadata', async () => {
    const { as, mcp } = await setup({ metadata: (m) => ({ ...m, issuer: 'http://127.0.0.1:9/evil' }) });
    const steps = await runAll(flowFor(mcp.url));
    const failed = steps.find((s) => s.status === 'failed')!;
    assert.equal(failed.id, 'as-metadata');
    assert.equal(failed.failure!.code, 'IssuerMismatch');
    assert.match(failed.failure!.title, /mix-up/);
    assert.match(failed.failure!.explanation, /RFC 8414/);
    assert.equal(as.count('/register'), 0, 'nothing is sent to the mixed-up server');
    assert.equal(steps.filter((s) => s.status === 'pending').length, 6);
  });

  it('a resource mismatch stops at the protected resource metadata', async () => {
    const { mcp } = await setup({}, { resource: 'http://127.0.0.1:1/another' });
    const steps = await runAll(flowFor(mcp.url));
    const failed = steps.find((s) => s.status === 'failed')!;
    assert.equal(failed.id, 'resource-metadata');
    assert.equal(failed.failure!.code, 'ResourceMismatch');
    assert.match(failed.failure!.message, /127\.0\.0\.1:1\/another/);
  });

  it('the SSRF guard refuses loopback addresses when it is on', async () => {
    const { mcp } = await setup();
    const steps = await runAll(flowFor(mcp.url, { guard: 'strict' }));
    const failed = steps.find((s) => s.status === 'failed')!;
    assert.equal(failed.id, 'resource-metadata');
    assert.equal(failed.failure!.code, 'UnsafeUrl');
    assert.match(failed.failure!.title, /SSRF/);
  });

  it('an authorization server without PKCE S256 is refused before registering', async () => {
    const { as, mcp } = await setup({
      metadata: (m) => ({ ...m, code_challenge_methods_supported: ['plain'] }),
    });
    const steps = await runAll(flowFor(mcp.url));
    const failed = steps.find((s) => s.status === 'failed')!;
    assert.equal(failed.id, 'as-metadata');
    assert.equal(failed.failure!.code, 'PkceNotSupported');
    assert.ok(failed.checks.some((c) => c.name.includes('S256') && !c.ok));
    assert.equal(as.count('/register'), 0);
  });

  it('a huge metadata document fails its step with the limit named', async () => {
    const { mcp } = await setup({ metadata: (m) => ({ ...m, padding: 'x'.repeat(300_000) }) });
    const steps = await runAll(flowFor(mcp.url, { maxBodyBytes: 64 * 1024 }));
    const failed = steps.find((s) => s.status === 'failed')!;
    assert.equal(failed.id, 'as-metadata');
    assert.equal(failed.failure!.code, 'DiscoveryFailed');
    assert.match(failed.failure!.message, /exceeded 65536 bytes/);
    assert.match(failed.exchanges.at(-1)!.error!, /exceeded/);
  });

  it('malformed metadata fails with "not JSON", and a hanging endpoint with a visible timeout', async () => {
    let origin = '';
    const server = await startRawServer((req, res) => {
      if (req.url === '/mcp') {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/prm"` }).end();
      } else if (req.url === '/prm') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"resource": not json');
      }
      // Anything else hangs: never answered.
    });
    origin = server.origin;
    cleanup.push(() => server.close());
    const malformed = await runAll(flowFor(`${origin}/mcp`, { timeoutMs: 400 }));
    const failed = malformed.find((s) => s.status === 'failed')!;
    assert.equal(failed.id, 'resource-metadata');
    assert.match(failed.failure!.message, /not JSON/);
    assert.ok(failed.exchanges[0]!.responseBody!.includes('not json'));

    const hanging = await runAll(flowFor(`${origin}/hang`, { timeoutMs: 400 }));
    const timedOut = hanging.find((s) => s.status === 'failed')!;
    assert.equal(timedOut.id, 'challenge');
    assert.equal(timedOut.failure!.code, 'Timeout');
    assert.match(timedOut.exchanges[0]!.error!, /No answer within 0\.4 s/);
  });

  it('refuses a callback that is not the waiting request, and a second run while one waits', async () => {
    const { mcp } = await setup();
    const flow = flowFor(mcp.url);
    for (let i = 0; i < 4; i++) await flow.next();
    const waiting = await flow.next();
    assert.equal(waiting.status, 'waiting');
    assert.equal(flow.waitsFor('forged'), false);
    assert.equal(flow.waitsFor(new URL(waiting.authorizationUrl!).searchParams.get('state')), true);
    await assert.rejects(flow.next(), /not finished/);
  });
});
