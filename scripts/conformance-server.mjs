#!/usr/bin/env node
// Runs every server scenario of the official conformance suite against our demo server,
// one scenario at a time with a hard timeout, and prints "N passed, M failed" last.
// A scenario with any FAILURE or WARNING check counts as failed.
//
//   npm run conformance:server [-- --scenario NAME]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node22 } from './node22.mjs';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const node = node22();
const only = process.argv.includes('--scenario')
  ? process.argv[process.argv.indexOf('--scenario') + 1]
  : undefined;

const listed = spawnSync(node, [cli, 'list'], { encoding: 'utf8' }).stdout;
const section = listed.split('Client scenarios')[0];
const scenarios = [...section.matchAll(/^\s+- ([a-z0-9-]+)/gm)]
  .map((m) => m[1])
  .filter((s) => !only || s === only);

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

const out = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-'));
let passed = 0;
const failed = [];
for (const scenario of scenarios) {
  const dir = join(out, scenario);
  const child = spawn(node, [cli, 'server', '--url', url, '--scenario', scenario, '-o', dir], {
    stdio: ['ignore', 'ignore', 'ignore'],
    detached: true,
  });
  const code = await new Promise((resolve) => {
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      resolve('timeout');
    }, 60000);
    child.once('exit', (c) => {
      clearTimeout(t);
      resolve(c);
    });
  });
  let checks = [];
  try {
    const sub = readdirSync(dir)[0];
    checks = JSON.parse(readFileSync(join(dir, sub, 'checks.json'), 'utf8'));
  } catch {
    // No results: counted as a failure below.
  }
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  if (code === 0 && bad.length === 0 && checks.length > 0) {
    passed++;
    console.log(`✓ ${scenario}`);
  } else {
    failed.push(scenario);
    const why = bad.map((c) => `${c.id}: ${c.errorMessage ?? c.status}`).join('; ') || `exit ${code}`;
    console.log(`✗ ${scenario} — ${why}`);
  }
}
server.kill('SIGTERM');
console.log(`Results in ${out}`);
console.log(`${passed} passed, ${failed.length} failed`);
process.exitCode = failed.length === 0 ? 0 : 1;
