// Server CPU per call over Streamable HTTP, every server driven by the same raw keep-alive
// node:http client: the floor (bare node:http) against mcpkit, in JSON and SSE response mode,
// in the legacy era and the modern one (2026-07-28, stateless). The floor also answers
// modern-shaped messages, which shows what the modern era's larger messages cost by
// themselves. Interleaved rounds after a warm-up, medians.
//
//   node bench/http-cpu.mjs [--quick] [--json] [--clients N] [--ab DIST] [--best]
//                           [--only 'legacy sse'] [--rounds N]
//
// --ab DIST also runs mcpkit from another build (a dist/ directory) for an A/B comparison.
// --only runs one workload (a kind below), --rounds sets the number of interleaved rounds.
import { loadavg } from 'node:os';
import { agent, measureCpu, rawLegacyClient, rawModernClient, startServer } from './lib/http-raw.mjs';
import { median } from './lib/stats.mjs';

const argv = process.argv;
const quick = argv.includes('--quick');
const asJson = argv.includes('--json');
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const clientsList = opt('--clients') ? [Number(opt('--clients'))] : [1, 32];
const ab = opt('--ab');
const CFG = quick
  ? { warmupMs: 1500, measureMs: 400, rounds: 3 }
  : { warmupMs: 4000, measureMs: 800, rounds: 7 };
if (opt('--rounds')) CFG.rounds = Number(opt('--rounds'));
const only = opt('--only');

const impls = { floor: {}, mcpkit: {} };
if (ab) impls['mcpkit-ab'] = { MCPKIT_DIST: ab };
const servers = {};
for (const [name, env] of Object.entries(impls)) {
  servers[name] = await startServer(name === 'floor' ? 'floor' : 'mcpkit', env);
}

/** Workloads: an implementation, a port (response mode) and a client kind. */
const allKinds = {
  'legacy json': (s) => rawLegacyClient(s.ports.json),
  'legacy sse': (s) => rawLegacyClient(s.ports.sse),
  modern: (s) => rawModernClient(s.ports.json),
};
if (only !== undefined && !(only in allKinds)) throw new Error(`--only: one of ${Object.keys(allKinds)}`);
const kinds = only === undefined ? allKinds : { [only]: allKinds[only] };
const maxLanes = Math.max(...clientsList);
const lanes = {};
for (const name of Object.keys(impls))
  for (const [kind, make] of Object.entries(kinds)) {
    const list = [];
    for (let i = 0; i < maxLanes; i++) list.push(await make(servers[name]));
    lanes[`${name}|${kind}`] = list;
  }

const keys = Object.keys(lanes);
for (const k of keys) await measureCpu(servers[k.split('|')[0]], lanes[k], CFG.warmupMs / keys.length);
const results = {};
for (let round = 0; round < CFG.rounds; round++) {
  for (const n of clientsList) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[(i + round) % keys.length];
      const r = await measureCpu(servers[k.split('|')[0]], lanes[k].slice(0, n), CFG.measureMs);
      (results[`${k}|${n}`] ??= { us: [], rate: [] }).us.push(r.server);
      results[`${k}|${n}`].rate.push(r.rate);
    }
  }
}
for (const list of Object.values(lanes)) await Promise.all(list.map((c) => c.close().catch(() => undefined)));
await Promise.all(Object.values(servers).map((s) => s.stop()));
agent.destroy();

// --best reports each workload's lowest CPU per call: on a machine shared with other work,
// interference only ever adds CPU time (cache misses, migrations), so the minimum is the
// steadiest estimate there. Medians otherwise.
const best = argv.includes('--best');
const med = Object.fromEntries(
  Object.entries(results).map(([k, v]) => [
    k,
    { us: best ? Math.min(...v.us) : median(v.us), rate: median(v.rate) },
  ]),
);
if (asJson) {
  console.log(JSON.stringify(med));
} else {
  console.log(
    `Server CPU µs per call over HTTP (raw client, ${CFG.rounds} rounds of ${CFG.measureMs} ms, ${best ? 'best round' : 'medians'}; load ${loadavg()[0].toFixed(1)})`,
  );
  for (const n of clientsList) {
    for (const kind of Object.keys(kinds)) {
      const f = med[`floor|${kind}|${n}`].us;
      const cells = Object.keys(impls).map((i) => `${i} ${med[`${i}|${kind}|${n}`].us.toFixed(1)}`);
      const ratios = Object.keys(impls)
        .filter((i) => i !== 'floor')
        .map((i) => `${i}/floor ${(med[`${i}|${kind}|${n}`].us / f).toFixed(2)}`);
      console.log(`  ${n} client(s), ${kind.padEnd(11)} ${cells.join('  ')}   ${ratios.join('  ')}`);
    }
    if (only !== undefined) continue;
    for (const i of Object.keys(impls)) {
      const r = med[`${i}|modern|${n}`].us / med[`${i}|legacy json|${n}`].us;
      console.log(`  ${n} client(s), ${i}: modern / legacy json = ${r.toFixed(2)}`);
    }
  }
}
