import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { startProtectedMcp } from '../test-support/auth-fixtures.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';

// mcpkit login / logout as a user runs them, against a real (test) authorization server and a
// bearer-protected MCP server on loopback. The "browser" is this test: it reads the URL the
// CLI prints, follows the authorization server's redirect, and lands on the CLI's loopback port.
const main = fileURLToPath(new URL('./main.js', import.meta.url));

test('mcpkit login stores tokens per issuer, later commands use them, logout forgets them', async () => {
  const as = await TestAuthServer.start({});
  const mcp = await startProtectedMcp(as);
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-login-'));
  const env = {
    ...process.env,
    MCPKIT_CREDENTIALS: join(dir, 'credentials.json'),
    PATH: '/nonexistent',
    NO_COLOR: '1',
  };
  try {
    const child = spawn(process.execPath, [main, 'login', '--url', mcp.url], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const authUrl = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /Open this URL to authorize:\s+(\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`login exited ${code}: ${err}`)));
    });
    assert.match(authUrl, /code_challenge_method=S256/);
    assert.match(authUrl, /resource=/);
    const authorize = await fetch(authUrl, { redirect: 'manual' });
    const callback = authorize.headers.get('location');
    assert.ok(callback?.startsWith('http://127.0.0.1:'), `redirect to the loopback listener: ${callback}`);
    const landed = await fetch(callback!);
    assert.equal(landed.status, 200);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, err);
    assert.match(out, /^Signed in to .* \(authorization server http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(statSync(env.MCPKIT_CREDENTIALS).mode & 0o777, 0o600);

    // Async: the servers live in this process, so a synchronous spawn would starve them.
    const run = (args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const c = spawn(process.execPath, [main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        c.once('exit', (status) => resolve({ status, stdout, stderr }));
      });
    const me = await run(['call', 'whoami', '--url', mcp.url]);
    assert.equal(me.status, 0, me.stderr);
    assert.equal((JSON.parse(me.stdout) as { subject: string }).subject, 'user-1');

    const bye = await run(['logout', '--url', mcp.url]);
    assert.equal(bye.status, 0, bye.stderr);
    const after = await run(['call', 'whoami', '--url', mcp.url]);
    assert.equal(after.status, 3);
    assert.match(after.stderr, /run mcpkit login --url/);
  } finally {
    await mcp.close();
    await as.close();
  }
});
