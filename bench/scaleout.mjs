// Scale-out benchmark: calls per second through haproxy (round robin, no stickiness) for
//   1 node without Redis, 1 node with Redis, 3 nodes with Redis,
// each in legacy sessions (tools/call in an initialized session, SSE answers) and in the
// modern stateless era (tools/call with _meta, JSON answers); the latency one call pays
// for Redis (1 client, one call at a time); the latency of a legacy state change
// (logging/setLevel, which every node holding the session takes in before the answer); and
// Redis memory per idle legacy session.
// Nodes are `mcpkit demo-server --port N [--redis URL]` child processes; redis-server and
// haproxy are Debian's. The clients are plain keep-alive node:http requests, in this process.
//
//   npm run build && node bench/scaleout.mjs           (about 2 minutes)
//   node bench/scaleout.mjs --quick                    (about 40 seconds)
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { startHaproxy, startNode, startRedis } from '../dist/test-support/cluster.js';

const quick = process.argv.includes('--quick');
const CFG = quick
  ? { warmupMs: 300, measureMs: 500, rounds: 3, lanes: 16, idleSessions: 300 }
  : { warmupMs: 1000, measureMs: 1000, rounds: 7, lanes: 16, idleSessions: 2000 };
const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function post(url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.end(JSON.stringify(body));
  });
}

async function openSession(url) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  if (init.status !== 200) throw new Error(`initialize: ${init.status} ${init.text}`);
  const sid = init.headers['mcp-session-id'];
  const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
  const done = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (done.status !== 202) throw new Error(`initialized: ${done.status}`);
  return headers;
}

const CALL = { name: 'add', arguments: { a: 1, b: 2 } };

/**
 * One lane: a legacy session, or nothing (modern), calling `add` one call at a time; or
 * (`state`) a legacy session changing its log level, which every node must take in before
 * the answer (a new session every 1000 changes, below the store's bound on recorded changes).
 */
async function makeLane(url, era) {
  if (era === 'state') {
    let headers = await openSession(url);
    let n = 0;
    return async () => {
      if (++n % 1000 === 0) headers = await openSession(url);
      const level = n % 2 ? 'error' : 'info';
      const r = await post(
        url,
        { jsonrpc: '2.0', id: n, method: 'logging/setLevel', params: { level } },
        headers,
      );
      if (r.status !== 200 || !r.text.includes('"result"'))
        throw new Error(`setLevel: ${r.status} ${r.text}`);
    };
  }
  if (era === 'legacy') {
    const headers = await openSession(url);
    let id = 1;
    return async () => {
      const r = await post(url, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: CALL }, headers);
      if (r.status !== 200 || !r.text.includes('"sum":3'))
        throw new Error(`legacy call: ${r.status} ${r.text}`);
    };
  }
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'add' };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  let id = 1;
  return async () => {
    const r = await post(
      url,
      { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { ...CALL, _meta: meta } },
      headers,
    );
    if (r.status !== 200 || !r.text.includes('"sum":3'))
      throw new Error(`modern call: ${r.status} ${r.text}`);
  };
}

/** Runs `lanes` lanes flat out for `ms`; returns calls per second and mean latency (ms). */
async function drive(lanes, ms) {
  let calls = 0;
  let latency = 0;
  const until = performance.now() + ms;
  await Promise.all(
    lanes.map(async (call) => {
      while (performance.now() < until) {
        const t = performance.now();
        await call();
        latency += performance.now() - t;
        calls++;
      }
    }),
  );
  return { rate: (calls * 1000) / ms, latency: latency / calls };
}

async function setup(nodes, redis) {
  const started = await Promise.all(Array.from({ length: nodes }, () => startNode(redis?.url)));
  const balancer = await startHaproxy(started.map((n) => n.port));
  return {
    url: balancer.url,
    close: async () => {
      await balancer.stop();
      await Promise.all(started.map((n) => n.stop()));
    },
  };
}

async function redisMemory(redis) {
  const { createConnection } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createConnection(redis.port, '127.0.0.1');
    let text = '';
    s.on('data', (c) => {
      text += c;
      const m = /used_memory:(\d+)/.exec(text);
      if (m) {
        s.destroy();
        resolve(Number(m[1]));
      }
    });
    s.on('error', reject);
    s.write('INFO memory\r\n');
  });
}

const redis = await startRedis();
const configs = [
  { name: '1 node, no Redis', nodes: 1, redis: undefined },
  { name: '1 node + Redis', nodes: 1, redis },
  { name: '3 nodes + Redis', nodes: 3, redis },
];
const table = [];
// Every configuration runs at once, and the rounds alternate between them, so a change in
// the machine's load (it is shared) falls on all of them alike; medians are reported.
const setups = [];
try {
  for (const c of configs) setups.push(await setup(c.nodes, c.redis));
  const work = [];
  for (const era of ['legacy', 'modern', 'state']) {
    for (const lanes of era === 'state' ? [1] : [CFG.lanes, 1]) {
      for (const [k, s] of setups.entries()) {
        const made = await Promise.all(Array.from({ length: lanes }, () => makeLane(s.url, era)));
        await drive(made, CFG.warmupMs);
        work.push({ k, era, lanes, made, results: [] });
      }
    }
  }
  for (let r = 0; r < CFG.rounds; r++) {
    for (const w of work) w.results.push(await drive(w.made, CFG.measureMs));
  }
  for (const [k, c] of configs.entries()) {
    const row = { config: c.name };
    for (const w of work.filter((x) => x.k === k)) {
      const sorted = [...w.results].sort((a, b) => a.rate - b.rate);
      const mid = sorted[Math.floor(sorted.length / 2)];
      if (w.era === 'state') row['setLevel ms (1 client)'] = Number(mid.latency.toFixed(3));
      else if (w.lanes === 1) row[`${w.era} ms/call (1 client)`] = Number(mid.latency.toFixed(3));
      else row[`${w.era} calls/s (${w.lanes} clients)`] = Math.round(mid.rate);
    }
    table.push(row);
  }
  await Promise.all(setups.splice(0).map((s) => s.close()));

  // Redis memory per idle legacy session (initialize + initialized, then nothing), once the
  // nodes' one-second session leases have run out.
  const s = await setup(1, redis);
  let perSession;
  try {
    const before = await redisMemory(redis);
    for (let i = 0; i < CFG.idleSessions; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, CFG.idleSessions - i) }, () => openSession(s.url)));
    }
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = await redisMemory(redis);
    perSession = Math.round((after - before) / CFG.idleSessions);
  } finally {
    await s.close();
  }

  console.log(
    `\nScale-out benchmark (${quick ? 'quick' : 'full'}): ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
  );
  console.table(table);
  const [plain, withRedis] = table;
  const pct = (a, b) => `${(((b - a) / a) * 100).toFixed(1)}%`;
  const l0 = plain[`legacy ms/call (1 client)`];
  const l1 = withRedis[`legacy ms/call (1 client)`];
  const m0 = plain[`modern ms/call (1 client)`];
  const m1 = withRedis[`modern ms/call (1 client)`];
  console.log(`Redis adds to a legacy call (1 client): ${(l1 - l0).toFixed(3)} ms (${pct(l0, l1)})`);
  console.log(
    `Redis adds to a modern stateless call (1 client): ${(m1 - m0).toFixed(3)} ms (${pct(m0, m1)})`,
  );
  const t0 = plain[`legacy calls/s (${CFG.lanes} clients)`];
  const t1 = withRedis[`legacy calls/s (${CFG.lanes} clients)`];
  console.log(`Per-call cost of a legacy session under load, Redis vs none: ${pct(1 / t0, 1 / t1)}`);
  const u0 = plain[`modern calls/s (${CFG.lanes} clients)`];
  const u1 = withRedis[`modern calls/s (${CFG.lanes} clients)`];
  console.log(
    `Per-call cost of a modern stateless request under load, Redis vs none: ${pct(1 / u0, 1 / u1)}`,
  );
  console.log(
    'Modern requests never touch Redis: their difference is the noise of this machine, and bounds what the legacy figures can show.',
  );
  console.log(`Redis memory per idle legacy session: ${perSession} bytes (${CFG.idleSessions} sessions)`);
} finally {
  await Promise.all(setups.map((s) => s.close()));
  await redis.stop();
  agent.destroy();
}
