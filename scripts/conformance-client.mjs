#!/usr/bin/env node
// Runs the client scenarios of the official conformance suite against our conformance
// client (dist/conformance/client.js), one scenario at a time with a hard timeout, and
// prints "N passed, M failed" last. A scenario passes when the CLI exits 0 and its
// checks.json holds checks, none of them FAILURE or WARNING.
//
//   npm run conformance:client [-- --scenario NAME] [-- --no-auth] [-- --verbose]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node22 } from './node22.mjs';

const root = new URL('..', import.meta.url).pathname;
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const client = join(root, 'dist', 'conformance', 'client.js');
const args = process.argv.slice(2);
const only = args.includes('--scenario') ? args[args.indexOf('--scenario') + 1] : undefined;
const noAuth = args.includes('--no-auth');
const verbose = args.includes('--verbose');
// The suite gives the client 30 s; this bounds the CLI itself (mock servers, checks).
const HARD_TIMEOUT_MS = 45_000;

if (!existsSync(client)) {
  console.error(`${client} is missing: run \`npm run build\` first.`);
  process.exit(1);
}
// The suite splits the command on spaces.
if (/\s/.test(process.execPath + client)) {
  console.error('The paths of node and of the client must not contain spaces (the suite splits on them).');
  process.exit(1);
}

const node = node22();
const listed = spawnSync(node, [cli, 'list'], { encoding: 'utf8' }).stdout;
const section = listed.split('Client scenarios')[1] ?? '';
const scenarios = [...section.matchAll(/^\s+- ([A-Za-z0-9_./-]+)/gm)]
  .map((m) => m[1])
  .filter((s) => (!only || s === only) && (!noAuth || !s.startsWith('auth/')));
if (scenarios.length === 0) {
  console.error(only ? `No client scenario named ${only}` : 'The suite listed no client scenarios');
  process.exit(1);
}

/** Every checks.json under `dir` (the CLI nests them by scenario name and timestamp). */
function findChecks(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findChecks(p));
    else if (name === 'checks.json') out.push(p);
  }
  return out;
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const out = mkdtempSync(join(tmpdir(), 'mcpkit-conformance-client-'));
const command = `${process.execPath} ${client}`;
let passed = 0;
const failed = [];
for (const scenario of scenarios) {
  const dir = join(out, scenario.replaceAll('/', '_'));
  const t0 = performance.now();
  const child = spawn(node, [cli, 'client', '--command', command, '--scenario', scenario, '-o', dir], {
    stdio: ['ignore', 'ignore', verbose ? 'inherit' : 'ignore'],
    detached: true,
  });
  const code = await new Promise((resolve) => {
    const t = setTimeout(() => resolve('timeout'), HARD_TIMEOUT_MS);
    child.once('exit', (c) => {
      clearTimeout(t);
      resolve(c);
    });
  });
  // On timeout the CLI kills only the shell: end the whole group, our client included.
  killGroup(child.pid);
  const ms = Math.round(performance.now() - t0);
  let checks = [];
  for (const file of findChecks(dir)) {
    try {
      checks = checks.concat(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      // Unreadable results: counted as a failure below.
    }
  }
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  // The client's own last stderr line says why it gave up (or that it does not support the scenario).
  const stderrOf = findChecks(dir).map((f) => join(f, '..', 'stderr.txt'))[0];
  const lastLine =
    stderrOf && existsSync(stderrOf) ? readFileSync(stderrOf, 'utf8').trim().split('\n').pop() : '';
  if (code === 0 && bad.length === 0 && checks.length > 0) {
    passed++;
    console.log(`✓ ${scenario} (${ms} ms)`);
  } else {
    failed.push(scenario);
    const why =
      bad.map((c) => `${c.id}: ${c.errorMessage ?? c.status}`).join('; ') ||
      (code === 'timeout' ? 'timed out' : `exit ${code}${checks.length === 0 ? ', no checks' : ''}`);
    const tail = lastLine ? ` [client: ${lastLine.replace('[conformance-client] ', '')}]` : '';
    const text = why + tail;
    console.log(`✗ ${scenario} — ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`);
  }
}
console.log(`Results in ${out}`);
console.log(`${passed} passed, ${failed.length} failed`);
process.exitCode = failed.length === 0 ? 0 : 1;
