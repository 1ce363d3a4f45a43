/**
 * No server outlives its client: a program using StdioClientTransport that is killed by
 * SIGTERM or SIGINT (with no handler of its own) takes its servers down with it, even one
 * that ignores the end of its stdin; a program with its own handler keeps running and keeps
 * its servers; after SIGKILL, which nothing can catch, a server that honours the stdin-EOF
 * contract exits by itself (a stubborn one survives: documented in RELIABILITY.md).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';

const PARENT = fileURLToPath(new URL('./fixtures/orphan-parent.js', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startParent(
  ...args: string[]
): Promise<{ parent: ChildProcess; server: number; out: () => string }> {
  const parent = spawn(process.execPath, [PARENT, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  parent.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const server = await waitFor(() => {
    const m = /pid (\d+)/.exec(out);
    return m ? Number(m[1]) : undefined;
  }, 10_000);
  return { parent, server, out: () => out };
}

describe('orphaned servers', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} without a handler of the program's own: the server goes too`, async () => {
      const { parent, server } = await startParent('stubborn');
      assert.ok(alive(server));
      const exited = once(parent, 'exit');
      parent.kill(signal);
      const [code, sig] = (await exited) as [number | null, NodeJS.Signals | null];
      assert.equal(sig, signal, `the program still dies of ${signal} (code ${code})`);
      await waitFor(() => !alive(server), WAIT_MS);
    });
  }

  test('a program with its own handler keeps running, and keeps its server', async () => {
    const { parent, server, out } = await startParent('own-handler', 'stubborn');
    try {
      parent.kill('SIGTERM');
      await waitFor(() => out().includes('handled SIGTERM'), WAIT_MS);
      parent.kill('SIGINT');
      await waitFor(() => out().includes('handled SIGINT'), WAIT_MS);
      assert.equal(parent.exitCode, null);
      assert.ok(alive(server), 'the server is still there');
    } finally {
      const exited = once(parent, 'exit');
      parent.kill('SIGKILL');
      await exited;
      process.kill(-server, 'SIGKILL');
      await waitFor(() => !alive(server), WAIT_MS);
    }
  });

  test("a handler installed with process.once counts as the program's own", async () => {
    const { parent, server, out } = await startParent('own-once-handler', 'stubborn');
    try {
      parent.kill('SIGTERM');
      await waitFor(() => out().includes('alive after SIGTERM'), WAIT_MS);
      parent.kill('SIGINT');
      await waitFor(() => out().includes('alive after SIGINT'), WAIT_MS);
      assert.equal(parent.exitCode, null, 'the program is still running');
      assert.ok(alive(server), 'the server is still there');
    } finally {
      const exited = once(parent, 'exit');
      parent.kill('SIGKILL');
      await exited;
      process.kill(-server, 'SIGKILL');
      await waitFor(() => !alive(server), WAIT_MS);
    }
  });

  test('SIGKILL: the server sees stdin end and exits by itself', async () => {
    const { parent, server } = await startParent();
    const exited = once(parent, 'exit');
    parent.kill('SIGKILL');
    await exited;
    await waitFor(() => !alive(server), WAIT_MS);
  });
});
