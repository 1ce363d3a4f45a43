/**
 * Server-side request forgery through the OAuth client, as users run it on Node: the
 * `OAuthClient` of `mcpkit/auth` (the module its `node` export condition names) with no
 * network option, and `mcpkit login`. A hostile MCP server names metadata, authorization
 * server and redirect URLs whose HOST NAMES resolve inside: loopback, 10/8, the cloud
 * metadata address 169.254.169.254, ::1. Each must be refused before any connection is
 * attempted, including when the name answers public at the check and private at the
 * connection (DNS rebinding).
 *
 * Names are answered by a stubbed system resolver (test-support/dns-stub.ts), as if
 * /etc/hosts said so: the code under test configures no resolver. No traffic leaves
 * loopback: non-loopback addresses are only ever answers of the stub, every connection
 * attempt of this process is logged, and the log must never hold one outside 127/8 and ::1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findAuthError } from '../auth/errors.js';
import { connectWith, spyInteraction, startRawServer } from '../test-support/auth-fixtures.js';
import { startCanary, watchConnections } from '../test-support/connection-watch.js';
import type { Canary, ConnectionWatch } from '../test-support/connection-watch.js';
import { stubSystemDns } from '../test-support/dns-stub.js';
import type { DnsStub, DnsTable } from '../test-support/dns-stub.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** `mcpkit/auth` as Node resolves it: the module package.json's `node` condition names. */
async function nodeAuthEntry(): Promise<typeof import('../auth/index-node.js')> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, { node?: { types: string } }>;
  };
  const types = pkg.exports['./auth']?.node?.types;
  assert.ok(types, 'mcpkit/auth has a node condition');
  return (await import(
    join(root, types.replace(/\.d\.ts$/, '.js'))
  )) as typeof import('../auth/index-node.js');
}

const PUBLIC = '93.184.215.14';
const TABLE: DnsTable = {
  // The hostile MCP server itself (the user chose it; its own requests are not OAuth's).
  'mcp.evil.test': [['127.0.0.1']],
  'loop.evil.test': [['127.0.0.1']],
  'loop6.evil.test': [['::1']],
  'ten.evil.test': [['10.0.0.7']],
  'metadata.evil.test': [['169.254.169.254']],
  // One public and one private answer: the connection may use either, so the name is refused.
  'mixed.evil.test': [[PUBLIC, '10.0.0.7']],
  // Public when checked, inside when connecting.
  'rebind.evil.test': [[PUBLIC], ['127.0.0.1']],
  'rebind-ten.evil.test': [[PUBLIC], ['10.0.0.7']],
  'ok.example.test': [['127.0.0.2']],
};
const INSIDE: ReadonlyArray<readonly [string, string]> = [
  ['loop.evil.test', '127.0.0.1'],
  ['loop6.evil.test', '::1'],
  ['ten.evil.test', '10.0.0.7'],
  ['metadata.evil.test', '169.254.169.254'],
  ['mixed.evil.test', '10.0.0.7'],
];

const isLoopback = (address: string): boolean => address.startsWith('127.') || address === '::1';

let dns: DnsStub;
let watch: ConnectionWatch;
/** Where every refused URL points (its port): nothing may ever connect here. */
let canary: Canary;
let auth: typeof import('../auth/index-node.js');
const cleanup: (() => Promise<void>)[] = [];

before(async () => {
  watch = watchConnections();
  dns = stubSystemDns(TABLE);
  canary = await startCanary('127.0.0.1');
  auth = await nodeAuthEntry();
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
after(async () => {
  await canary.close();
  dns.restore();
  watch.stop();
  const outside = watch.attempts.filter((a) => !isLoopback(a.address));
  assert.deepEqual(outside, [], 'a connection was attempted outside loopback');
});

/** What reaches the canary from now on: attempts to its port (any address) and connections it got. */
function fromNow(): { attempts(): { address: string; port: number }[]; hits(): number } {
  const attempts = watch.attempts.length;
  const hits = canary.hits;
  return {
    attempts: () => watch.attempts.slice(attempts).filter((a) => a.port === canary.port),
    hits: () => canary.hits - hits,
  };
}

/** A hostile MCP server on 127.0.0.1: every MCP request gets a 401, `route` answers the rest. */
async function hostileMcp(
  challenge: string | undefined,
  route: (req: IncomingMessage, res: ServerResponse) => boolean = () => false,
): Promise<{ port: number }> {
  const server = await startRawServer((req, res) => {
    if (route(req, res)) return;
    res.writeHead(401, {
      'content-type': 'application/json',
      'www-authenticate': challenge === undefined ? 'Bearer' : `Bearer resource_metadata="${challenge}"`,
    });
    res.end('{"error":"unauthorized"}');
  });
  cleanup.push(() => server.close());
  return { port: Number(new URL(server.origin).port) };
}

/** Connects as an application would (the transport's `auth` option) and returns the AuthError. */
async function refusal(serverUrl: string): Promise<{ code: string; message: string }> {
  const oauth = new auth.OAuthClient({ serverUrl, interaction: spyInteraction() });
  let error: unknown;
  await connectWith(oauth, serverUrl, 'legacy', 'auth option').then(
    (c) => c.close(),
    (e: unknown) => (error = e),
  );
  const found = findAuthError(error);
  assert.ok(found, `expected an AuthError, got ${String(error)}`);
  return { code: found.code, message: found.message };
}

describe('SSRF: names that resolve inside are refused by default on Node', () => {
  for (const [name, address] of INSIDE) {
    test(`a remote server's resource_metadata at ${name} (→ ${address}) is refused before any connection`, async () => {
      const mcp = await hostileMcp(`https://${name}:${canary.port}/.well-known/oauth-protected-resource/mcp`);
      const before = dns.asked.length;
      const seen = fromNow();
      const r = await refusal(`http://mcp.evil.test:${mcp.port}/mcp`);
      assert.equal(r.code, 'UnsafeUrl', r.message);
      assert.ok(r.message.includes(`resolves to ${address}`), r.message);
      assert.ok(
        dns.asked.slice(before).some((a) => a.name === name),
        'the name was resolved (not refused for its spelling)',
      );
      assert.deepEqual(seen.attempts(), []);
      assert.equal(seen.hits(), 0);
    });
  }

  for (const [name, address] of INSIDE.filter(([, a]) => !isLoopback(a))) {
    test(`a loopback server's authorization server at ${name} (→ ${address}) is refused`, async () => {
      // A server on loopback may send the client to loopback, never to a private network.
      let url = '';
      const mcp = await hostileMcp(undefined, (req, res) => {
        if (!req.url?.startsWith('/.well-known/oauth-protected-resource')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ resource: url, authorization_servers: [`https://${name}:${canary.port}`] }));
        return true;
      });
      url = `http://127.0.0.1:${mcp.port}/mcp`;
      const seen = fromNow();
      const r = await refusal(url);
      assert.equal(r.code, 'UnsafeUrl', r.message);
      assert.match(r.message, /authorization server metadata/);
      assert.ok(r.message.includes(`resolves to ${address}`), r.message);
      assert.deepEqual(seen.attempts(), []);
    });
  }
});

describe('SSRF: redirects are checked hop by hop', () => {
  const targets = [
    `http://169.254.169.254:PORT/latest/meta-data/iam/security-credentials/`,
    `http://[::ffff:a9fe:a9fe]:PORT/latest/meta-data/`,
    `https://metadata.evil.test:PORT/latest/meta-data/`,
    `https://ten.evil.test:PORT/admin`,
  ];
  for (const target of targets) {
    test(`a metadata URL redirecting to ${target.replace(':PORT', '')} is refused`, async () => {
      const location = target.replace('PORT', String(canary.port));
      const mcp = await hostileMcp(undefined, (req, res) => {
        if (!req.url?.startsWith('/.well-known/')) return false;
        res.writeHead(302, { location });
        res.end();
        return true;
      });
      const seen = fromNow();
      const r = await refusal(`http://127.0.0.1:${mcp.port}/mcp`);
      assert.equal(r.code, 'UnsafeUrl', r.message);
      assert.match(r.message, /\(redirect\)/);
      assert.deepEqual(seen.attempts(), []);
    });
  }
});

describe('SSRF: DNS rebinding between the check and the connection', () => {
  for (const [name, inside] of [
    ['rebind.evil.test', '127.0.0.1'],
    ['rebind-ten.evil.test', '10.0.0.7'],
  ] as const) {
    test(`${name}: public when checked, ${inside} when connecting: no connection`, async () => {
      const mcp = await hostileMcp(`https://${name}:${canary.port}/.well-known/oauth-protected-resource`);
      const seen = fromNow();
      const r = await refusal(`http://mcp.evil.test:${mcp.port}/mcp`);
      assert.equal(r.code, 'UnsafeUrl', r.message);
      assert.ok(r.message.includes(`resolves to ${inside}`), r.message);
      // Checked (public), then resolved again when connecting (inside), and refused there.
      assert.deepEqual(
        dns.asked.filter((a) => a.name === name).map((a) => a.answer.join()),
        [PUBLIC, inside],
      );
      assert.deepEqual(seen.attempts(), []);
      assert.equal(seen.hits(), 0);
    });
  }

  test('an allowed name is reached at the address its lookup checked', async () => {
    // Only 127.0.0.2 listens on this port: a connection anywhere else would be refused.
    const on2 = createServer((req, res) => res.end(`${req.socket.localAddress} ${req.headers.host}`));
    await new Promise<void>((r) => on2.listen(0, '127.0.0.2', () => r()));
    cleanup.push(() => new Promise((r) => on2.close(() => r())));
    const port = (on2.address() as { port: number }).port;
    const guarded = new auth.GuardedFetch({ policy: { allowLoopback: true, allowHttp: true } });
    const res = await guarded.fetch(new URL(`http://ok.example.test:${port}/`), { what: 'metadata' });
    assert.equal(await res.text(), `127.0.0.2 ok.example.test:${port}`);
    assert.deepEqual(
      watch.attempts.filter((a) => a.port === port),
      [{ address: '127.0.0.2', port }],
    );
  });
});

describe('SSRF: the CLI uses the same default', () => {
  const main = join(root, 'dist/cli/main.js');
  const preload = join(root, 'dist/test-support/dns-stub-preload.js');
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mcpkit-ssrf-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], extraEnv: Record<string, string> = {}) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        MCPKIT_CREDENTIALS: join(dir, 'credentials.json'),
        MCPKIT_TEST_DNS: JSON.stringify(TABLE),
        PATH: '/nonexistent',
        NO_COLOR: '1',
      };
      delete env.MCPKIT_ALLOW_PRIVATE_NETWORK;
      Object.assign(env, extraEnv);
      const child = spawn(process.execPath, ['--import', preload, main, ...args], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('exit', (status) => resolve({ status, stderr }));
    });

  test('mcpkit login, logout and a --url command refuse a name that resolves to loopback', async () => {
    const inside = `https://loop.evil.test:${canary.port}/mcp`;
    const seen = fromNow();
    const login = await run(['login', '--url', inside]);
    assert.equal(login.status, 3, login.stderr);
    assert.match(login.stderr, /loop\.evil\.test resolves to 127\.0\.0\.1/);
    assert.match(login.stderr, /MCPKIT_ALLOW_PRIVATE_NETWORK=1/);

    const logout = await run(['logout', '--url', inside]);
    assert.equal(logout.status, 3, logout.stderr);
    assert.match(logout.stderr, /resolves to 127\.0\.0\.1/);

    // A --url command: the server's 401 points the stored-credentials client inside.
    const mcp = await hostileMcp(
      `https://loop.evil.test:${canary.port}/.well-known/oauth-protected-resource`,
    );
    const call = await run(['tools', '--url', `http://mcp.evil.test:${mcp.port}/mcp`]);
    assert.equal(call.status, 3, call.stderr);
    assert.match(call.stderr, /resolves to 127\.0\.0\.1/);
    assert.equal(seen.hits(), 0);

    // The opt-in is what stands between: with it the same login reaches the address.
    const allowed = await run(['login', '--url', inside], { MCPKIT_ALLOW_PRIVATE_NETWORK: '1' });
    assert.equal(allowed.status, 3);
    assert.ok(seen.hits() > 0, allowed.stderr);
  });
});
