// The modern era against the legacy one over stdio, 64 calls in flight: mcpkit's client and
// server in both eras, beside a floor pair in both eras (a hand-written NDJSON client and
// server, JSON.parse and JSON.stringify only, one write per batch on both sides, as mcpkit
// does). The floor's own modern/legacy ratio is what the larger modern messages cost (`_meta`
// with the version, client info and capabilities on every request; `resultType` and the
// server's info on every result) before any library runs. Interleaved rounds, after a warm-up;
// CPU per call of each side from process.cpuUsage and /proc (Linux).
//
//   node bench/stdio-eras.mjs [--quick] [--json] [--rounds N] [--ab DIST]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuOf } from './lib/proc-cpu.mjs';
import { median } from './lib/stats.mjs';

const argv = process.argv;
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const quick = argv.includes('--quick');
const asJson = argv.includes('--json');
const ab = opt('--ab');
const ROUNDS = Number(opt('--rounds') ?? (quick ? 1 : 5));
// As bench/stdio.mjs warms its clients before the 64-in-flight run.
const WARMUP = quick ? 2000 : 20000;
const CALLS = quick ? 10000 : 40000;
const IN_FLIGHT = 64;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The floor client: NDJSON over a child's stdio, the requests of one turn in one write. */
async function floorPair(era) {
  const child = spawn(process.execPath, [here('./servers/floor-batched-echo.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map();
  const decoder = new TextDecoder();
  let next = 0;
  let pending = '';
  child.stdout.on('data', (chunk) => {
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      const m = JSON.parse(pending.slice(start, nl));
      start = nl + 1;
      waiting.get(m.id)?.(m.result);
      waiting.delete(m.id);
    }
    pending = pending.slice(start);
  });
  let queued = '';
  const flush = () => {
    child.stdin.write(queued);
    queued = '';
  };
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      if (queued === '') queueMicrotask(flush);
      queued += JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';
    });
  if (era === 'legacy') {
    await request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'b', version: '1' },
    });
  }
  const call =
    era === 'modern'
      ? () => request('tools/call', { name: 'echo', arguments: { text: 'hello' }, _meta: modernMeta })
      : () => request('tools/call', { name: 'echo', arguments: { text: 'hello' } });
  return {
    pid: child.pid,
    call,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.stdin.end();
      }),
  };
}

/** mcpkit's client and its one-tool server (`dist`: another build, for A/B runs). */
function mcpkitPair(era, dist) {
  return async () => {
    const root = dist ?? new URL('../dist', import.meta.url).href;
    const { Client } = await import(`${root}/index.js`);
    const { StdioClientTransport } = await import(`${root}/transports/stdio/index.js`);
    const client = new Client({ name: 'bench', version: '1.0.0' }, { era });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [here('./servers/mcpkit-echo.mjs')],
      inheritEnv: true,
      ...(dist ? { env: { ...process.env, MCPKIT_DIST: dist } } : {}),
    });
    await client.connect(transport);
    return {
      pid: transport.pid,
      call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
      close: () => client.close(),
    };
  };
}

const pairs = {
  'floor legacy': () => floorPair('legacy'),
  'floor modern': () => floorPair('modern'),
  'mcpkit legacy': mcpkitPair('legacy'),
  'mcpkit modern': mcpkitPair('modern'),
};
if (ab) {
  const dist = new URL(`file://${ab}`).href;
  pairs['ab legacy'] = mcpkitPair('legacy', dist);
  pairs['ab modern'] = mcpkitPair('modern', dist);
}

async function inFlight(c, total) {
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      await c.call();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

const results = Object.fromEntries(Object.keys(pairs).map((k) => [k, { rate: [], client: [], server: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, make] of Object.entries(pairs)) {
    const c = await make();
    await inFlight(c, WARMUP);
    const own0 = process.cpuUsage();
    const server0 = cpuOf(c.pid);
    const t0 = performance.now();
    await inFlight(c, CALLS);
    const ms = performance.now() - t0;
    const own = process.cpuUsage(own0);
    const r = results[name];
    r.rate.push(CALLS / (ms / 1000));
    r.client.push((own.user + own.system) / CALLS);
    r.server.push((cpuOf(c.pid) - server0) / CALLS);
    await c.close();
  }
}

const summary = Object.fromEntries(
  Object.entries(results).map(([k, r]) => [
    k,
    { callsPerSec: median(r.rate), clientUs: median(r.client), serverUs: median(r.server) },
  ]),
);
const ratio = (impl) => summary[`${impl} modern`].callsPerSec / summary[`${impl} legacy`].callsPerSec;
const ratios = { floor: ratio('floor'), mcpkit: ratio('mcpkit'), ...(ab ? { ab: ratio('ab') } : {}) };
if (asJson) {
  console.log(JSON.stringify({ rounds: ROUNDS, calls: CALLS, inFlight: IN_FLIGHT, summary, ratios }));
} else {
  console.log(
    `stdio, ${IN_FLIGHT} calls in flight, modern against legacy (node ${process.version}, ${ROUNDS} round(s) of ${CALLS}, medians)`,
  );
  for (const [k, s] of Object.entries(summary)) {
    console.log(
      `  ${k.padEnd(14)} ${String(Math.round(s.callsPerSec)).padStart(7)} calls/s   CPU µs per call: client ${s.clientUs.toFixed(2)}, server ${s.serverUs.toFixed(2)}`,
    );
  }
  for (const [k, v] of Object.entries(ratios)) console.log(`  ${k}: modern/legacy ${v.toFixed(2)}`);
}
