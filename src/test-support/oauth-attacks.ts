/**
 * Test-only helpers for the security suite's OAuth attacks: servers closed after each test,
 * the test authorization server with a bearer-protected MCP server in front of it, a
 * connection through the public client that must be refused (with everything fetched and
 * opened on the way), and a fake browser opener on PATH that records what it was given.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'node:test';
import { OAuthClient, findAuthError } from '../auth/index.js';
import type { AuthErrorCode, OAuthClientOptions } from '../auth/index.js';
import { callText, connectWith, recordingFetch, spyInteraction, startProtectedMcp } from './auth-fixtures.js';
import type { ProtectOptions, ProtectedMcp } from './auth-fixtures.js';
import { TestAuthServer } from './auth-test-server.js';
import type { TestAsOptions } from './auth-test-server.js';

/**
 * Returns `later(close)`: everything given to it is closed after each test of the calling
 * file, last first. Call it once, at the top of a test file.
 */
export function closeAfterEach(): (close: () => Promise<unknown> | void) => void {
  const closers: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });
  return (close) => void closers.push(close);
}

/** The test authorization server and an MCP server (tools `whoami`, `write`) trusting it. */
export async function startProtected(
  later: (close: () => Promise<unknown>) => void,
  asOptions: TestAsOptions = {},
  mcpOptions: ProtectOptions = {},
): Promise<{ as: TestAuthServer; mcp: ProtectedMcp }> {
  const as = await TestAuthServer.start(asOptions);
  later(() => as.close());
  const mcp = await startProtectedMcp(as, mcpOptions);
  later(() => mcp.close());
  return { as, mcp };
}

/** What one refused connection did on the way. */
export interface Refusal {
  message: string;
  /** Every URL the OAuth layer fetched. */
  urls: string[];
  /** Every authorization URL handed to the interaction (the "browser"). */
  opened: URL[];
}

/**
 * Connects our Client to `url` through an {@link OAuthClient} (a recording fetch, an
 * interaction that records what it is asked to open and then follows the redirect
 * headlessly), and expects an AuthError with `code`.
 */
export async function connectRefused(
  url: string,
  code: AuthErrorCode,
  extra: Partial<OAuthClientOptions> = {},
): Promise<Refusal> {
  const rec = recordingFetch();
  const interaction = spyInteraction();
  const oauth = new OAuthClient({ serverUrl: url, interaction, fetch: rec.fetch, ...extra });
  let error: unknown;
  await connectWith(oauth, url).then(
    (c) => c.close(),
    (e: unknown) => (error = e),
  );
  const auth = findAuthError(error);
  assert.equal(auth?.code, code, `expected ${code}, got ${String(error)}`);
  return { message: auth!.message, urls: rec.urls, opened: interaction.opened };
}

/** Connects through `oauth` and returns what the `whoami` tool says about the caller. */
export async function whoami(oauth: OAuthClient, url: string): Promise<Record<string, unknown>> {
  const client = await connectWith(oauth, url);
  try {
    return JSON.parse(await callText(client, 'whoami')) as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

/** A fake browser opener: the program `openInBrowser` runs on this platform, recording its arguments. */
export interface FakeOpener {
  /** Put first on PATH. */
  readonly dir: string;
  /** The argument lists it was run with, one per run. */
  runs(): string[][];
}

/**
 * Writes `xdg-open` (or `open` on macOS) into `dir`: a shell script that records each run's
 * arguments, one per line, runs separated by a blank line, and opens nothing. POSIX only.
 */
export function fakeOpener(dir: string): FakeOpener {
  const log = join(dir, 'opened.log');
  const name = process.platform === 'darwin' ? 'open' : 'xdg-open';
  const script = join(dir, name);
  writeFileSync(
    script,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\necho >> '${log}'\n`,
  );
  chmodSync(script, 0o755);
  return {
    dir,
    runs: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n\n')
            .filter((r) => r.trim() !== '')
            .map((r) => r.split('\n').filter((l) => l !== ''))
        : [],
  };
}
