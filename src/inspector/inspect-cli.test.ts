/**
 * `mcpkit inspect` as a user runs it: the printed URL, `--port`, `--open` (a browser
 * started without a shell, the URL as one argument: a stand-in `xdg-open` on PATH records
 * what it was given), usage errors, and a clean stop on SIGTERM.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lineMatching } from '../test-support/inspector-harness.js';
import { CLI, DEMO_STDIO } from '../test-support/inspector-harness.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const children: ChildProcess[] = [];

function inspect(args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(process.execPath, [CLI, 'inspect', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  children.push(child);
  return child;
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  return exited;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('mcpkit inspect (CLI)', () => {
  after(async () => {
    for (const c of children) await stop(c);
  });

  test('--port N is honoured and --open starts the browser without a shell, the URL as one argument', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'mcpkit-open-'));
    const record = join(bin, 'opened.txt');
    // A stand-in browser opener: writes each argument it got on its own line, into a file it
    // then renames, so the record appears whole (a file written in place can be seen empty).
    writeFileSync(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${record}.part'; done\nmv '${record}.part' '${record}'\n`,
    );
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const port = await freePort();
    const child = inspect(['--port', String(port), '--open', '--', process.execPath, DEMO_STDIO], {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    const url = await lineMatching(child, 'stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/);
    assert.equal(new URL(url).port, String(port));
    await waitFor(() => existsSync(record), WAIT_MS, 'the browser to be opened');
    assert.deepEqual(readFileSync(record, 'utf8').split('\n').filter(Boolean), [url]);
    // Stopped once its server answered (not while it is still starting the stdio child).
    const token = new URL(url).searchParams.get('token');
    await waitFor(
      async () => {
        const state = await fetch(new URL('/api/state', url), {
          headers: { authorization: `Bearer ${token}` },
        });
        const { wire } = (await state.json()) as { wire?: Array<{ dir: string }> };
        return wire?.some((w) => w.dir === 'in');
      },
      WAIT_MS,
      'the server to answer the inspector',
    );
    assert.equal(await stop(child), 0);
  });

  test('no target: an empty inspector, whose servers are connected from the page', async () => {
    const child = inspect(['--port', '0']);
    const url = new URL(
      await lineMatching(child, 'stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/),
    );
    const token = url.searchParams.get('token')!;
    const api = (op: string, body?: unknown): Promise<Record<string, unknown>> =>
      fetch(new URL(`/api/${op}`, url), {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    assert.deepEqual((await api('state')).servers, []);
    const added = (await api('connect', {
      name: 'demo',
      entry: { command: process.execPath, args: [DEMO_STDIO] },
    })) as { server: { name: string; state: string } };
    assert.equal(added.server.state, 'ready');
    assert.deepEqual(
      ((await api('state')).targets as Array<{ name: string }>).map((t) => t.name),
      ['demo'],
    );
    assert.match(
      String(((await api('connect', { name: 'bad name!', entry: {} })).error as { message: string }).message),
      /server name/,
    );
    assert.equal(await stop(child), 0);
  });

  test('--config: a config file’s command starts only with consent; without it nothing is spawned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-inspect-consent-'));
    const marker = join(dir, 'ran');
    const config = join(dir, 'mcp.json');
    // A "server" whose only effect is to create the marker: proof that its command ran.
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { cloned: { command: process.execPath, args: ['-e', script] } } }),
    );
    // No terminal to ask (stdin is not a TTY here) and no --yes: refused before anything starts.
    // Raced against the page being served, so a missing defence fails here instead of hanging.
    const refusing = inspect(['--port', '0', '--config', config], { ...process.env, HOME: dir });
    let stderr = '';
    refusing.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const outcome = await Promise.race([
      new Promise<number | null>((r) => refusing.once('exit', (code) => r(code))),
      lineMatching(refusing, 'stdout', /(inspector: open)/).then(
        () => 'served' as const,
        () => null,
      ),
    ]);
    assert.equal(outcome, 2, `refused with a usage error, not served: ${stderr}`);
    assert.match(stderr, /asks to start this command:\n {2}cloned: .*\n.*Pass --yes/);
    assert.equal(existsSync(marker), false, 'the command never ran');
    // --yes is the consent, as for `mcpkit host` and `proxy`: the very same command runs.
    const child = inspect(['--port', '0', '--config', config, '--yes'], { ...process.env, HOME: dir });
    await lineMatching(child, 'stdout', /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/);
    await waitFor(() => existsSync(marker), WAIT_MS, 'the consented command to run');
    assert.equal(await stop(child), 0);
  });

  test('usage errors: two targets, a bad port', () => {
    for (const [args, message] of [
      [['--url', 'http://127.0.0.1:1/mcp', '--', 'node'], /Choose one target/],
      [['--port', 'x', '--', 'node'], /--port must be a port number/],
    ] as const) {
      const r = spawnSync(process.execPath, [CLI, 'inspect', ...args], { encoding: 'utf8' });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
    }
  });

  test('a port in use is a clear error', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = spawnSync(
        process.execPath,
        [CLI, 'inspect', '--port', String(port), '--', process.execPath, DEMO_STDIO],
        {
          encoding: 'utf8',
        },
      );
      assert.equal(r.status, 2);
      assert.match(r.stderr, /Could not listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
    } finally {
      busy.close();
    }
  });
});
