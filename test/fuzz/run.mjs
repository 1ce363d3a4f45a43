#!/usr/bin/env node
// Runs every fuzz target for a time budget: `node test/fuzz/run.mjs --seconds 600` (the
// long run, `npm run fuzz`) or `--seconds 2` (the short run in `npm test`). Optional
// `--target NAME`. Prints runs per target; exits 1 with the counterexample on a failure.
// Then the coverage-guided loop (guided.mjs) runs its targets for the same time each
// (`--no-guided` skips it).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { closeTargets, targets } from './targets.mjs';
import { regressions } from './regressions.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const seconds = Number(arg('--seconds', '10'));
const only = arg('--target', undefined);

let failed = false;
for (const r of regressions) {
  try {
    await r.check();
  } catch (e) {
    failed = true;
    console.error(`regression ${r.name} FAILED: ${e?.stack ?? e}`);
  }
}
console.log(`${regressions.length} regression cases checked`);

for (const t of targets) {
  if (only && t.name !== only) continue;
  let runs = 0;
  const property = t.property();
  const counted = property.beforeEach ? property.beforeEach((prev) => (runs++, prev())) : property;
  const started = performance.now();
  const result = await fc.check(counted, {
    numRuns: Number.MAX_SAFE_INTEGER,
    interruptAfterTimeLimit: seconds * 1000,
    markInterruptAsFailure: false,
  });
  const ms = performance.now() - started;
  if (result.failed) {
    failed = true;
    console.error(`${t.name}: FAILED after ${result.numRuns} runs\n${fc.defaultReportMessage(result)}`);
  } else {
    console.log(
      `${t.name.padEnd(18)} ${String(result.numRuns || runs).padStart(9)} runs in ${(ms / 1000).toFixed(1)} s  (${t.what})`,
    );
  }
}
await closeTargets();

// The coverage-guided loop (guided.mjs) for its targets, in a process of its own: its
// coverage must start before the modules load, and would slow the runs above.
if (!process.argv.includes('--no-guided')) {
  const guided = fileURLToPath(new URL('./guided.mjs', import.meta.url));
  const args = ['--seconds', String(seconds), ...(only ? ['--target', only] : [])];
  if (spawnSync(process.execPath, [guided, ...args], { stdio: 'inherit' }).status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
