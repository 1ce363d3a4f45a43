// HTTP calls/s on each runtime beside Node 20, in one run: the runtime suite's server
// fixture (test/runtimes/server-fixture.mjs) served by Node 20, 22, 24, Bun, Deno (and
// workerd when its launcher is present), each driven by the same raw keep-alive node:http
// client from this process: tools/call `echo` in the legacy era (a 2025-11-25 session) and
// in the modern one (2026-07-28, stateless), with 1 and 32 clients (one call in flight
// each). Interleaved rounds after a warm-up, medians; the ratio is to Node 20's figure from
// the same run (the aim: at least 0.8× everywhere). Runtimes are installed on first use
// (scripts/runtimes.mjs); one that cannot be is listed with the reason.
//
// Beside each runtime's mcpkit server runs its floor (bench/servers/runtime-floor.mjs, on
// workerd runtime-floor-worker.mjs: the same HTTP server answering both eras' messages with
// no MCP machinery), measured in the same rounds, so a gap shows as the runtime's own (its
// floor below Node 20's floor) or as mcpkit's on that runtime (--no-floor leaves it out).
//
//   node bench/runtimes.mjs [--quick] [--json] [--only bun,deno] [--no-floor]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { agent, measure, rawLegacyClient, rawModernClient } from './lib/http-raw.mjs';
import { median } from './lib/stats.mjs';
import { runtimeTable } from './lib/runtime-table.mjs';
import { launchers } from '../test/runtimes/launchers.mjs';
import { runtimeVersion } from '../scripts/runtimes.mjs';

const argv = process.argv;
const quick = argv.includes('--quick');
const asJson = argv.includes('--json');
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const CFG = quick
  ? { warmupMs: 600, measureMs: 300, rounds: 3 }
  : { warmupMs: 2000, measureMs: 600, rounds: 7 };
const CLIENTS = [1, 32];
const NO_FLOOR = argv.includes('--no-floor');
/** The floor: a process script for Node, Bun and Deno, a Worker module for workerd. */
const FLOOR = fileURLToPath(new URL('./servers/runtime-floor.mjs', import.meta.url));
const FLOOR_WORKER = fileURLToPath(new URL('./servers/runtime-floor-worker.mjs', import.meta.url));
const ERAS = {
  legacy: (port) => rawLegacyClient(port),
  modern: (port) => rawModernClient(port),
};

const wanted = opt('--only')?.split(',') ?? Object.keys(launchers);
const names = ['node20', ...wanted.filter((n) => n !== 'node20')];

const started = performance.now();
const loadStart = loadavg()[0];
const runtimes = {};
const servers = {};
for (const name of names) {
  const launcher = launchers[name];
  if (!launcher) throw new Error(`--only: no runtime "${name}" (one of ${Object.keys(launchers)})`);
  try {
    const bin = launcher.binary();
    servers[`${name}|mcpkit`] = await launcher.start({ port: 0 });
    if (!NO_FLOOR)
      servers[`${name}|floor`] = await launcher.start({
        port: 0,
        script: launcher.worker ? FLOOR_WORKER : FLOOR,
      });
    runtimes[name] = { label: launcher.label, version: bin ? safeVersion(name, bin) : '' };
  } catch (err) {
    runtimes[name] = { label: launcher.label, error: String(err?.message ?? err).split('\n')[0] };
    process.stderr.write(`runtimes bench: ${name} left out: ${runtimes[name].error}\n`);
  }
}

function safeVersion(name, bin) {
  try {
    // `deno 2.5.6 (stable, …)` → `2.5.6`; Node's `v22.1.0` and Bun's `1.3.1` as they are.
    return runtimeVersion(name, bin)
      .replace(/^deno /, '')
      .replace(/ \(.*$/, '');
  } catch {
    return '';
  }
}

/**
 * CPU time (user + system, every thread) a process has used so far, in µs, from
 * /proc/<pid>/stat (clock ticks, 100 per second on Linux): the same measure for every
 * runtime, and steadier than calls/s on a machine shared with other work. NaN where
 * there is no /proc or no pid.
 */
function cpuMicros(pid) {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

try {
  const lanes = {};
  for (const [server, running] of Object.entries(servers)) {
    const port = Number(new URL(running.url).port);
    for (const era of Object.keys(ERAS)) {
      const list = [];
      for (let i = 0; i < Math.max(...CLIENTS); i++) list.push(await ERAS[era](port));
      // Warm-up: every server's JIT (and its lazily loaded parts) before anything is measured.
      // Right away, with every lane: a legacy session never used after initialize is swept
      // after 30 s, which warming all the others first would outlast.
      await measure(list, CFG.warmupMs).catch((err) => {
        throw new Error(`${server} ${era}: ${err.message}`, { cause: err });
      });
      lanes[`${server}|${era}`] = list;
    }
  }
  const keys = Object.keys(lanes);
  const rates = {};
  const cpus = {};
  for (let round = 0; round < CFG.rounds; round++) {
    for (const n of CLIENTS) {
      for (let i = 0; i < keys.length; i++) {
        const k = keys[(i + round) % keys.length];
        const [name, impl] = k.split('|');
        const pid = servers[`${name}|${impl}`].pid;
        // One unmeasured call per client first: a legacy session idle since the last round
        // (on workerd its Durable Object evicted after ~10 s) is measured in use, not cold.
        await Promise.all(lanes[k].slice(0, n).map((c) => c.call('warm')));
        const cpu0 = cpuMicros(pid);
        const { rate, count } = await measure(lanes[k].slice(0, n), CFG.measureMs);
        const cpu = cpuMicros(pid) - cpu0;
        (rates[`${k}|${n}`] ??= []).push(rate);
        const c = (cpus[`${k}|${n}`] ??= { us: 0, calls: 0 });
        c.us += cpu;
        c.calls += count;
      }
    }
  }
  for (const list of Object.values(lanes)) await Promise.all(list.map((c) => c.close().catch(() => {})));
  for (const [k, list] of Object.entries(rates)) {
    const [name, impl, era, n] = k.split('|');
    const into = impl === 'floor' ? (runtimes[name].floor ??= {}) : runtimes[name];
    (into.rates ??= {})[`${era}|${n}`] = median(list);
    const c = cpus[k];
    if (c.us > 0 && c.calls > 0) (into.cpu ??= {})[`${era}|${n}`] = c.us / c.calls;
  }
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  agent.destroy();
}

/** Ratios to Node 20's figures: calls/s over Node 20's, and Node 20's CPU per call over this one's. */
function ratios(r, base) {
  if (!r?.rates) return;
  r.ratios = {};
  for (const [k, v] of Object.entries(r.rates)) if (base?.rates?.[k] > 0) r.ratios[k] = v / base.rates[k];
  r.cpuRatios = {};
  for (const [k, v] of Object.entries(r.cpu ?? {}))
    if (base?.cpu?.[k] > 0 && v > 0) r.cpuRatios[k] = base.cpu[k] / v;
}
for (const r of Object.values(runtimes)) {
  ratios(r, runtimes.node20);
  ratios(r.floor, runtimes.node20?.floor);
}
const result = {
  load: [loadStart, loadavg()[0]],
  seconds: (performance.now() - started) / 1000,
  clients: CLIENTS,
  runtimes,
};

if (asJson) {
  console.log(JSON.stringify(result));
} else {
  for (const line of runtimeTable(result)) console.log(line);
}
