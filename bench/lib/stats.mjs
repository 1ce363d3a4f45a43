// Small helpers every benchmark script shares: medians and process timing.
import { spawn } from 'node:child_process';

/** The median of a list of numbers (the upper one for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs a process to its end with output ignored; resolves to wall-clock ms. */
export function timeProcess(command, args, options = {}) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', ...options });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

/** Prefixes a command with `taskset -c <cpu>` when pinning is asked for. */
export const pinned = (cpu, command, args) =>
  cpu === undefined ? [command, args] : ['taskset', ['-c', String(cpu), command, ...args]];
