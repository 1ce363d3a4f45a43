/**
 * Test-only: the built `mcpkit` CLI as a child process, as a user runs it, with its output
 * collected and waited on. Asynchronous on purpose: the servers a test attacks it with live
 * in the test's own process, so a synchronous spawn would starve them.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI's entry script in dist/. */
export const CLI_MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));

export interface CliProcess {
  readonly child: ChildProcess;
  /** Everything written so far. */
  readonly out: { stdout: string; stderr: string };
  /** The exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves with the first capture group of `re` once the stream matches; rejects if the CLI exits first. */
  printed(stream: 'stdout' | 'stderr', re: RegExp): Promise<string>;
  /** SIGTERM (if still running), then the exit. */
  stop(): Promise<void>;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** `pipe` keeps stdin open (not a terminal); default `ignore`. */
  stdin?: 'ignore' | 'pipe';
}

/** Starts `mcpkit ARGS…`. */
export function startCli(args: readonly string[], options: CliOptions = {}): CliProcess {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    env: options.env ?? process.env,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const onData = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
    out[stream] += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData('stdout'));
  child.stderr!.on('data', onData('stderr'));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    out,
    exited,
    printed(stream, re) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const m = re.exec(out[stream]);
          if (!m) return;
          listeners.delete(check);
          resolve(m[1] ?? m[0]);
        };
        listeners.add(check);
        check();
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          listeners.delete(check);
          reject(new Error(`mcpkit exited (${code}) before printing ${re}:\n${out.stderr}`));
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `mcpkit ARGS…` to its end. */
export async function runCli(
  args: readonly string[],
  options: CliOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startCli(args, options);
  const code = await p.exited;
  return { code, ...p.out };
}
