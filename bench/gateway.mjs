// Gateway hop: what `mcpkit proxy` adds to a tools/call, against a client calling the echo
// server directly and against a minimal proxy on the official SDK v1 (bench/servers/
// sdk-v1-proxy.mjs), in the legacy era (a 2025-11-25 session) and the modern one (2026-07-28).
// Every process is separate: the echo server (bench/servers/gateway-echo.mjs, mcpkit over
// Streamable HTTP), `mcpkit proxy --config` fronting it over HTTP, the SDK v1 proxy, and this
// client (mcpkit's, over HTTP). Interleaved rounds after a warm-up; per round and target:
// sequential calls (latency p50/p99, and the proxy's CPU per call from /proc), then 32 in
// flight (calls/s). Added latency = the target's p50 (p99) minus the direct p50 (p99) of the
// same era and round; medians over rounds. The SDK v1 proxy speaks the legacy era only. The
// CPU column is the proxy's (for a direct row: the echo server's, one HTTP hop's cost).
//
//   node bench/gateway.mjs [--quick] [--json] [--rounds N] [--calls N]
//   node bench/gateway.mjs --prof DIR      (the mcpkit proxy runs with --cpu-prof into DIR)
//   node bench/gateway.mjs --only mcpkit   (only the direct and mcpkit targets: profiling)
//   node bench/gateway.mjs --ab DIST       (also another build's proxy, DIST/cli/main.js)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../dist/index.js';
import { StreamableHttpClientTransport } from '../dist/transports/http-client/node.js';
import { median } from './lib/stats.mjs';
import { cpuOf } from './lib/proc-cpu.mjs';

const argv = process.argv;
const quick = argv.includes('--quick');
const asJson = argv.includes('--json');
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const ROUNDS = Number(opt('--rounds') ?? (quick ? 3 : 7));
const CALLS = Number(opt('--calls') ?? (quick ? 400 : 1500));
const BURST = quick ? 2000 : 6000;
const IN_FLIGHT = 32;
const WARMUP = quick ? 1000 : 3000;
const prof = opt('--prof');
const only = opt('--only');
const ab = opt('--ab');
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** A bench server child that reports its port over IPC (bench/servers/http-common.mjs). */
function startIpc(script, args = []) {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
    child.on('message', (m) => {
      if (m?.type === 'ready') resolve({ child, url: `http://127.0.0.1:${m.port}/mcp` });
    });
  });
}

/** `mcpkit proxy --config` fronting the echo server; resolves once it prints its URL. */
function startMcpkitProxy(upstream, dir, dist = here('../dist')) {
  const config = join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { echo: { url: upstream, policy: { default: 'allow' } } } }),
  );
  const flags = prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : [];
  const child = spawn(
    process.execPath,
    [...flags, join(dist, 'cli/main.js'), 'proxy', '--config', config, '--port', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.once('exit', (code) => reject(new Error(`mcpkit proxy exited ${code}: ${err}`)));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s) => {
      err += s;
      const m = /mcpkit gateway: (http\S+)/.exec(err);
      if (m) resolve({ child, url: m[1] });
    });
  });
}

async function client(url, era) {
  const c = new Client({ name: 'bench', version: '1.0.0' }, { era });
  await c.connect(new StreamableHttpClientTransport({ url }));
  return c;
}

const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const echo = await startIpc(here('./servers/gateway-echo.mjs'));
const procs = { echo: echo.child };
const mk = await startMcpkitProxy(echo.url, dir);
procs.mcpkit = mk.child;
const targets = [
  { key: 'direct|legacy', url: echo.url, era: 'legacy', tool: 'echo', pid: echo.child.pid },
  { key: 'direct|modern', url: echo.url, era: 'modern', tool: 'echo', pid: echo.child.pid },
  { key: 'mcpkit|legacy', url: mk.url, era: 'legacy', tool: 'echo__echo', pid: mk.child.pid },
  { key: 'mcpkit|modern', url: mk.url, era: 'modern', tool: 'echo__echo', pid: mk.child.pid },
];
if (ab) {
  const other = await startMcpkitProxy(echo.url, dir, ab);
  procs.ab = other.child;
  for (const era of ['legacy', 'modern'])
    targets.push({ key: `mcpkit-ab|${era}`, url: other.url, era, tool: 'echo__echo', pid: other.child.pid });
}
if (only !== 'mcpkit') {
  const v1 = await startIpc(here('./servers/sdk-v1-proxy.mjs'), [echo.url]);
  procs.v1 = v1.child;
  targets.push({ key: 'sdk-v1|legacy', url: v1.url, era: 'legacy', tool: 'echo', pid: v1.child.pid });
}
for (const t of targets) {
  t.client = await client(t.url, t.era);
  const args = { text: 'hello' };
  t.call = () => t.client.callTool({ name: t.tool, arguments: args });
  const r = await t.call();
  if (r.content?.[0]?.text !== 'hello') throw new Error(`${t.key}: ${JSON.stringify(r)}`);
}

async function sequential(t, n) {
  const lat = new Float64Array(n);
  const cpu0 = t.pid ? cpuOf(t.pid) : 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await t.call();
    lat[i] = (performance.now() - t0) * 1000;
  }
  const cpu = t.pid ? (cpuOf(t.pid) - cpu0) / n : undefined;
  lat.sort();
  return { p50: lat[Math.floor(n * 0.5)], p99: lat[Math.floor(n * 0.99)], cpu };
}

async function burst(t, total) {
  let started = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (started < total) {
      started++;
      await t.call();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return total / ((performance.now() - t0) / 1000);
}

for (const t of targets) {
  await burst(t, WARMUP);
  await sequential(t, WARMUP);
}
const results = Object.fromEntries(targets.map((t) => [t.key, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < targets.length; i++) {
    const t = targets[(i + r) % targets.length];
    const s = await sequential(t, CALLS);
    s.rate = await burst(t, BURST);
    results[t.key].push(s);
  }
}
for (const t of targets) await t.client.close();
for (const p of Object.values(procs)) {
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await exited;
}
rmSync(dir, { recursive: true, force: true });

/** Per target: added p50/p99 (µs, against the same round's direct run), calls/s, proxy CPU µs per call. */
const out = {};
for (const t of targets) {
  const era = t.key.split('|')[1];
  const direct = results[`direct|${era}`];
  const mine = results[t.key];
  const row = {
    p50: median(mine.map((s) => s.p50)),
    p99: median(mine.map((s) => s.p99)),
    rate: median(mine.map((s) => s.rate)),
  };
  if (!t.key.startsWith('direct')) {
    row.addedP50 = median(mine.map((s, i) => s.p50 - direct[i].p50));
    row.addedP99 = median(mine.map((s, i) => s.p99 - direct[i].p99));
  }
  row.cpu = median(mine.map((s) => s.cpu));
  out[t.key] = row;
}
if (asJson) {
  console.log(JSON.stringify(out));
} else {
  const f = (x) => (x === undefined ? '' : Math.round(x).toLocaleString('en-US'));
  console.log(
    `Gateway hop, tools/call echo over HTTP (${ROUNDS} rounds of ${CALLS} sequential calls and ${BURST} at ${IN_FLIGHT} in flight, medians)`,
  );
  console.log(
    `${'target'.padEnd(16)}${'p50 µs'.padStart(9)}${'p99 µs'.padStart(9)}${'added p50'.padStart(11)}${'added p99'.padStart(11)}${'calls/s'.padStart(10)}${'CPU µs/call'.padStart(13)}`,
  );
  for (const [k, r] of Object.entries(out))
    console.log(
      `${k.padEnd(16)}${f(r.p50).padStart(9)}${f(r.p99).padStart(9)}${f(r.addedP50).padStart(11)}${f(r.addedP99).padStart(11)}${f(r.rate).padStart(10)}${f(r.cpu).padStart(13)}`,
    );
  const v1 = out['sdk-v1|legacy'];
  if (v1)
    for (const era of ['legacy', 'modern']) {
      const m = out[`mcpkit|${era}`];
      console.log(
        `mcpkit ${era} vs sdk-v1 legacy: added p50 ${(m.addedP50 / v1.addedP50).toFixed(2)}×, calls/s ${(m.rate / v1.rate).toFixed(2)}×, proxy CPU ${(m.cpu / v1.cpu).toFixed(2)}×`,
      );
    }
  const l = out['mcpkit|legacy'];
  const m = out['mcpkit|modern'];
  console.log(`mcpkit modern/legacy added p50: ${(m.addedP50 / l.addedP50).toFixed(2)}×`);
}
