/**
 * Test-only: `mcpkit demo-server --port 0` as a child process, for the tests that need the
 * CLI's own HTTP server rather than one served in-process.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

export interface DemoProcess {
  readonly child: ChildProcess;
  /** The MCP endpoint it printed, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts the demo server on a free port; resolves once it has printed its URL. */
export async function startDemoProcess(extraArgs: readonly string[] = []): Promise<DemoProcess> {
  const child = spawn(process.execPath, [CLI, 'demo-server', '--port', '0', ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(err)));
  });
  return {
    child,
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
