/**
 * The confused deputy at the gateway: the gateway calls its upstream servers with its own
 * credentials, so whoever can call the gateway borrows them. Attacks: calling it without a
 * token, with a wrong one, with the upstream's own token, with a JWT minted for another
 * audience; making it listen beyond loopback unprotected; an authenticated caller reaching
 * what its per-caller rule does not allow. Each must fail with no upstream call, and what
 * is allowed must be audited under the caller's principal. Real HTTP on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HostError } from '../host/errors.js';
import { parseHostConfig } from '../host/config/config-parse.js';
import { Host } from '../host/host.js';
import { bridge } from '../host/serve/bridge.js';
import { Gateway } from '../host/serve/gateway.js';
import { ScriptedUi } from '../host/ui/ui.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { freePort } from '../test-support/cluster.js';
import {
  gatewayClient,
  resultText,
  startGateway,
  startUpstream,
  token,
} from '../test-support/gateway-harness.js';
import type { RunningGateway, Upstream } from '../test-support/gateway-harness.js';
import { POST_HEADERS, modern, postJson, request } from '../test-support/http-server-harness.js';

const UPSTREAM = token();
const ALICE = token();
const MALLORY = token();
const EVE = token();

let upstream: Upstream;
let as: TestAuthServer;
let gw: RunningGateway;

/** The HTTP status in an error's cause chain (the client wraps the transport's HttpError). */
function statusIn(e: unknown): number | undefined {
  for (let c = e, depth = 0; c instanceof Error && depth < 8; c = c.cause, depth++) {
    const status = (c as { status?: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

/** Tool calls the upstream ran, all tools together. */
const upstreamCalls = (): number => [...upstream.calls.values()].reduce((a, b) => a + b, 0);

before(async () => {
  upstream = await startUpstream(UPSTREAM);
  as = await TestAuthServer.start({});
  // The JWT audience is the gateway's URL: the port is chosen first.
  const port = await freePort();
  gw = await startGateway({
    upstreamUrl: upstream.url,
    upstreamToken: UPSTREAM,
    port,
    gateway: {
      auth: {
        tokens: { alice: ALICE, mallory: MALLORY, eve: EVE },
        jwt: { issuer: as.issuer, audience: `http://127.0.0.1:${port}/mcp`, jwksUrl: `${as.issuer}/jwks` },
      },
      principals: [
        { token: 'alice', allow: '*' },
        { token: 'mallory', allow: { vault: ['read_secret'] } },
        { issuer: as.issuer, subject: 'bob', allow: { vault: ['echo'] } },
        // eve has a valid token and no rule: she reaches nothing.
      ],
    },
  });
});
after(async () => {
  await gw.close();
  await upstream.close();
  await as.close();
});

describe('confused deputy: who may call the gateway', () => {
  test('a caller without a valid gateway token gets 401, and nothing reaches the upstream server', async () => {
    const before = { requests: upstream.requests.length, calls: upstreamCalls() };
    const call = modern('tools/call', { name: 'vault__delete_all', arguments: {} });
    const foreignJwt = await as.sign({ sub: 'bob', aud: upstream.url, client_id: 'c' });
    for (const authorization of [
      undefined,
      'Bearer not-a-gateway-token-at-all',
      `Bearer ${UPSTREAM}`, // the upstream's own credential is no gateway credential
      `Bearer ${foreignJwt}`, // a JWT of the right issuer, for another audience
      `Basic ${Buffer.from(`alice:${ALICE}`).toString('base64')}`,
    ]) {
      const headers = { ...call.headers, ...(authorization ? { authorization } : {}) };
      const r = await postJson(gw.url, call.body, headers);
      // A malformed Authorization header is a 400 (RFC 6750), the rest 401.
      const expected = authorization?.startsWith('Basic') ? 400 : 401;
      assert.equal(r.status, expected, `${authorization}: ${r.body}`);
      assert.match(String(r.headers['www-authenticate']), /^Bearer /);
    }
    // The legacy HTTP+SSE endpoints are behind the same check.
    const sse = await request(gw.url.replace(/\/mcp$/, '/sse'), {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(sse.status, 401);
    const legacy = await postJson(
      gw.url,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      POST_HEADERS,
    );
    assert.equal(legacy.status, 401);
    await assert.rejects(gatewayClient(gw.url), (e: unknown) => statusIn(e) === 401);
    assert.equal(upstream.requests.length, before.requests, 'a request reached the upstream server');
    assert.equal(upstreamCalls(), before.calls);
  });

  test('an authenticated caller is served, and the audit names its principal', async () => {
    const client = await gatewayClient(gw.url, ALICE);
    try {
      const r = await client.callTool({ name: 'vault__read_secret', arguments: {} });
      assert.equal(resultText(r), 'vault-contents');
    } finally {
      await client.close();
    }
    const entry = gw.trail.entries.findLast((e) => e.kind === 'tool' && e.target === 'read_secret');
    assert.equal(entry?.decision, 'allowed');
    assert.deepEqual(entry?.principal, { issuer: '', subject: 'alice', kind: 'client' });
    assert.equal(entry?.caller, 'gateway');

    // A JWT caller: named by issuer and subject.
    const jwt = await as.sign({ sub: 'bob', aud: gw.url, client_id: 'app' });
    const bob = await gatewayClient(gw.url, jwt);
    try {
      assert.match(resultText(await bob.callTool({ name: 'vault__echo', arguments: { x: 1 } })), /"x":1/);
    } finally {
      await bob.close();
    }
    const bobEntry = gw.trail.entries.findLast((e) => e.kind === 'tool' && e.target === 'echo');
    assert.deepEqual(bobEntry?.principal, { issuer: as.issuer, subject: 'bob', kind: 'user' });
  });

  test('a per-caller rule denies what it does not list, before the upstream is called', async () => {
    const before = upstream.calls.get('delete_all') ?? 0;
    const mallory = await gatewayClient(gw.url, MALLORY);
    const eve = await gatewayClient(gw.url, EVE);
    try {
      // Mallory sees and may call read_secret only.
      const listed = (await mallory.listTools()).tools.map((t) => t.name);
      assert.deepEqual(listed, ['vault__read_secret']);
      const refused = await mallory.callTool({ name: 'vault__delete_all', arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(resultText(refused), /do not let the token "mallory" call "delete_all"/);
      assert.equal(
        resultText(await mallory.callTool({ name: 'vault__read_secret', arguments: {} })),
        'vault-contents',
      );
      // Eve is authenticated but has no rule: nothing.
      assert.deepEqual((await eve.listTools()).tools, []);
      const hers = await eve.callTool({ name: 'vault__read_secret', arguments: {} });
      assert.equal(hers.isError, true);
    } finally {
      await mallory.close();
      await eve.close();
    }
    assert.equal(upstream.calls.get('delete_all') ?? 0, before, 'the upstream ran a denied tool');
    const denied = gw.trail.entries.findLast((e) => e.target === 'delete_all');
    assert.equal(denied?.decision, 'denied');
    assert.deepEqual(denied?.principal, { issuer: '', subject: 'mallory', kind: 'client' });
  });
});

describe('confused deputy: the gateway will not listen beyond loopback unprotected', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-deputy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('serveHttp and bridge refuse 0.0.0.0 and :: without authenticate', async () => {
    const config = parseHostConfig({ mcpServers: {} });
    const host = new Host(config, { ui: new ScriptedUi({}) });
    const gateway = new Gateway(host);
    try {
      for (const bind of ['0.0.0.0', '::', '192.168.1.10'])
        await assert.rejects(
          gateway.serveHttp({ host: bind, port: 0 }),
          (e: unknown) => e instanceof HostError && e.code === 'Unprotected',
        );
    } finally {
      await gateway.close();
      await host.close();
    }
    // The bridge refuses before it starts the command.
    const marker = join(dir, 'bridged-started');
    const ui = new ScriptedUi({ confirmCommand: true });
    await assert.rejects(
      bridge(
        {
          command: process.execPath,
          args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
        },
        { to: 'http', hostname: '0.0.0.0', port: 0, ui },
      ),
      (e: unknown) => e instanceof HostError && e.code === 'Unprotected',
    );
    assert.equal(existsSync(marker), false);
  });

  test('mcpkit proxy --host 0.0.0.0 without authentication exits with a usage error, starting nothing', async () => {
    const marker = join(dir, 'proxied-started');
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          s: {
            command: process.execPath,
            args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
          },
        },
      }),
    );
    const main = fileURLToPath(new URL('../cli/main.js', import.meta.url));
    const run = (args: string[]) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [main, 'proxy', ...args], {
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.once('exit', (status) => resolve({ status, stderr }));
      });
    for (const args of [
      ['--config', file, '-y', '--host', '0.0.0.0'],
      [
        '--host',
        '0.0.0.0',
        '--',
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
      ],
    ]) {
      const r = await run(args);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /will not serve 0\.0\.0\.0 without authenticating its callers/);
    }
    assert.equal(existsSync(marker), false);
  });
});
