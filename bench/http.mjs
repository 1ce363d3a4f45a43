// Streamable HTTP benchmark: mcpkit against the official SDK v1 and v2 and a bare node:http
// floor, in one run, interleaved, after a warm-up. Each server runs in its own child process
// (bench/servers/http-*.mjs); the clients run here.
//
// Workloads, in JSON and in SSE response mode: tools/call echo with 1 client and with 32
// concurrent clients (32 sessions, one call in flight each). Each implementation is driven
// by its own client ("own"), and every server also by a plain keep-alive node:http client
// ("raw"), so the servers' cost shows apart from the clients'. Then, on fresh
// server processes, N idle legacy sessions (initialize + initialized, no GET stream): the
// time to create them and the server's heap per session after a forced GC.
//
//   npm run bench:http          (builds first; about 3 minutes)
//   node bench/http.mjs --quick (about 30 seconds); --json for npm run bench's table
import { cpus, loadavg } from 'node:os';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client } from '../dist/index.js';
import { StreamableHttpClientTransport } from '../dist/transports/http-client/node.js';
import { agent, measure, measureCpu, rawLegacyClient, startServer } from './lib/http-raw.mjs';

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const CFG = quick
  ? {
      warmupMs: 1000,
      measureMs: 350,
      rounds: 1,
      sessions: 250,
      sessionWarmup: 50,
      sessionRounds: 1,
      lanes: 32,
    }
  : {
      warmupMs: 4500,
      measureMs: 650,
      rounds: 5,
      sessions: 1000,
      sessionWarmup: 200,
      sessionRounds: 4,
      lanes: 32,
    };
const VERSION = '2025-11-25';
const MODES = ['json', 'sse'];
const IMPLS = ['floor', 'sdk-v1', 'sdk-v2', 'mcpkit'];

// The SDK clients share one AbortSignal across fetches and trip MaxListenersExceededWarning
// thousands of times; count the warnings instead of printing them.
const warnings = new Map();
process.removeAllListeners('warning');
process.on('warning', (w) => warnings.set(w.name, (warnings.get(w.name) ?? 0) + 1));

// The server runner and the raw keep-alive client are shared with the other HTTP benchmarks.
const rawClient = (port) => rawLegacyClient(port, VERSION);

// ------------------------------------------------------------------ the SDKs' and our clients

const info = { name: 'bench', version: '1.0.0' };
const url = (port) => `http://127.0.0.1:${port}/mcp`;

async function v1Client(port) {
  const client = new V1Client(info);
  const transport = new V1Http(new URL(url(port)));
  await client.connect(transport);
  return {
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

async function v2Client(port) {
  const client = new V2Client(info);
  const transport = new V2Http(new URL(url(port)));
  await client.connect(transport);
  return {
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    close: async () => {
      await transport.terminateSession?.().catch(() => undefined);
      await client.close();
    },
  };
}

async function mcpkitClient(port) {
  const client = new Client(info, { era: 'legacy' });
  await client.connect(new StreamableHttpClientTransport({ url: url(port) }));
  return {
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    close: () => client.close(),
  };
}

const OWN = { 'sdk-v1': v1Client, 'sdk-v2': v2Client, mcpkit: mcpkitClient };

// ------------------------------------------------------------------ measuring

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rotate = (xs, n) => xs.map((_, i) => xs[(i + n) % xs.length]);

/** Creates `n` raw sessions, 8 at a time; resolves with the elapsed ms. */
async function createSessions(port, n) {
  let made = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < n) {
        made++;
        await rawClient(port);
      }
    }),
  );
  return performance.now() - t0;
}

// ------------------------------------------------------------------ the run

const started = performance.now();
const loadBefore = loadavg()[0];
console.error(`Starting servers…`);
const servers = Object.fromEntries(await Promise.all(IMPLS.map(async (i) => [i, await startServer(i)])));

// A run is a server driven by one client kind: raw for the floor, own and raw for the rest.
const runs = [];
for (const impl of IMPLS) {
  if (impl !== 'floor') runs.push({ impl, client: 'own', key: `${impl} own` });
  runs.push({ impl, client: 'raw', key: `${impl} raw` });
}
console.error(`Connecting ${CFG.lanes} clients per run and mode…`);
const lanes = {};
for (const run of runs) {
  for (const mode of MODES) {
    const port = servers[run.impl].ports[mode];
    const make = run.client === 'raw' ? rawClient : OWN[run.impl];
    const list = [];
    for (let i = 0; i < CFG.lanes; i++) list.push(await make(port));
    lanes[`${run.key} ${mode}`] = list;
  }
}

console.error(`Warming up (${CFG.warmupMs} ms per implementation)…`);
for (const impl of IMPLS) {
  const mine = runs.filter((r) => r.impl === impl);
  const slice = CFG.warmupMs / (mine.length * MODES.length);
  for (const run of mine) for (const mode of MODES) await measure(lanes[`${run.key} ${mode}`], slice);
}

const workloads = [];
for (const mode of MODES)
  for (const n of [1, CFG.lanes])
    workloads.push({ mode, n, label: `${mode}, ${n} client${n > 1 ? 's' : ''}` });
const results = {};
const cpu = {};
for (let round = 0; round < CFG.rounds; round++) {
  console.error(`Round ${round + 1}/${CFG.rounds}…`);
  for (const w of workloads) {
    for (const run of rotate(runs, round * 2)) {
      const server = servers[run.impl];
      const r = await measureCpu(server, lanes[`${run.key} ${w.mode}`].slice(0, w.n), CFG.measureMs);
      (results[`${w.label}|${run.key}`] ??= []).push(r.rate);
      (cpu[`${w.label}|${run.key}|server`] ??= []).push(r.server);
      (cpu[`${w.label}|${run.key}|client`] ??= []).push(r.client);
    }
  }
}

console.error(`Closing clients…`);
for (const list of Object.values(lanes)) await Promise.all(list.map((c) => c.close().catch(() => undefined)));
await Promise.all(Object.values(servers).map((s) => s.stop()));

// Idle sessions, on fresh servers, in SSE mode (every implementation's default), created
// in interleaved batches; the heap is read after forced GC before and after.
console.error(`Idle sessions: ${CFG.sessions} per implementation…`);
const fresh = Object.fromEntries(await Promise.all(IMPLS.map(async (i) => [i, await startServer(i)])));
const sessionResults = {};
for (const impl of IMPLS) {
  await createSessions(fresh[impl].ports.sse, CFG.sessionWarmup);
  sessionResults[impl] = { ms: 0, before: await fresh[impl].heap() };
}
const batch = Math.ceil(CFG.sessions / CFG.sessionRounds);
for (let round = 0; round < CFG.sessionRounds; round++) {
  for (const impl of rotate(IMPLS, round)) {
    sessionResults[impl].ms += await createSessions(fresh[impl].ports.sse, batch);
  }
}
for (const impl of IMPLS) {
  const r = sessionResults[impl];
  r.kb = ((await fresh[impl].heap()) - r.before) / (batch * CFG.sessionRounds) / 1024;
  await fresh[impl].stop();
}
agent.destroy();

// ------------------------------------------------------------------ the report

if (asJson) {
  const out = { workloads: {}, sessions: sessionResults };
  for (const w of workloads) {
    const row = (out.workloads[w.label] = {});
    for (const run of runs) {
      row[run.key] = {
        rate: median(results[`${w.label}|${run.key}`]),
        server: median(cpu[`${w.label}|${run.key}|server`]),
        client: median(cpu[`${w.label}|${run.key}|client`]),
      };
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const m = (label, key) => median(results[`${label}|${key}`]);

console.log(
  `\nStreamable HTTP benchmark — node ${process.version}, ${CFG.rounds} round(s) of ${CFG.measureMs} ms, medians, calls/s`,
);
console.log(
  `"own": each implementation's own client; "raw": a keep-alive node:http client, so the server's cost alone.\n`,
);
console.log(`| workload | floor | v1 own | v2 own | mcpkit own | mcpkit/v1 | mcpkit/v2 | mcpkit/floor |`);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
for (const w of workloads) {
  const f = m(w.label, 'floor raw');
  const v1 = m(w.label, 'sdk-v1 own');
  const v2 = m(w.label, 'sdk-v2 own');
  const k = m(w.label, 'mcpkit own');
  console.log(
    `| ${w.label} | ${fmt(f)} | ${fmt(v1)} | ${fmt(v2)} | ${fmt(k)} | ${ratio(k, v1)} | ${ratio(k, v2)} | ${ratio(k, f)} |`,
  );
}
console.log(`\nServers alone (raw client for all):\n`);
console.log(
  `| workload | floor | v1 server | v2 server | mcpkit server | mcpkit/v1 | mcpkit/v2 | mcpkit/floor |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
for (const w of workloads) {
  const f = m(w.label, 'floor raw');
  const v1 = m(w.label, 'sdk-v1 raw');
  const v2 = m(w.label, 'sdk-v2 raw');
  const k = m(w.label, 'mcpkit raw');
  console.log(
    `| ${w.label} | ${fmt(f)} | ${fmt(v1)} | ${fmt(v2)} | ${fmt(k)} | ${ratio(k, v1)} | ${ratio(k, v2)} | ${ratio(k, f)} |`,
  );
}
const us = (label, key, side) => median(cpu[`${label}|${key}|${side}`]);
const pair = (label, key) => `${fmt(us(label, key, 'server'))} / ${fmt(us(label, key, 'client'))}`;
console.log(`\nCPU µs per call, server / client (medians; less contention-sensitive than calls/s):\n`);
console.log(
  `| workload | floor | v1 own | v2 own | mcpkit own | v1 raw | v2 raw | mcpkit raw | server CPU v1÷mcpkit | v2÷mcpkit |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|`);
for (const w of workloads) {
  const l = w.label;
  const k = us(l, 'mcpkit raw', 'server');
  const cols = [
    'floor raw',
    'sdk-v1 own',
    'sdk-v2 own',
    'mcpkit own',
    'sdk-v1 raw',
    'sdk-v2 raw',
    'mcpkit raw',
  ];
  console.log(
    `| ${l} | ${cols.map((c) => pair(l, c)).join(' | ')} | ${ratio(us(l, 'sdk-v1 raw', 'server'), k)} | ${ratio(us(l, 'sdk-v2 raw', 'server'), k)} |`,
  );
}
console.log(
  `\nIdle legacy sessions (${CFG.sessions}, created 8 at a time with the raw client, SSE mode; heap after forced GC; lower is better):\n`,
);
console.log(`| | floor | v1 | v2 | mcpkit | mcpkit/v1 | mcpkit/v2 |`);
console.log(`|---|---:|---:|---:|---:|---:|---:|`);
const s = sessionResults;
console.log(
  `| create ${CFG.sessions}, ms | ${fmt(s.floor.ms)} | ${fmt(s['sdk-v1'].ms)} | ${fmt(s['sdk-v2'].ms)} | ${fmt(s.mcpkit.ms)} | ${ratio(s.mcpkit.ms, s['sdk-v1'].ms)} | ${ratio(s.mcpkit.ms, s['sdk-v2'].ms)} |`,
);
console.log(
  `| × floor | 1.00× | ${ratio(s['sdk-v1'].ms, s.floor.ms)} | ${ratio(s['sdk-v2'].ms, s.floor.ms)} | ${ratio(s.mcpkit.ms, s.floor.ms)} | | |`,
);
const kb = (x) => x.toFixed(1);
console.log(
  `| heap per session, KB | ${kb(s.floor.kb)} | ${kb(s['sdk-v1'].kb)} | ${kb(s['sdk-v2'].kb)} | ${kb(s.mcpkit.kb)} | ${ratio(s.mcpkit.kb, s['sdk-v1'].kb)} | ${ratio(s.mcpkit.kb, s['sdk-v2'].kb)} |`,
);
if (warnings.size > 0)
  console.log(`\nWarnings swallowed: ${[...warnings].map(([n, c]) => `${n} ×${c}`).join(', ')}`);
console.log(
  `\nTotal time ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end, on ${cpus().length} CPUs (other work on the machine skews calls/s more than CPU µs per call).`,
);
