/**
 * Test-only: runs a fresh Node process under the module trace (`module-trace.ts`) and
 * returns every module it loaded, so a test can prove a code path leaves a dependency
 * unloaded.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TRACE = fileURLToPath(new URL('./module-trace.js', import.meta.url));
/** The build's root (dist/), where `-e` code resolves `./server/index.js` and the like. */
export const DIST = fileURLToPath(new URL('../', import.meta.url));

export interface TracedRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every module URL (ESM) or path (CommonJS) the process loaded, builtins included. */
  modules: string[];
}

/** Runs `node --import <trace> ...args` and reads back what it loaded. */
export function traceModules(
  args: string[],
  options: { cwd?: string; input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): TracedRun {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-trace-'));
  try {
    const file = join(dir, 'trace.txt');
    const r = spawnSync(process.execPath, ['--import', TRACE, ...args], {
      encoding: 'utf8',
      cwd: options.cwd ?? DIST,
      input: options.input ?? '',
      timeout: options.timeoutMs ?? 60_000,
      env: { ...process.env, ...options.env, MODULE_TRACE_FILE: file },
    });
    return {
      status: r.status,
      stdout: r.stdout,
      stderr: r.stderr,
      modules: readFileSync(file, 'utf8').split('\n'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every module a fresh process loads while running the ES module `code` in dist/; it must succeed. */
export function modulesLoadedBy(code: string): string[] {
  const r = traceModules(['--input-type=module', '-e', code]);
  assert.equal(r.status, 0, r.stderr);
  return r.modules;
}
