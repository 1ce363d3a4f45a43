// Large catalogs: servers of N = 10, 100, 1,000 and 5,000 generated tools (realistic zod
// schemas, as from an OpenAPI document; bench/lib/catalog-tools.mjs), mcpkit beside the
// official SDK v1 and v2, tmcp and fastmcp. One process per server over stdio, driven by the
// same raw NDJSON client, in interleaved rounds. Per server and N:
//   - start-up: spawn to the initialize answer (time to first answer), median of cold starts;
//   - whole tools/list: every page, following nextCursor as a client does; wall ms and the
//     server's CPU ms (from /proc), medians over the rounds;
//   - tools/call: sequential round trip µs, median;
//   - heap: heapUsed after the lists, after a forced GC (bench/lib/heap-probe.mjs).
//
//   node bench/catalog.mjs [--quick] [--json] [--sizes 1000,5000] [--only mcpkit,fastmcp] [--ab DIST]
//                          [--page-sizes 100,1000] [--cold 3]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { catalogArgs, catalogTool } from './lib/catalog-tools.mjs';
import { median } from './lib/stats.mjs';
import { cpuOf } from './lib/proc-cpu.mjs';

const argv = process.argv;
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const quick = argv.includes('--quick');
const asJson = argv.includes('--json');
const ab = opt('--ab');
const SIZES = (opt('--sizes') ?? '10,100,1000,5000').split(',').map(Number);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const impls = {
  'sdk-v1': [here('./servers/catalog/sdk-v1.mjs'), {}],
  'sdk-v2': [here('./servers/catalog/sdk-v2.mjs'), {}],
  tmcp: [here('./servers/catalog/tmcp.mjs'), {}],
  fastmcp: [here('./servers/catalog/fastmcp.mjs'), {}],
  mcpkit: [here('./servers/catalog/mcpkit.mjs'), {}],
};
if (ab) impls['mcpkit-ab'] = [here('./servers/catalog/mcpkit.mjs'), { MCPKIT_DIST: ab }];
for (const size of opt('--page-sizes')?.split(',') ?? []) {
  impls[`mcpkit-p${size}`] = [here('./servers/catalog/mcpkit.mjs'), { MCPKIT_PAGE_SIZE: size }];
}
const only = opt('--only')?.split(',');
if (only) for (const k of Object.keys(impls)) if (!only.includes(k)) delete impls[k];

/**
 * A raw NDJSON client like bench/lib/raw-stdio.mjs, but linear in the size of a line: a page
 * of thousands of tools arrives in many chunks, and only the new chunk is searched.
 */
function lineClient(command, args, options) {
  const child = spawn(command, args, options);
  const waiting = new Map();
  let next = 1;
  let parts = [];
  child.stdout.on('data', (chunk) => {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      parts.push(chunk.subarray(from, nl));
      const m = JSON.parse(Buffer.concat(parts).toString('utf8'));
      parts = [];
      from = nl + 1;
      const w = waiting.get(m.id);
      if (w) {
        waiting.delete(m.id);
        w(m);
      }
    }
    if (from < chunk.length) parts.push(chunk.subarray(from));
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  const notify = (method) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  const close = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
      child.kill();
    });
  return { request, notify, close, pid: child.pid, child };
}

function start(name, n) {
  const [script, env] = impls[name];
  const c = lineClient(
    process.execPath,
    ['--expose-gc', '--import', here('./lib/heap-probe.mjs'), script, String(n)],
    {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  c.child.once('exit', (code, signal) => {
    if (!c.closing) throw new Error(`${name} (${n} tools) exited: ${code ?? signal}`);
  });
  const close = c.close;
  c.close = () => ((c.closing = true), close());
  let err = '';
  const heapWaiters = [];
  c.child.stderr.setEncoding('utf8');
  c.child.stderr.on('data', (chunk) => {
    err += chunk;
    for (let m; (m = /catalog-heap (\d+)\n/.exec(err));) {
      err = err.slice(m.index + m[0].length);
      heapWaiters.shift()?.(Number(m[1]));
    }
    if (err.length > 1 << 16) err = err.slice(-1024);
  });
  c.heap = () =>
    new Promise((resolve) => {
      heapWaiters.push(resolve);
      c.child.kill('SIGUSR2');
    });
  return c;
}

async function initialize(c) {
  const init = await c.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'catalog-bench', version: '1' },
  });
  if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  c.notify('notifications/initialized');
}

/** Every page of tools/list, as a client fetches them; returns the tools and the page count. */
async function wholeList(c) {
  const tools = [];
  let cursor;
  let pages = 0;
  do {
    const r = await c.request('tools/list', cursor === undefined ? {} : { cursor });
    if (!r.result) throw new Error(`tools/list failed: ${JSON.stringify(r.error)}`);
    for (const t of r.result.tools) tools.push(t);
    cursor = r.result.nextCursor;
    pages++;
  } while (cursor !== undefined && cursor !== null);
  return { tools, pages };
}

const results = {};
for (const n of SIZES) {
  const cold = Number(opt('--cold') ?? (quick ? 3 : n >= 5000 ? 5 : 9));
  const lists = quick ? (n >= 1000 ? 2 : 20) : n >= 5000 ? 5 : n >= 1000 ? 20 : 200;
  const calls = quick ? 200 : 2000;
  const rounds = quick ? 2 : 4;
  const r = Object.fromEntries(
    Object.keys(impls).map((k) => [
      k,
      { startup: [], list: [], listCpu: [], call: [], callCpu: [], heap: 0, pages: 0, bytes: 0 },
    ]),
  );
  // Start-up: cold starts, interleaved.
  for (let i = 0; i < cold; i++) {
    for (const name of Object.keys(impls)) {
      const t0 = performance.now();
      const c = start(name, n);
      await initialize(c);
      r[name].startup.push(performance.now() - t0);
      await c.close();
    }
  }
  // Lists, calls, heap: one long-lived server each, rounds interleaved.
  const live = {};
  for (const name of Object.keys(impls)) {
    live[name] = start(name, n);
    await initialize(live[name]);
    const first = await wholeList(live[name]);
    if (first.tools.length !== n) throw new Error(`${name} listed ${first.tools.length} of ${n} tools`);
    r[name].pages = first.pages;
    r[name].bytes = JSON.stringify(first.tools).length;
  }
  const callName = catalogTool(Math.floor(n / 2)).name;
  const callArgs = catalogArgs(Math.floor(n / 2));
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(impls)) {
      const c = live[name];
      await wholeList(c); // warm-up
      const cpu0 = cpuOf(c.pid);
      const t0 = performance.now();
      for (let i = 0; i < lists; i++) await wholeList(c);
      r[name].list.push((performance.now() - t0) / lists);
      r[name].listCpu.push((cpuOf(c.pid) - cpu0) / lists / 1000);
      for (let i = 0; i < 100; i++) await c.request('tools/call', { name: callName, arguments: callArgs });
      const cpu1 = cpuOf(c.pid);
      const t1 = performance.now();
      for (let i = 0; i < calls; i++) {
        const res = await c.request('tools/call', { name: callName, arguments: callArgs });
        if (!res.result || res.result.isError)
          throw new Error(`${name}: tools/call failed ${JSON.stringify(res)}`);
      }
      r[name].call.push(((performance.now() - t1) / calls) * 1000);
      r[name].callCpu.push((cpuOf(c.pid) - cpu1) / calls);
    }
  }
  for (const name of Object.keys(impls)) {
    r[name].heap = await live[name].heap();
    await live[name].close();
  }
  results[n] = Object.fromEntries(
    Object.entries(r).map(([k, v]) => [
      k,
      {
        startupMs: median(v.startup),
        listMs: median(v.list),
        listCpuMs: median(v.listCpu),
        callUs: median(v.call),
        callCpuUs: median(v.callCpu),
        heapMB: v.heap / 1e6,
        pages: v.pages,
        kb: v.bytes / 1000,
      },
    ]),
  );
  if (!asJson) printTable([n]);
}

if (asJson) console.log(JSON.stringify(results));

function printTable(sizes) {
  const names = Object.keys(impls);
  const metrics = [
    ['whole tools/list, wall', 'listMs', 'ms'],
    ['whole tools/list, server CPU', 'listCpuMs', 'ms'],
    ['heap after lists', 'heapMB', 'MB'],
    ['start-up (first answer)', 'startupMs', 'ms'],
    ['tools/call round trip', 'callUs', 'µs'],
    ['tools/call, server CPU', 'callCpuUs', 'µs'],
  ];
  console.log(`| N | measure | ${names.join(' | ')} | mcpkit vs best peer |`);
  console.log(`|---|---|${names.map(() => '---:').join('|')}|---:|`);
  for (const n of sizes) {
    for (const [label, key, unit] of metrics) {
      const v = results[n];
      const peers = names.filter((k) => !k.startsWith('mcpkit')).map((k) => v[k][key]);
      if (v.mcpkit === undefined) continue;
      const best = Math.min(...peers);
      const cells = names.map((k) => (v[k][key] >= 100 ? v[k][key].toFixed(0) : v[k][key].toFixed(2)));
      console.log(
        `| ${n} | ${label} (${unit}) | ${cells.join(' | ')} | ${peers.length ? (v.mcpkit[key] / best).toFixed(2) + '×' : ''} |`,
      );
    }
    console.log(`| ${n} | pages | ${names.map((k) => results[n][k].pages).join(' | ')} | |`);
  }
}
