// Import cost of each public entry point, in a fresh process each time, beside the official
// SDKs' nearest equivalents: the time `await import()` takes after node has started, and
// the CPU time it used (steadier than the clock on a shared machine: other processes'
// load stretches the wall time, much less the CPU time). Interleaved runs, medians.
//
// `--unbundled` also times tsc's modules (dist/, what `exports` pointed at before the bundle),
// interleaved with the bundle in the same runs, to show what bundling gains.
//
//   node bench/imports.mjs [--quick] [--json] [--runs N] [--unbundled]      (after npm run build)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './lib/stats.mjs';

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const unbundled = process.argv.includes('--unbundled');
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : quick ? 5 : 11;
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const require = createRequire(`${root}package.json`);

/** The file an `exports` entry points at under node's conditions. */
function entryFile(subpath) {
  const e = pkg.exports[subpath];
  const target = typeof e === 'string' ? e : (e.node?.default ?? e.default);
  return pathToFileURL(`${root}${target}`).href;
}

/** tsc's module for an `exports` entry: the .js beside the .d.ts its `types` names. */
function tscFile(subpath) {
  const e = pkg.exports[subpath];
  const types = e.node?.types ?? e.types;
  return pathToFileURL(`${root}${types.replace(/\.d\.ts$/, '.js')}`).href;
}

/** Each mcpkit entry, its budget in ms, and the nearest official SDK modules (v1, v2). */
const entries = [
  ['mcpkit', '.', 30, '@modelcontextprotocol/sdk/server/mcp.js', '@modelcontextprotocol/server'],
  [
    'mcpkit/server',
    './server',
    30,
    '@modelcontextprotocol/sdk/server/mcp.js',
    '@modelcontextprotocol/server',
  ],
  [
    'mcpkit/client',
    './client',
    30,
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/client',
  ],
  ['mcpkit/stdio', './stdio', 30, '@modelcontextprotocol/sdk/server/stdio.js', undefined],
  [
    'mcpkit/http-server',
    './http-server',
    30,
    '@modelcontextprotocol/sdk/server/streamableHttp.js',
    undefined,
  ],
  [
    'mcpkit/http-client',
    './http-client',
    30,
    '@modelcontextprotocol/sdk/client/streamableHttp.js',
    undefined,
  ],
  ['mcpkit/auth', './auth', 30, '@modelcontextprotocol/sdk/client/auth.js', undefined],
  ['mcpkit/auth/node', './auth/node', 30, '@modelcontextprotocol/sdk/server/auth/router.js', undefined],
  ['mcpkit/advanced', './advanced', 30, undefined, undefined],
  ['mcpkit/post-message', './post-message', 30, undefined, undefined],
  ['mcpkit/host', './host', 60, undefined, undefined],
  ['mcpkit/host/node', './host/node', 60, undefined, undefined],
];

const url = (spec) => (spec.startsWith('.') ? entryFile(spec) : pathToFileURL(require.resolve(spec)).href);

/** Wall and CPU ms for `await import(url)` in a fresh node process. */
function importMs(u) {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(u)});
const w = performance.now() - t; const u = process.cpuUsage(c);
process.stdout.write(w + ' ' + (u.user + u.system) / 1000);`;
  const [wall, cpu] = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
  })
    .split(' ')
    .map(Number);
  return { wall, cpu };
}

const targets = new Map();
for (const [, sub, , v1, v2] of entries) {
  targets.set(sub, url(sub));
  if (unbundled) targets.set(`tsc:${sub}`, tscFile(sub));
  if (v1) targets.set(v1, url(v1));
  if (v2) targets.set(v2, url(v2));
}
const times = Object.fromEntries([...targets.keys()].map((k) => [k, []]));
for (const u of targets.values()) importMs(u); // warms the file cache
for (let i = 0; i < RUNS; i++) for (const [k, u] of targets) times[k].push(importMs(u));
const ms = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs.map((x) => x.wall))]));
const cpu = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs.map((x) => x.cpu))]));

const rows = entries.map(([name, sub, budget, v1, v2]) => ({
  entry: name,
  ms: ms[sub],
  cpuMs: cpu[sub],
  budget,
  tsc: unbundled ? { ms: ms[`tsc:${sub}`], cpuMs: cpu[`tsc:${sub}`] } : undefined,
  v1: v1 && { module: v1.replace('@modelcontextprotocol/', ''), ms: ms[v1], cpuMs: cpu[v1] },
  v2: v2 && { module: v2.replace('@modelcontextprotocol/', ''), ms: ms[v2], cpuMs: cpu[v2] },
}));
if (asJson) {
  console.log(JSON.stringify(rows));
} else {
  console.log(`Import cost after node start (${RUNS} fresh processes each, medians, ms: wall / cpu)`);
  for (const r of rows) {
    const sdk = [
      r.tsc && `unbundled ${r.tsc.ms.toFixed(0)} / ${r.tsc.cpuMs.toFixed(0)}`,
      r.v1 && `v1 ${r.v1.module} ${r.v1.ms.toFixed(0)} / ${r.v1.cpuMs.toFixed(0)}`,
      r.v2 && `v2 ${r.v2.module} ${r.v2.ms.toFixed(0)} / ${r.v2.cpuMs.toFixed(0)}`,
    ]
      .filter(Boolean)
      .join(', ');
    console.log(
      `  ${r.entry.padEnd(20)} ${r.ms.toFixed(1).padStart(6)} / ${r.cpuMs.toFixed(1).padStart(5)}  (budget ${r.budget}${r.ms <= r.budget ? ', met' : ', OVER'})  ${sdk}`,
    );
  }
}
