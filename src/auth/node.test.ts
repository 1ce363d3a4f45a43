import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { OAuthClient } from './client/oauth-client.js';
import { checkFetchTarget } from './client/network-policy.js';
import { AuthError } from './errors.js';
import { callText, connectWith, startProtectedMcp } from '../test-support/auth-fixtures.js';
import { FileCredentialStore, dnsResolver, loopbackInteraction, openInBrowser } from './node.js';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-auth-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('FileCredentialStore', () => {
  it('keeps records per issuer in a 0600 file inside a 0700 directory', async () => {
    const path = join(await tempDir(), 'nested', 'credentials.json');
    const store = new FileCredentialStore(path);
    assert.equal(await store.get('https://a.example'), undefined);
    await Promise.all([
      store.set('https://a.example', { issuer: 'https://a.example', client: { client_id: 'a' } }),
      store.set('https://b.example', { issuer: 'https://b.example', client: { client_id: 'b' } }),
    ]);
    assert.equal((await store.get('https://a.example'))?.client?.client_id, 'a');
    assert.equal((await store.get('https://b.example'))?.client?.client_id, 'b');
    if (process.platform !== 'win32') {
      assert.equal((await stat(path)).mode & 0o777, 0o600);
      assert.equal((await stat(join(path, '..'))).mode & 0o777, 0o700);
    }
    await store.delete('https://a.example');
    assert.equal(await store.get('https://a.example'), undefined);
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as { version: number; issuers: object };
    assert.deepEqual(Object.keys(onDisk.issuers), ['https://b.example']);
  });

  it('lets a new process refresh kept tokens without authorizing or registering again', async () => {
    const path = join(await tempDir(), 'credentials.json');
    // Tokens expire within the refresh margin, and each run listens on a new port.
    const as = await TestAuthServer.start({ accessTokenTtl: 30 });
    cleanup.push(() => as.close());
    const mcp = await startProtectedMcp(as);
    cleanup.push(() => mcp.close());
    for (let run = 0; run < 2; run++) {
      const interaction = await loopbackInteraction({
        open: async (url) => {
          // The "browser": follow the authorization server's redirect to the loopback listener.
          const r = await fetch(url, { redirect: 'manual' });
          await fetch(r.headers.get('location')!);
        },
      });
      cleanup.push(() => interaction.close());
      const oauth = new OAuthClient({
        serverUrl: mcp.url,
        interaction,
        store: new FileCredentialStore(path),
      });
      const client = await connectWith(oauth, mcp.url);
      assert.match(await callText(client, 'whoami'), /user-1/);
      await client.close();
    }
    assert.equal(as.count('/authorize'), 1);
    assert.equal(as.count('/register'), 1);
    assert.ok(as.tokenRequests.filter((t) => t.grant === 'refresh_token').length >= 2);
    const text = await readFile(path, 'utf8');
    assert.match(text, new RegExp(as.issuer.replace(/[.:/]/g, '\\$&')));
  });
});

describe('loopbackInteraction', () => {
  it('answers only the pending state on the callback path', async () => {
    let opened: URL | undefined;
    const interaction = await loopbackInteraction({ path: '/cb', open: (u) => void (opened = u) });
    cleanup.push(() => interaction.close());
    assert.match(interaction.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/cb$/);
    const url = new URL('https://auth.example.com/authorize?state=s1');
    const pending = interaction.openAuthorizationUrl(url, { redirectUri: interaction.redirectUri } as never);
    await waitFor(() => opened, WAIT_MS, 'the browser to be opened');
    assert.equal(opened?.href, url.href);
    assert.equal((await fetch(`${interaction.redirectUri}?code=c&state=other`)).status, 404);
    assert.equal((await fetch(interaction.redirectUri.replace('/cb', '/x') + '?state=s1')).status, 404);
    const ok = await fetch(`${interaction.redirectUri}?code=c1&state=s1&iss=https%3A%2F%2Fauth.example.com`);
    assert.equal(ok.status, 200);
    assert.equal((await ok.text()).includes('c1'), false, 'nothing of the response is reflected');
    assert.deepEqual(await pending, { code: 'c1', state: 's1', iss: 'https://auth.example.com' });
  });
});

describe('openInBrowser', () => {
  it('refuses anything but http and https, without spawning', async () => {
    for (const u of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x']) {
      await assert.rejects(
        openInBrowser(new URL(u)),
        (e) => e instanceof AuthError && e.code === 'UnsafeUrl',
      );
    }
  });
});

describe('dnsResolver', () => {
  it('lets the policy refuse names that resolve to loopback', async () => {
    assert.ok((await dnsResolver('localhost')).length > 0);
    // A name that is not loopback by itself, resolved through a stub to an internal address.
    const policy = { resolveHost: async () => ['127.0.0.1'] };
    await assert.rejects(
      checkFetchTarget(new URL('https://looks-public.example/'), 'metadata', policy),
      /loopback/,
    );
  });
});
