#!/usr/bin/env node
// Runs every server scenario of the official conformance suite against our demo server: both
// frozen requirement sets (2025-11-25 and 2026-07-28) at their own wire versions, and every
// scenario at its default version, one scenario at a time with a hard timeout and a
// process-group kill. The last line is "N passed, M failed"; see conformance-suite.mjs.
//
//   npm run conformance:server [-- --scenario NAME] [-- --verbose]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { options, plan, report, runOne } from './conformance-suite.mjs';

const root = new URL('..', import.meta.url).pathname;
const { only, verbose, node } = options(process.argv.slice(2));
// The CLI bounds each scenario at 30 s itself; this bounds the CLI.
const HARD_TIMEOUT_MS = 45_000;

const p = plan(node, 'server', only);
if (p.runs.size === 0) {
  console.error(`No server scenario named ${only}`);
  process.exit(1);
}

// Our demo server on a free port; it prints its URL on stderr.
const server = spawn(process.execPath, [join(root, 'dist', 'cli', 'main.js'), 'demo-server', '--port', '0'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
const url = await new Promise((resolve, reject) => {
  let err = '';
  const t = setTimeout(() => reject(new Error(`demo server did not start: ${err}`)), 15000);
  server.stderr.on('data', (d) => {
    err += d;
    const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
    if (m) {
      clearTimeout(t);
      resolve(m[1].replace('127.0.0.1', 'localhost'));
    }
  });
  server.once('exit', (code) => reject(new Error(`demo server exited with ${code}: ${err}`)));
});

const out = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-server-'));
const results = new Map();
for (const [key, run] of p.runs) {
  const dir = join(out, key.replaceAll('/', '_'));
  const args = ['server', '--url', url, '--scenario', run.scenario, '--spec-version', run.version, '--force'];
  const r = await runOne(node, args, dir, HARD_TIMEOUT_MS, verbose);
  results.set(key, { ...r, scenario: run.scenario, lastLine: '' });
  console.log(`${r.ok ? '✓' : '✗'} ${run.scenario} @ ${run.version} (${r.ms} ms)`);
}
server.kill('SIGTERM');
console.log(`Results in ${out}`);
process.exitCode = report(p, results);
