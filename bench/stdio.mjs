// stdio benchmark: mcpkit against the official SDK v1 and a hand-written floor, in one run,
// interleaved, with warm-up. Reports calls/s and the ratios between implementations.
//
//   node bench/stdio.mjs [--quick] [--json]     (after npm run build; npm run bench runs it pinned)
//   node bench/stdio.mjs --only mcpkit,mcpkit-modern [--in-flight 32] [--ab DIST]
//                                      (some clients only; DIST: another build, as mcpkit-ab*)
//
// Workloads: sequential tools/call, 64 in flight, a 1 MiB echo, and cold start (spawn,
// initialize, tools/list), for the NDJSON floor, the official SDK v1 and v2, and mcpkit;
// mcpkit-modern is the same client and server in the modern era (2026-07-28: `_meta` on every
// request, no handshake).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as OwnClient } from '../dist/index.js';
import { StdioClientTransport as OwnStdio } from '../dist/transports/stdio/index.js';
import { cpuOf } from './lib/proc-cpu.mjs';

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const BIG = 'x'.repeat(1024 * 1024);
const BIG_CALLS = quick ? 5 : 20;
const SEQ = quick ? 3000 : 20000;
const CONC_TOTAL = quick ? 6000 : 40000;
const opt = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const IN_FLIGHT = Number(opt('--in-flight') ?? 64);
const only = opt('--only')?.split(',');
const ab = opt('--ab');
// --prof DIR: mcpkit's servers run with --cpu-prof into DIR (profile this client with node --cpu-prof).
const prof = opt('--prof');
const abBuild = ab
  ? {
      Client: (await import(new URL(`file://${ab}/index.js`).href)).Client,
      StdioClientTransport: (await import(new URL(`file://${ab}/transports/stdio/index.js`).href))
        .StdioClientTransport,
    }
  : undefined;
const WARMUP = quick ? 1000 : 5000;
const ROUNDS = Number(opt('--rounds') ?? (quick ? 1 : 3));
const COLD_RUNS = quick ? 3 : 10;

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const servers = {
  floor: here('./servers/floor-echo.mjs'),
  'sdk-v1': here('./servers/sdk-v1-echo.mjs'),
  'sdk-v2': here('./servers/sdk-v2-echo.mjs'),
  mcpkit: here('./servers/mcpkit-echo.mjs'),
  'mcpkit-json': here('./servers/mcpkit-echo-json.mjs'),
};

/** A minimal NDJSON client for the floor. */
async function floorClient() {
  const child = spawn(process.execPath, [servers.floor], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let next = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    waiting.get(m.id)?.(m.result);
    waiting.delete(m.id);
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'b', version: '1' },
  });
  return {
    call: (text) => request('tools/call', { name: 'echo', arguments: { text } }),
    list: () => request('tools/list', {}),
    close: async () => {
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function sdkClient() {
  const client = new SdkClient({ name: 'bench', version: '1.0.0' });
  await client.connect(new SdkStdio({ command: process.execPath, args: [servers['sdk-v1']] }));
  return {
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    list: () => client.listTools(),
    close: () => client.close(),
  };
}

async function v2Client() {
  const client = new V2Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new V2Stdio({ command: process.execPath, args: [servers['sdk-v2']] }));
  return {
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    list: () => client.listTools(),
    close: () => client.close(),
  };
}

function mcpkitClientFor(script, era = 'legacy', build) {
  return async () => {
    const { Client, StdioClientTransport } = build ?? { Client: OwnClient, StdioClientTransport: OwnStdio };
    // era 'legacy' like the SDK v1 client: no server/discover probe, one initialize.
    const client = new Client({ name: 'bench', version: '1.0.0' }, { era });
    // A build under test serves itself too (MCPKIT_DIST).
    const env = build ? { ...process.env, MCPKIT_DIST: `file://${ab}` } : undefined;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...(prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : []), script],
      inheritEnv: true,
      ...(env ? { env } : {}),
    });
    await client.connect(transport);
    return {
      pid: transport.pid,
      call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
      list: () => client.listTools(),
      close: () => client.close(),
    };
  };
}
const mcpkitClient = mcpkitClientFor(servers.mcpkit);

/** The demo server through the CLI: every demo tool and its middleware, started by `mcpkit`. */
async function demoClient() {
  const client = new OwnClient({ name: 'bench', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(
    new OwnStdio({
      command: process.execPath,
      args: [here('../dist/cli/main.js'), 'demo-server', '--stdio'],
      inheritEnv: true,
      stderr: 'ignore',
    }),
  );
  return {
    call: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    list: () => client.listTools(),
    close: () => client.close(),
  };
}

/** A bare node process: spawn, start, exit. The floor for cold start. */
async function bareNode() {
  const t0 = performance.now();
  await new Promise((resolve) =>
    spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }).once('exit', resolve),
  );
  return performance.now() - t0;
}

const makers = {
  floor: floorClient,
  'sdk-v1': sdkClient,
  'sdk-v2': v2Client,
  mcpkit: mcpkitClient,
  'mcpkit-json': mcpkitClientFor(servers['mcpkit-json']),
  'mcpkit-demo': demoClient,
  'mcpkit-modern': mcpkitClientFor(servers.mcpkit, 'modern'),
};
if (abBuild) {
  makers['mcpkit-ab'] = mcpkitClientFor(servers.mcpkit, 'legacy', abBuild);
  makers['mcpkit-ab-modern'] = mcpkitClientFor(servers.mcpkit, 'modern', abBuild);
}
if (only) for (const k of Object.keys(makers)) if (!only.includes(k)) delete makers[k];
const coldMakers = {
  floor: floorClient,
  'sdk-v1': sdkClient,
  mcpkit: mcpkitClient,
  'mcpkit-json': makers['mcpkit-json'],
};

async function sequential(c, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await c.call('hello');
  return n / ((performance.now() - t0) / 1000);
}

const cpu = {};

/** Calls/s with `inFlight` lanes; `record` also keeps both processes' CPU per call. */
async function concurrent(c, total, inFlight, record = false) {
  let started = 0;
  const own0 = process.cpuUsage();
  const measure = record && only && c.pid;
  const srv0 = measure ? cpuOf(c.pid) : 0;
  const t0 = performance.now();
  const lane = async () => {
    while (started < total) {
      started++;
      await c.call('hello');
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const rate = total / ((performance.now() - t0) / 1000);
  if (measure) {
    const own = process.cpuUsage(own0);
    (cpu[c.name] ??= { client: [], server: [] }).client.push((own.user + own.system) / total);
    cpu[c.name].server.push((cpuOf(c.pid) - srv0) / total);
  }
  return rate;
}

/** 1 MiB echoes, one at a time: MiB/s. */
async function big(c, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const r = await c.call(BIG);
    const text = r?.content?.[0]?.text ?? r?.content?.[0]?.text;
    if (text !== undefined && text.length !== BIG.length) throw new Error('1 MiB echo came back wrong');
  }
  return n / ((performance.now() - t0) / 1000);
}

async function cold(name) {
  const t0 = performance.now();
  const c = await coldMakers[name]();
  await c.list();
  const ms = performance.now() - t0;
  await c.close();
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const names = Object.keys(makers);
const coldNames = only ? [] : Object.keys(coldMakers);
const results = { seq: {}, conc: {}, big: {}, cold: {}, bare: [] };
for (const n of names) {
  results.seq[n] = [];
  results.conc[n] = [];
  results.big[n] = [];
}
for (const n of coldNames) results.cold[n] = [];

for (let round = 0; round < ROUNDS; round++) {
  for (const name of names) {
    const c = await makers[name]();
    c.name = name;
    await concurrent(c, WARMUP, IN_FLIGHT);
    await sequential(c, WARMUP);
    results.seq[name].push(await sequential(c, SEQ));
    results.conc[name].push(await concurrent(c, CONC_TOTAL, IN_FLIGHT, true));
    await big(c, 2);
    results.big[name].push(await big(c, BIG_CALLS));
    await c.close();
  }
}
for (let i = 0; i < COLD_RUNS; i++) {
  results.bare.push(await bareNode());
  for (const name of coldNames) results.cold[name].push(await cold(name));
}

const med = (key) => Object.fromEntries(Object.keys(results[key]).map((n) => [n, median(results[key][n])]));
const coldMs = med('cold');
const bare = median(results.bare);
if (only) {
  const show = (key) =>
    Object.entries(med(key))
      .map(([n, v]) => `${n} ${Math.round(v)}`)
      .join(', ');
  console.log(`sequential calls/s: ${show('seq')}\n${IN_FLIGHT} in flight calls/s: ${show('conc')}`);
  for (const [n, v] of Object.entries(cpu))
    console.log(
      `${n}: ${IN_FLIGHT} in flight, CPU µs per call: client ${median(v.client).toFixed(1)}, server ${median(v.server).toFixed(1)}`,
    );
  process.exit(0);
}
if (asJson) {
  console.log(JSON.stringify({ seq: med('seq'), conc: med('conc'), big: med('big'), cold: coldMs, bare }));
  process.exit(0);
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const row = (label, key, unit, better) => {
  const m = Object.fromEntries(names.map((n) => [n, median(results[key][n])]));
  const ratio = better === 'higher' ? m.mcpkit / m['sdk-v1'] : m['sdk-v1'] / m.mcpkit;
  const vsFloor = better === 'higher' ? m.mcpkit / m.floor : m.mcpkit / m.floor;
  console.log(
    `${label.padEnd(34)} floor ${fmt(m.floor).padStart(8)}  sdk-v1 ${fmt(m['sdk-v1']).padStart(8)}  sdk-v2 ${fmt(m['sdk-v2']).padStart(8)}  mcpkit ${fmt(m.mcpkit).padStart(8)} ${unit}` +
      `   mcpkit vs sdk-v1: ${ratio.toFixed(2)}x ${better === 'higher' ? 'faster' : 'faster'}, mcpkit/floor: ${vsFloor.toFixed(2)}`,
  );
};
console.log(`stdio benchmark (node ${process.version}, ${ROUNDS} round(s), medians)`);
row('sequential tools/call', 'seq', 'calls/s', 'higher');
row(`${IN_FLIGHT} in flight tools/call`, 'conc', 'calls/s', 'higher');
row('1 MiB echo, one at a time', 'big', 'calls/s', 'higher');
{
  const seq = med('seq');
  console.log(
    `${'demo-server (CLI) vs library server'.padEnd(34)} sequential ${fmt(seq['mcpkit-demo'])} vs ${fmt(seq['mcpkit-json'])} calls/s: ${(seq['mcpkit-demo'] / seq['mcpkit-json']).toFixed(2)}`,
  );
}
console.log(
  `${'spawn + initialize + tools/list'.padEnd(34)} bare node ${fmt(bare)} ms  floor ${fmt(coldMs.floor)}  sdk-v1 ${fmt(coldMs['sdk-v1'])}  ` +
    `mcpkit+zod ${fmt(coldMs.mcpkit)}  mcpkit ${fmt(coldMs['mcpkit-json'])} ms`,
);
console.log(
  `${''.padEnd(34)} vs bare node: sdk-v1 ${(coldMs['sdk-v1'] / bare).toFixed(2)}x, mcpkit+zod ${(coldMs.mcpkit / bare).toFixed(2)}x, ` +
    `mcpkit ${(coldMs['mcpkit-json'] / bare).toFixed(2)}x; mcpkit vs sdk-v1: ${(coldMs['sdk-v1'] / coldMs['mcpkit-json']).toFixed(2)}x faster`,
);
