/**
 * The OAuth debugger's routes on the inspector server, without a browser: the API wants the
 * token like every other operation, and the callback (which cannot carry it) accepts only
 * this inspector's Host and the state of the authorization waiting for it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startProtectedMcp } from '../test-support/auth-fixtures.js';
import type { ProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { raw, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';
import type { FlowSnapshot } from './oauth-flow-types.js';

type Snapshot = FlowSnapshot & { steps: { id: string; status: string; authorizationUrl?: string }[] };

describe('OAuth debugger routes', () => {
  let inspector: RunningInspector;
  let as: TestAuthServer;
  let mcp: ProtectedMcp;
  before(async () => {
    as = await TestAuthServer.start();
    mcp = await startProtectedMcp(as);
    inspector = await startInspector({});
  });
  after(async () => {
    await inspector.close();
    await mcp.close();
    await as.close();
  });

  const host = (): string => `127.0.0.1:${inspector.server.port}`;
  const op = async (name: string, body: Record<string, unknown>, token = inspector.server.token) => {
    const headers = { host: host(), 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const a = await raw(inspector.server.port, 'POST', `/api/${name}`, headers, JSON.stringify(body));
    return { status: a.status, body: JSON.parse(a.body) as { flow: Snapshot } };
  };

  it('refuses the API without the token', async () => {
    const a = await op('oauth-start', { url: mcp.url }, 'wrong');
    assert.equal(a.status, 401);
  });

  it('accepts only the waiting state at the callback, with this Host; then finishes the step', async () => {
    let a = await op('oauth-start', { url: mcp.url });
    const flow = a.body.flow.id;
    for (let i = 0; i < 5; i++) a = await op('oauth-next', { flow });
    const step = a.body.flow.steps.find((s) => s.id === 'authorize')!;
    assert.equal(step.status, 'waiting');
    const authz = new URL(step.authorizationUrl!);
    assert.equal(authz.searchParams.get('redirect_uri'), `http://${host()}/oauth/callback`);
    const state = authz.searchParams.get('state')!;

    const forged = await raw(inspector.server.port, 'GET', '/oauth/callback?code=x&state=forged', {
      host: host(),
    });
    assert.equal(forged.status, 400);
    const rebound = await raw(inspector.server.port, 'GET', `/oauth/callback?code=x&state=${state}`, {
      host: 'evil.example:80',
    });
    assert.equal(rebound.status, 403);
    a = await op('oauth-state', {});
    assert.equal(a.body.flow.steps[4]!.status, 'waiting', 'neither touched the flow');

    // What the authorization server would redirect the browser to.
    const redirect = await fetch(authz, { redirect: 'manual' });
    const back = new URL(redirect.headers.get('location')!);
    const page = await raw(inspector.server.port, 'GET', back.pathname + back.search, { host: host() });
    assert.equal(page.status, 200);
    assert.match(page.body, /Authorization received/);
    assert.equal(page.body.includes(back.searchParams.get('code')!), false, 'the code is not echoed');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    a = await op('oauth-state', {});
    assert.equal(a.body.flow.steps[4]!.status, 'passed');
    a = await op('oauth-next', { flow });
    assert.equal(a.body.flow.steps[5]!.status, 'passed', 'the token step');
    const again = await raw(inspector.server.port, 'GET', back.pathname + back.search, { host: host() });
    assert.equal(again.status, 400, 'a response is used once');
  });
});
