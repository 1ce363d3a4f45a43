// `npm run bench`: every benchmark in one run, summed up in one table. mcpkit beside the
// official SDK v1 and v2 and a hand-written floor, with ratios, then mcpkit on each runtime
// (Node 20, 22, 24, Bun, Deno) beside Node 20 (bench/runtimes.mjs), and large catalogs beside
// the TypeScript peers (bench/catalog.mjs). Each benchmark runs in its
// own process; the stdio ones are pinned to one CPU (taskset), where this machine's
// unpinned results are bimodal. Absolute figures move with the machine's load; ratios from
// one run are what count.
//
//   npm run bench            (builds first; about 10 minutes)
//   node bench/run.mjs --quick
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runtimeTable } from './lib/runtime-table.mjs';

const quick = process.argv.includes('--quick');
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
let canPin = true;
try {
  execFileSync('taskset', ['-c', '0', 'true']);
} catch {
  canPin = false;
}

/** Runs one benchmark script with --json; pinned to one CPU when asked and possible. */
function run(script, { pin = false, args = [] } = {}) {
  const argv = [here(script), '--json', ...(quick ? ['--quick'] : []), ...args];
  const [cmd, a] =
    pin && canPin ? ['taskset', ['-c', '1', process.execPath, ...argv]] : [process.execPath, argv];
  process.stderr.write(`running ${script}${pin && canPin ? ' (pinned to CPU 1)' : ''}…\n`);
  const out = execFileSync(cmd, a, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const started = performance.now();
const load = loadavg()[0];
const stdio = run('./stdio.mjs', { pin: true });
const stdioCpu = run('./stdio-cpu.mjs', { pin: true, args: ['--best'] });
const eras = run('./stdio-eras.mjs', { pin: true });
const http = run('./http.mjs');
const httpCpu = run('./http-cpu.mjs', { args: ['--best'] });
const cli = run('./cli.mjs');
const imports = run('./imports.mjs');
const runtimes = run('./runtimes.mjs');
const catalog = run('./catalog.mjs');
const gateway = run('./gateway.mjs');

const rows = [];
/** One table row; `higher` says whether more is better (calls/s) or less (ms, µs, KB). */
function row(workload, unit, higher, v, note = '') {
  const vs = (other) => {
    if (v.mcpkit === undefined || other === undefined || !(other > 0) || !(v.mcpkit > 0)) return '';
    const r = higher ? v.mcpkit / other : other / v.mcpkit;
    return `${r.toFixed(2)}×`;
  };
  rows.push({ workload, unit, ...v, vsV1: vs(v.v1), vsV2: vs(v.v2), vsFloor: vs(v.floor), note });
}
const pinNote = canPin ? 'pinned to 1 CPU' : '';
/** One stdio workload's cells: the floor, both SDKs, and mcpkit's client named `ours`. */
const stdioCells = (t, ours = 'mcpkit') => ({
  floor: t.floor,
  v1: t['sdk-v1'],
  v2: t['sdk-v2'],
  mcpkit: t[ours],
});
row('stdio sequential tools/call', 'calls/s', true, stdioCells(stdio.seq), pinNote);
row('stdio 64 in flight', 'calls/s', true, stdioCells(stdio.conc), pinNote);
if (stdio.conc['mcpkit-modern'] !== undefined)
  row(
    'stdio 64 in flight, modern era',
    'calls/s',
    true,
    stdioCells(stdio.conc, 'mcpkit-modern'),
    `same client and server as the row above, in 2026-07-28: ${(stdio.conc['mcpkit-modern'] / stdio.conc.mcpkit).toFixed(2)}× the legacy era (sequential: ${(stdio.seq['mcpkit-modern'] / stdio.seq.mcpkit).toFixed(2)}×); stdio-eras.mjs: mcpkit ${eras.ratios.mcpkit.toFixed(2)}×, a floor pair (size alone) ${eras.ratios.floor.toFixed(2)}×`,
  );
row('stdio 1 MiB echo', 'calls/s', true, stdioCells(stdio.big), pinNote);
row(
  'stdio sequential, demo-server via CLI',
  'calls/s',
  true,
  stdioCells(stdio.seq, 'mcpkit-demo'),
  `${(stdio.seq['mcpkit-demo'] / stdio.seq['mcpkit-json']).toFixed(2)}× the one-tool library server`,
);
row(
  'stdio cold start (spawn, initialize, tools/list)',
  'ms',
  false,
  {
    floor: stdio.cold.floor,
    v1: stdio.cold['sdk-v1'],
    mcpkit: stdio.cold['mcpkit-json'],
  },
  `with zod: ${stdio.cold.mcpkit.toFixed(0)} ms; bare node: ${stdio.bare.toFixed(0)} ms`,
);
row(
  'stdio server CPU per call, legacy',
  'µs',
  false,
  {
    floor: stdioCpu['floor|legacy'],
    mcpkit: stdioCpu['mcpkit|legacy'],
  },
  'raw client, best round',
);
row(
  'stdio server CPU per call, modern',
  'µs',
  false,
  {
    floor: stdioCpu['floor|modern'],
    mcpkit: stdioCpu['mcpkit|modern'],
  },
  `modern/legacy: mcpkit ${(stdioCpu['mcpkit|modern'] / stdioCpu['mcpkit|legacy']).toFixed(2)}, floor (size alone) ${(stdioCpu['floor|modern'] / stdioCpu['floor|legacy']).toFixed(2)}`,
);
for (const [label, w] of Object.entries(http.workloads)) {
  row(
    `HTTP legacy ${label}`,
    'calls/s',
    true,
    {
      floor: w['floor raw'].rate,
      v1: w['sdk-v1 own'].rate,
      v2: w['sdk-v2 own'].rate,
      mcpkit: w['mcpkit own'].rate,
    },
    'each SDK with its own client; floor with a raw client',
  );
  row(
    `HTTP legacy ${label}, server CPU per call`,
    'µs',
    false,
    {
      floor: w['floor raw'].server,
      v1: w['sdk-v1 raw'].server,
      v2: w['sdk-v2 raw'].server,
      mcpkit: w['mcpkit raw'].server,
    },
    'raw client for all',
  );
}
for (const n of [1, 32]) {
  const c = (impl, kind) => httpCpu[`${impl}|${kind}|${n}`]?.us;
  if (c('mcpkit', 'modern') === undefined) continue;
  row(
    `HTTP modern, ${n} client${n > 1 ? 's' : ''}, server CPU per call`,
    'µs',
    false,
    {
      floor: c('floor', 'modern'),
      mcpkit: c('mcpkit', 'modern'),
    },
    `modern/legacy JSON: mcpkit ${(c('mcpkit', 'modern') / c('mcpkit', 'legacy json')).toFixed(2)}, floor (size alone) ${(c('floor', 'modern') / c('floor', 'legacy json')).toFixed(2)}; SSE/floor ${(c('mcpkit', 'legacy sse') / c('floor', 'legacy sse')).toFixed(2)}`,
  );
}
const s = http.sessions;
row('HTTP idle legacy session, heap', 'KB', false, {
  floor: s.floor.kb,
  v1: s['sdk-v1'].kb,
  v2: s['sdk-v2'].kb,
  mcpkit: s.mcpkit.kb,
});
const m = cli.medians;
row('CLI --help', 'ms', false, { floor: m['node -e 0'], mcpkit: m['mcpkit --help'] }, 'floor: node -e 0');
row(
  'CLI tools --json -- stdio server',
  'ms',
  false,
  { floor: m['raw tools client'], mcpkit: m['mcpkit tools --json'] },
  'floor: a raw NDJSON client',
);
row(
  'CLI demo-server --stdio cold start',
  'ms',
  false,
  {
    floor: m.floor,
    v1: m['sdk-v1'],
    mcpkit: m['mcpkit demo-server --stdio'],
  },
  'v1: the one-tool SDK server',
);
for (const r of imports) {
  row(
    `import ${r.entry}`,
    'ms',
    false,
    { v1: r.v1?.ms, v2: r.v2?.ms, mcpkit: r.ms },
    [r.v1 && `v1: ${r.v1.module}`, r.v2 && `v2: ${r.v2.module}`, `budget ${r.budget} ms`]
      .filter(Boolean)
      .join('; '),
  );
}

// Gateway hop (bench/gateway.mjs): what a proxy adds to a call; floor: the direct call.
for (const era of ['legacy', 'modern']) {
  const g = gateway[`mcpkit|${era}`];
  const v1 = gateway['sdk-v1|legacy'];
  row(
    `gateway hop ${era}, added p50`,
    'µs',
    false,
    { v1: v1.addedP50, mcpkit: g.addedP50 },
    'v1: a minimal SDK v1 proxy (legacy)',
  );
  row(
    `gateway hop ${era}, 32 in flight`,
    'calls/s',
    true,
    { floor: gateway[`direct|${era}`].rate, v1: v1.rate, mcpkit: g.rate },
    'floor: no proxy',
  );
}

const fmt = (x) => (x === undefined ? '' : x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));
console.log(
  `\nmcpkit benchmarks — node ${process.version}, ${cpus().length} CPUs, load ${load.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end${quick ? ', --quick' : ''}`,
);
console.log('Ratios: how many times better mcpkit is (above 1.00× is better, whatever the unit).\n');
console.log('| workload | unit | floor | SDK v1 | SDK v2 | mcpkit | vs v1 | vs v2 | vs floor | notes |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| ${r.workload} | ${r.unit} | ${fmt(r.floor)} | ${fmt(r.v1)} | ${fmt(r.v2)} | ${fmt(r.mcpkit)} | ${r.vsV1} | ${r.vsV2} | ${r.vsFloor} | ${r.note} |`,
  );
}
console.log('');
// Large catalogs (bench/catalog.mjs): mcpkit against the best TypeScript peer per measure.
console.log('| catalog | measure | SDK v1 | SDK v2 | tmcp | fastmcp | mcpkit | vs best peer |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const [n, v] of Object.entries(catalog)) {
  for (const [label, key] of [
    ['whole tools/list, ms', 'listMs'],
    ['whole tools/list, server CPU ms', 'listCpuMs'],
    ['heap, MB', 'heapMB'],
    ['start-up, ms', 'startupMs'],
    ['tools/call, µs', 'callUs'],
  ]) {
    const peers = ['sdk-v1', 'sdk-v2', 'tmcp', 'fastmcp'].map((k) => v[k]?.[key]);
    const best = Math.min(...peers.filter((x) => x > 0));
    console.log(
      `| ${n} tools | ${label} | ${peers.map(fmt).join(' | ')} | ${fmt(v.mcpkit[key])} | ${(best / v.mcpkit[key]).toFixed(2)}× |`,
    );
  }
}
console.log('');
for (const line of runtimeTable(runtimes)) console.log(line);
console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s.`);
