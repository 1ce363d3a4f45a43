/**
 * Threat: Localhost Redirect URI Impersonation (security best practices) and Localhost
 * Redirect URI Risks (authorization security considerations, under "Client ID Metadata
 * Document Security"). Any local process can listen on a loopback port or send requests to
 * one: it can pose as the client's redirect listener, or feed the client's listener a
 * response of its own.
 *
 * Defence: warning the user about localhost-only redirect URIs and showing their host is the
 * authorization server's part (mcpkit is not one). What the client does (`loopbackInteraction`,
 * which `mcpkit login` uses): it listens on 127.0.0.1 (an address, not a name a hosts file
 * could move), on a port of the OS's choosing by default, refuses a non-loopback address
 * before listening, answers only a GET on its callback path carrying the state of a pending
 * authorization (anything else gets 404 and leaves the flow waiting), and never shows the
 * authorization URL when it could not listen (a squatted `--port`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AuthError } from '../auth/index.js';
import { loopbackInteraction } from '../auth/node.js';
import { startCli } from '../test-support/cli-process.js';
import { freePort } from '../test-support/cluster.js';
import { closeAfterEach, startProtected } from '../test-support/oauth-attacks.js';

const later = closeAfterEach();

/** The environment of a user's `mcpkit login`: its own credentials file, and no browser to open. */
function loginEnv(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-localhost-'));
  return { ...process.env, MCPKIT_CREDENTIALS: join(dir, 'credentials.json'), PATH: '/nonexistent' };
}

describe('localhost redirect URIs', () => {
  it('mcpkit login: forged callbacks from other local programs neither end nor hijack the sign-in', async () => {
    const { as, mcp } = await startProtected(later);
    const login = startCli(['login', '--url', mcp.url], { env: loginEnv() });
    later(() => login.stop());
    const authUrl = new URL(await login.printed('stderr', /Open this URL to authorize:\s+(\S+)/));
    const redirect = new URL(authUrl.searchParams.get('redirect_uri')!);
    assert.equal(redirect.hostname, '127.0.0.1', 'an address, not a name');
    assert.notEqual(redirect.port, '', 'a port of the OS’s choosing');
    const state = authUrl.searchParams.get('state')!;

    // A local program (or a web page the user has open) races the authorization server.
    const forged = [
      `${redirect.href}?code=evil-code&state=guessed`,
      `${redirect.href}?code=evil-code`,
      `${redirect.origin}/other?code=evil-code&state=${state}`,
    ];
    for (const f of forged) assert.equal((await fetch(f)).status, 404, f);
    const posted = await fetch(`${redirect.href}?code=evil-code&state=${state}`, { method: 'POST' });
    assert.equal(posted.status, 404);

    const answer = await fetch(authUrl, { redirect: 'manual' });
    const landed = await fetch(answer.headers.get('location')!);
    assert.equal(landed.status, 200);
    assert.equal(await login.exited, 0, login.out.stderr);
    assert.match(login.out.stdout, /^Signed in to /);
    const redeemed = as.tokenRequests.map((t) => t.body.code);
    assert.equal(redeemed.length, 1);
    assert.notEqual(redeemed[0], 'evil-code');
  });

  it('mcpkit login --port: a port squatted by another program fails the sign-in before any URL is shown', async () => {
    const { as, mcp } = await startProtected(later);
    const received: string[] = [];
    const squatter = createServer((socket) => {
      socket.on('data', (d: Buffer) => received.push(d.toString()));
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', () => resolve()));
    later(() => new Promise((resolve) => squatter.close(resolve)));
    const port = (squatter.address() as { port: number }).port;
    const login = startCli(['login', '--url', mcp.url, '--port', String(port)], { env: loginEnv() });
    later(() => login.stop());
    const outcome = await Promise.race([
      login.exited.then((code) => ({ code })),
      login.printed('stderr', /Open this URL to authorize:\s+(\S+)/).then((url) => ({ url })),
    ]);
    if ('url' in outcome) {
      // The user's browser would now deliver the code to whoever holds the port.
      const answer = await fetch(outcome.url, { redirect: 'manual' });
      await fetch(answer.headers.get('location')!).catch(() => undefined);
    }
    assert.deepEqual(received, [], 'the squatter received nothing');
    assert.ok('code' in outcome && outcome.code !== 0, 'the sign-in failed before showing a URL');
    assert.equal(as.count('/authorize'), 0);
  });

  for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
    it(`refuses to listen for the redirect on ${host} (reachable from the network)`, async () => {
      const port = await freePort();
      await assert.rejects(
        loopbackInteraction({ host, port }),
        (e: unknown) => e instanceof AuthError && e.code === 'InvalidConfiguration',
      );
      // Nothing was left listening on that port.
      const probe = createServer();
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(port, '127.0.0.1', () => resolve());
      });
      await new Promise((resolve) => probe.close(resolve));
    });
  }
});
