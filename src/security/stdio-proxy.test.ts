/**
 * Threat: stdio Transport Security in Proxy Scenarios (security best practices). A local
 * proxy that spawns stdio servers on request turns a web-side foothold (XSS, a stolen proxy
 * token, a rebound DNS name, a cross-site request) into running commands on the machine.
 *
 * mcpkit's proxy that spawns commands on request is the inspector (`mcpkit inspect`: its page
 * connects servers by command). The gateway (`mcpkit proxy`) has no such operation: it only
 * runs the commands of its config, with consent (local-server-compromise.test.ts).
 *
 * Defence: the inspector listens on 127.0.0.1 only; every request must name it in Host (no
 * DNS rebinding), come from its own page (Origin, Sec-Fetch-Site), and present its random
 * token, which the API takes only in the Authorization header (not the URL, not the
 * HttpOnly SameSite=Strict cookie), with a JSON body; no CORS; the page forbids inline
 * script and framing (CSP `script-src 'self'`, `frame-ancestors 'none'`, X-Frame-Options).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cookieName } from '../inspector/request-guard.js';
import { startCli } from '../test-support/cli-process.js';
import type { CliProcess } from '../test-support/cli-process.js';
import { raw } from '../test-support/inspector-harness.js';

describe('stdio proxy: the inspector spawns nothing for anyone but its own page', () => {
  let inspector: CliProcess;
  let port: number;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-proxy-'));

  before(async () => {
    inspector = startCli(['inspect', '--port', '0'], { env: { ...process.env, HOME: dir } });
    const url = new URL(await inspector.printed('stdout', /open (http:\/\/\S+)/));
    assert.equal(url.hostname, '127.0.0.1');
    port = Number(url.port);
    token = url.searchParams.get('token')!;
  });
  after(() => inspector.stop());

  /** Asks the inspector to start a "server" whose only effect is to create `name`; returns the status. */
  async function connectAttempt(name: string, headers: Record<string, string>, path = '/api/connect') {
    const marker = join(dir, name);
    const entry = {
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
    };
    const r = await raw(port, 'POST', path, headers, JSON.stringify({ name, entry }));
    return { status: r.status, headers: r.headers, marker };
  }

  const own = (): Record<string, string> => ({
    host: `127.0.0.1:${port}`,
    'content-type': 'application/json',
  });
  const bearer = (): Record<string, string> => ({ authorization: `Bearer ${token}` });

  const attacks: Array<[string, () => Record<string, string>, number, string?]> = [
    ['without the token (any local program)', () => own(), 401],
    ['with a wrong token', () => ({ ...own(), authorization: 'Bearer guessed' }), 401],
    ['with the token in the URL (leaked from a history or a log)', () => own(), 401, '?token='],
    [
      'with only the cookie (a cross-site request riding it)',
      () => ({ ...own(), cookie: `${cookieName(port)}=${token}` }),
      401,
    ],
    [
      'through a rebound DNS name (Host: evil.example)',
      () => ({ ...own(), ...bearer(), host: `evil.example:${port}` }),
      403,
    ],
    [
      'from another origin (a page on another local port)',
      () => ({ ...own(), ...bearer(), origin: `http://127.0.0.1:${port + 1}` }),
      403,
    ],
    ['from a cross-site fetch', () => ({ ...own(), ...bearer(), 'sec-fetch-site': 'cross-site' }), 403],
    ['as a form post (text/plain)', () => ({ ...own(), ...bearer(), 'content-type': 'text/plain' }), 415],
  ];

  for (const [what, headers, status, query] of attacks) {
    it(`refuses to start a command ${what}`, async () => {
      const name = `attack-${attacks.findIndex((a) => a[0] === what)}`;
      const path = query ? `/api/connect${query}${token}` : '/api/connect';
      const r = await connectAttempt(name, headers(), path);
      assert.equal(r.status, status);
      assert.equal(r.headers['access-control-allow-origin'], undefined);
      assert.equal(existsSync(r.marker), false, 'nothing was spawned');
    });
  }

  it('gives a cross-origin preflight no allowance', async () => {
    const pre = await raw(port, 'OPTIONS', '/api/connect', {
      host: `127.0.0.1:${port}`,
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    assert.equal(pre.status, 403);
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
    assert.equal(pre.headers['access-control-allow-headers'], undefined);
  });

  it('serves its page with a policy against injected script and framing', async () => {
    const page = await raw(port, 'GET', `/?token=${token}`, { host: `127.0.0.1:${port}` });
    assert.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.match(String(page.headers['set-cookie']), /HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);
  });

  it('is not reachable from the network', async (t) => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4');
    if (!external) return t.skip('no non-loopback IPv4 interface');
    const connected = await new Promise<boolean>((resolve) => {
      const s = connect(port, external.address);
      s.setTimeout(5000, () => {
        s.destroy();
        resolve(false);
      });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    assert.equal(connected, false);
  });

  it('its own page, with the token in the header, does start the command (the path the attacks aimed at)', async () => {
    const r = await connectAttempt('own-page', {
      ...own(),
      ...bearer(),
      origin: `http://127.0.0.1:${port}`,
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(r.status, 200);
    assert.equal(existsSync(r.marker), true);
  });
});
