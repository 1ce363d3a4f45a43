/**
 * The inspector's web server without a browser: who may call it (Host, Origin,
 * Sec-Fetch-Site, the token and where it may be presented), what it refuses, and its
 * API over our demo server as a real child process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cookieName } from './request-guard.js';
import { DEMO_STDIO, raw, startInspector } from '../test-support/inspector-harness.js';
import type { RunningInspector } from '../test-support/inspector-harness.js';

describe('inspector server', () => {
  let insp: RunningInspector;
  let port: number;
  let token: string;
  const host = (): string => `127.0.0.1:${port}`;
  const api = (op: string, body: unknown, extra: Record<string, string> = {}) =>
    raw(
      port,
      'POST',
      `/api/${op}`,
      { host: host(), authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra },
      JSON.stringify(body),
    );

  before(async () => {
    insp = await startInspector({ demo: { command: process.execPath, args: [DEMO_STDIO] } });
    port = insp.server.port;
    token = insp.server.token;
  });
  after(() => insp.close());

  test('prints a loopback URL with a long random token', () => {
    assert.match(insp.server.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  test('the page needs the token; the printed URL sets a strict, HttpOnly cookie for the assets', async () => {
    assert.equal((await raw(port, 'GET', '/', { host: host() })).status, 401);
    assert.equal((await raw(port, 'GET', '/?token=wrong', { host: host() })).status, 401);
    const ok = await raw(port, 'GET', `/?token=${token}`, { host: host() });
    assert.equal(ok.status, 200);
    const cookie = String(ok.headers['set-cookie']);
    assert.match(cookie, new RegExp(`^${cookieName(port)}=${token};`));
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.match(String(ok.headers['content-security-policy']), /script-src 'self'/);
    assert.match(String(ok.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(ok.body, new RegExp(`<meta name="mcpkit-token" content="${token}"`));
    const asset = await raw(port, 'GET', '/assets/index.js', {
      host: host(),
      cookie: `${cookieName(port)}=${token}`,
    });
    assert.equal(asset.status, 200);
    assert.equal((await raw(port, 'GET', '/assets/index.js', { host: host() })).status, 401);
  });

  test('the API takes the token only in a header: not from the query or the cookie', async () => {
    const json = { host: host(), 'content-type': 'application/json' };
    assert.equal((await raw(port, 'GET', '/api/state', { host: host() })).status, 401);
    assert.equal((await raw(port, 'GET', `/api/state?token=${token}`, { host: host() })).status, 401);
    const viaCookie = await raw(
      port,
      'POST',
      '/api/ping',
      { ...json, cookie: `${cookieName(port)}=${token}` },
      '{"server":"demo"}',
    );
    assert.equal(viaCookie.status, 401);
    assert.equal(
      (await raw(port, 'GET', '/api/state', { host: host(), authorization: 'Bearer nope' })).status,
      401,
    );
    const state = await raw(port, 'GET', '/api/state', { host: host(), authorization: `Bearer ${token}` });
    assert.equal(state.status, 200);
    assert.equal(JSON.parse(state.body).servers[0].state, 'ready');
  });

  test('a foreign Host (DNS rebinding), Origin or cross-site fetch is refused, even with the token', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const h of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `[::1]:${port}`]) {
      assert.equal((await raw(port, 'GET', '/api/state', { host: h, ...auth })).status, 403, h);
    }
    for (const o of [
      `http://127.0.0.1:${port + 1}`,
      'http://localhost:3000',
      'null',
      'https://evil.example',
    ]) {
      const r = await raw(port, 'GET', '/api/state', { host: host(), origin: o, ...auth });
      assert.equal(r.status, 403, o);
      assert.equal(r.headers['access-control-allow-origin'], undefined);
    }
    for (const site of ['same-site', 'cross-site']) {
      const r = await raw(port, 'GET', `/?token=${token}`, { host: host(), 'sec-fetch-site': site });
      assert.equal(r.status, 403, site);
    }
    const own = await raw(port, 'GET', '/api/state', {
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
      ...auth,
    });
    assert.equal(own.status, 200);
  });

  test('no CORS: a preflight gets no allowance, and the API wants a JSON body', async () => {
    const pre = await raw(port, 'OPTIONS', '/api/call', {
      host: host(),
      origin: 'http://127.0.0.1:1',
      'access-control-request-method': 'POST',
    });
    assert.equal(pre.status, 403);
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
    const form = await raw(
      port,
      'POST',
      '/api/call',
      { host: host(), authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      '{}',
    );
    assert.equal(form.status, 415);
    assert.equal((await api('call', [1, 2])).status, 400);
    assert.equal((await api('nope', {})).status, 404);
    const big = await api('call', {
      callId: 'x',
      server: 'demo',
      tool: 'echo',
      arguments: { s: 'x'.repeat(5 * 1024 * 1024) },
    });
    assert.equal(big.status, 413);
    assert.equal((await api('ping', { server: 'demo' })).status, 200);
  });

  test('calls go through the host; refusals and bad input come back as errors, and it keeps serving', async () => {
    const ok = JSON.parse(
      (await api('call', { callId: 'c1', server: 'demo', tool: 'add', arguments: { a: 2, b: 3 } })).body,
    );
    assert.equal(ok.result.content[0].text, '5');
    const unknown = JSON.parse(
      (await api('call', { callId: 'c2', server: 'demo', tool: 'nope', arguments: {} })).body,
    );
    assert.equal(unknown.error.code, 'UnknownTool');
    const missing = JSON.parse((await api('call', { server: 'demo', tool: 'add' })).body);
    assert.match(missing.error.message, /callId/);
    const ping = JSON.parse((await api('ping', { server: 'demo' })).body);
    assert.equal(typeof ping.ms, 'number');
    const history = insp.session.snapshot().wire;
    assert.ok(
      history.some((w) => w.dir === 'out' && (w.message as { method?: string }).method === 'tools/call'),
    );
    assert.ok(
      history.some((w) => w.dir === 'in' && (w.message as { result?: unknown }).result !== undefined),
    );
  });

  test('the event stream starts with a snapshot and needs the token', async () => {
    assert.equal((await raw(port, 'GET', '/api/events', { host: host() })).status, 401);
    const res = await fetch(`http://127.0.0.1:${port}/api/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /^data: \{"type":"snapshot"/);
    await reader.cancel();
  });

  test('a config policy that says ask puts the question to the page; deny rules hold', async () => {
    const asking = await startInspector({
      demo: {
        command: process.execPath,
        args: [DEMO_STDIO],
        policy: { tools: { add: 'ask', echo: 'deny' } },
      },
    });
    try {
      const p = asking.server.port;
      const call = (tool: string, args: Record<string, unknown>) =>
        raw(
          p,
          'POST',
          '/api/call',
          {
            host: `127.0.0.1:${p}`,
            authorization: `Bearer ${asking.server.token}`,
            'content-type': 'application/json',
          },
          JSON.stringify({ callId: `c-${tool}`, server: 'demo', tool, arguments: args }),
        );
      const denied = JSON.parse((await call('echo', { text: 'x' })).body);
      assert.equal(denied.error.code, 'Denied');
      const pending = call('add', { a: 1, b: 2 });
      const question = await new Promise<{ id: string; kind: string }>((resolve) => {
        const off = asking.session.subscribe((e) => {
          if (e.type === 'question' && e.added) {
            off();
            resolve(e.added);
          }
        });
      });
      assert.equal(question.kind, 'approve-tool');
      assert.ok(asking.session.ui.answer(question.id, 'once'));
      assert.equal(JSON.parse((await pending).body).result.content[0].text, '3');
      const refused = call('add', { a: 1, b: 2 });
      const again = await new Promise<{ id: string }>((resolve) => {
        const off = asking.session.subscribe((e) => {
          if (e.type === 'question' && e.added) {
            off();
            resolve(e.added);
          }
        });
      });
      asking.session.ui.answer(again.id, 'deny');
      assert.equal(JSON.parse((await refused).body).error.code, 'NotApproved');
    } finally {
      await asking.close();
    }
  });
});
