#!/usr/bin/env node
// The load cases of RELIABILITY.md side by side: mcpkit's serve() (side-mcpkit.mjs) and the
// official SDK v1 wired as its documentation shows (side-sdk-v1.mjs), the same tools and
// notification source, each case in a fresh server process of its own, one after the other:
//   node test/soak/versus-sdk-load.mjs [--only unread,drops,pending,cycles,streams]
//     [--notifications N] [--drops N] [--pending N] [--cycles N] [--streams N] [--impl mcpkit|sdk-v1]
// unread:  a GET stream that is never read while the server publishes N resource updates.
// drops:   N calls of a slow tool with progress whose client cuts the connection at the
//          first progress event; memory retained after the calls end, and 90 s after.
// pending: N requests of a tool that waits, in one session, each on its own connection:
//          how many are accepted, memory per pending request, another client's pings.
// cycles:  legacy session create (initialize) + delete cycles over HTTP.
// streams: N concurrent idle GET streams, each with its session.
// Memory is the server's own: heap after forced GC and RSS, asked over IPC.
import { fork } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { mcpRequest } from './raw-clients.mjs';

const arg = (name, d) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? d : Number(process.argv[i + 1]);
};
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i === -1 ? undefined : process.argv[i + 1].split(',');
})();
const IMPLS = (() => {
  const i = process.argv.indexOf('--impl');
  return i === -1 ? ['mcpkit', 'sdk-v1'] : [process.argv[i + 1]];
})();
const VERSION = '2025-11-25';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (b) => (b / 2 ** 20).toFixed(1);
const kib = (b) => (b / 1024).toFixed(1);
const signed = (s) => (s.startsWith('-') ? s : `+${s}`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function start(impl, options = {}) {
  const child = fork(
    fileURLToPath(new URL(`./side-${impl}.mjs`, import.meta.url)),
    [JSON.stringify(options)],
    {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  let seq = 0;
  const ask = (m) =>
    new Promise((resolve) => {
      const s = ++seq;
      const on = (r) => {
        if (r?.seq === s) {
          child.off('message', on);
          resolve(r);
        }
      };
      child.on('message', on);
      child.send({ ...m, seq: s });
    });
  return {
    port,
    mem: () => ask({ type: 'mem' }),
    notify: (n) => ask({ type: 'notify', n }),
    release: () => ask({ type: 'release' }),
    stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGKILL'))),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const request = (port, method, headers, body) => mcpRequest(agent, port, method, headers, body);
const initBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'load', version: '1' } },
});
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const callBody = (id, name, args, meta) =>
  rpc(id, 'tools/call', { name, arguments: args, ...(meta && { _meta: meta }) });

async function openSession(port) {
  const r = await request(port, 'POST', {}, initBody);
  const headers = { 'mcp-session-id': r.sid, 'mcp-protocol-version': VERSION };
  await request(port, 'POST', headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return headers;
}

/** A raw HTTP/1.1 request on a connection of its own. */
function rawRequest(port, method, headers, body = '') {
  const so = net.connect(port, '127.0.0.1');
  so.on('error', () => undefined);
  const lines = Object.entries({
    host: `127.0.0.1:${port}`,
    ...headers,
    'content-length': Buffer.byteLength(body),
  })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  so.write(`${method} /mcp HTTP/1.1\r\n${lines}\r\n\r\n${body}`);
  return so;
}

const lines = [];
const say = (impl, text) => {
  const line = `${impl.padEnd(7)} ${text}`;
  lines.push(line);
  console.log(line);
};

// ------------------------------------------------------------------ a GET stream never read
async function unread(impl) {
  const N = arg('--notifications', 200_000);
  const s = await start(impl);
  const h = await openSession(s.port);
  await request(s.port, 'POST', h, rpc(2, 'resources/subscribe', { uri: 'test://watched' }));
  const stuck = rawRequest(s.port, 'GET', { accept: 'text/event-stream', ...h });
  stuck.pause();
  await sleep(500);
  const m0 = await s.mem();
  const t = performance.now();
  let dropped;
  let peak = m0;
  for (let sent = 0; sent < N;) {
    await s.notify(5000);
    sent += 5000;
    if (dropped === undefined) {
      // A second GET is refused (409) while the first stream lives; 200 means it was dropped.
      const probe = await fetch(`http://127.0.0.1:${s.port}/mcp`, {
        headers: { accept: 'text/event-stream', ...h },
        signal: AbortSignal.timeout(5000),
      }).catch(() => undefined);
      await probe?.body?.cancel().catch(() => undefined);
      if (probe?.status === 200) dropped = sent;
    }
    if (sent % 50_000 === 0) {
      const m = await s.mem();
      if (m.rss > peak.rss) peak = m;
    }
  }
  const secs = (performance.now() - t) / 1000;
  await sleep(1000);
  const m1 = await s.mem();
  say(
    impl,
    `unread GET stream, ${N} resource updates published in ${secs.toFixed(1)} s: ` +
      (dropped ? `stream dropped after ${dropped}` : 'stream never dropped') +
      `; server heap ${signed(mib(m1.heap - m0.heap))} MiB after GC, buffers outside the heap ` +
      `${signed(mib(m1.external - m0.external))} MiB, RSS ${mib(m0.rss)} → ${mib(m1.rss)} MiB ` +
      `(highest at a 50,000 mark: ${mib(peak.rss)} MiB) [load ${load()}]`,
  );
  stuck.destroy();
  await s.stop();
}

// ------------------------------------------------------------------ abrupt disconnects
async function drops(impl) {
  const N = arg('--drops', 200);
  const s = await start(impl);
  let cut = 0;
  const one = (h, i) =>
    new Promise((resolve) => {
      const so = rawRequest(
        s.port,
        'POST',
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...h },
        callBody(100 + i, 'slow', { ms: 3000 }, { progressToken: `p${i}` }),
      );
      let seen = '';
      so.on('data', (d) => {
        seen += d;
        if (seen.includes('notifications/progress')) {
          cut++;
          so.destroy();
        }
      });
      so.on('close', resolve);
    });
  const settle = async () => {
    for (let m = await s.mem(); m.running > 0; m = await s.mem()) await sleep(500);
  };
  // Warm-up in a session of its own, deleted before the baseline: the code paths are
  // compiled, and nothing of that session is left to count.
  const w = await openSession(s.port);
  await Promise.all(Array.from({ length: 20 }, (_, i) => one(w, i)));
  await settle();
  await request(s.port, 'DELETE', w);
  cut = 0;
  const h = await openSession(s.port);
  await request(s.port, 'POST', h, callBody(2, 'echo', { text: 'warm' }));
  const m0 = await s.mem();
  for (let i = 0; i < N; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, N - i) }, (_, j) => one(h, i + j)));
  const ended = performance.now();
  await settle();
  await sleep(1000);
  const m1 = await s.mem();
  await sleep(Math.max(0, 90_000 - (performance.now() - ended)));
  const m2 = await s.mem();
  const ping = await request(s.port, 'POST', h, rpc(9, 'ping', {}));
  say(
    impl,
    `${N} calls of a 3 s tool with progress, the connection cut at the first progress (${cut} cut): ` +
      `server heap after the calls ended ${signed(mib(m1.heap - m0.heap))} MiB (${signed(kib((m1.heap - m0.heap) / N))} KB per call), ` +
      `RSS ${mib(m0.rss)} → ${mib(m1.rss)} MiB; 90 s after the cuts (past mcpkit's 60 s resume window) heap ${signed(mib(m2.heap - m0.heap))} MiB ` +
      `(${signed(kib((m2.heap - m0.heap) / N))} KB per call), RSS ${mib(m2.rss)} MiB; the session's ping after: ${ping.status} [load ${load()}]`,
  );
  await s.stop();
}

// ------------------------------------------------------------------ requests in flight
async function pending(impl) {
  const N = arg('--pending', 10_000);
  const s = await start(impl, impl === 'mcpkit' ? { responseMode: 'json' } : { json: true });
  const h = await openSession(s.port);
  await request(s.port, 'POST', h, callBody(2, 'echo', { text: 'warm' }));
  const m0 = await s.mem();
  const statuses = new Map();
  const count = (st) => statuses.set(st, (statuses.get(st) ?? 0) + 1);
  const open = [];
  const t = performance.now();
  for (let i = 0; i < N; i++) {
    const so = rawRequest(
      s.port,
      'POST',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...h },
      callBody(1000 + i, 'held', {}),
    );
    so.once('data', (d) => {
      count(Number(/^HTTP\/1\.1 (\d+)/.exec(String(d))?.[1]));
      so.destroy();
    });
    so.once('error', (e) => count(e.code ?? 'error'));
    open.push(so);
    if (i % 250 === 249) await new Promise((r) => setImmediate(r));
  }
  // Settled: the number of held calls stops moving and every other request was answered.
  let m1 = await s.mem();
  for (let last = -1, tries = 0; tries < 240; tries++) {
    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    if (m1.running === last && m1.running + answered >= N) break;
    last = m1.running;
    await sleep(500);
    m1 = await s.mem();
  }
  const sendSecs = (performance.now() - t) / 1000;
  // Another client meanwhile: a session of its own and five pings.
  const tOther = performance.now();
  const other = await openSession(s.port);
  const initMs = performance.now() - tOther;
  const pings = [];
  for (let i = 0; i < 5; i++) {
    const tp = performance.now();
    const r = await request(s.port, 'POST', other, rpc(i, 'ping', {}));
    pings.push(`${r.status}/${(performance.now() - tp).toFixed(0)} ms`);
  }
  const held = m1.running;
  const answered = [...statuses].map(([k, v]) => `${v}×${k}`).join(', ') || 'none';
  const before = [...statuses.values()].reduce((a, b) => a + b, 0);
  const tr = performance.now();
  await s.release();
  while ([...statuses.values()].reduce((a, b) => a + b, 0) < before + held && performance.now() - tr < 60_000)
    await sleep(100);
  const releasedOk = [...statuses.values()].reduce((a, b) => a + b, 0) - before;
  say(
    impl,
    `${N} requests of a waiting tool in one session, each on its own connection (sent and settled in ${sendSecs.toFixed(1)} s): ` +
      `${held} pending, answered meanwhile: ${answered}; server heap ${signed(mib(m1.heap - m0.heap))} MiB = ` +
      `${kib((m1.heap - m0.heap) / Math.max(1, held))} KB per pending request, RSS ${mib(m0.rss)} → ${mib(m1.rss)} MiB ` +
      `(${kib((m1.rss - m0.rss) / Math.max(1, held))} KB per pending request; the open connection included); ` +
      `another client: initialize ${initMs.toFixed(0)} ms, pings ${pings.join(' ')}; ` +
      `after the release ${releasedOk} answered in ${((performance.now() - tr) / 1000).toFixed(1)} s [load ${load()}]`,
  );
  for (const so of open) so.destroy();
  await s.stop();
}

// ------------------------------------------------------------------ session cycles
async function cycles(impl) {
  const K = arg('--cycles', 20_000);
  const s = await start(impl, impl === 'mcpkit' ? { responseMode: 'json' } : { json: true });
  const cycle = async () => {
    const r = await request(s.port, 'POST', {}, initBody);
    const d = await request(s.port, 'DELETE', { 'mcp-session-id': r.sid, 'mcp-protocol-version': VERSION });
    if (r.status !== 200 || d.status !== 200) throw new Error(`cycle: ${r.status} ${d.status}`);
  };
  const warm = Math.min(2000, Math.floor(K / 10));
  for (let i = 0; i < warm; i++) await cycle();
  const m0 = await s.mem();
  const t = performance.now();
  for (let i = 0; i < K; i++) await cycle();
  const secs = (performance.now() - t) / 1000;
  const m1 = await s.mem();
  const g = m1.heap - m0.heap;
  say(
    impl,
    `${K} session create+delete cycles over HTTP (after ${warm} to warm up) in ${secs.toFixed(1)} s (${Math.round(K / secs)}/s): ` +
      `server heap ${signed(kib(g))} KB after GC = ${signed(((g / K) * 1000).toFixed(0))} bytes per 1,000 cycles, ` +
      `RSS ${mib(m0.rss)} → ${mib(m1.rss)} MiB, live sessions at the end: ${m1.sessions} [load ${load()}]`,
  );
  await s.stop();
}

// ------------------------------------------------------------------ idle streams
async function streams(impl) {
  const N = arg('--streams', 10_000);
  const s = await start(
    impl,
    impl === 'mcpkit' ? { maxSessions: 100_000, maxSessionsPerClient: 100_000, keepAliveMs: 3_600_000 } : {},
  );
  const m0 = await s.mem();
  const open = [];
  const t = performance.now();
  let ok = 0;
  for (let i = 0; i < N; i++) {
    const h = await openSession(s.port);
    const so = rawRequest(s.port, 'GET', { accept: 'text/event-stream', ...h });
    so.once('data', (d) => String(d).startsWith('HTTP/1.1 200') && ok++);
    open.push(so);
  }
  await sleep(1000);
  const m1 = await s.mem();
  const secs = (performance.now() - t) / 1000;
  say(
    impl,
    `${N} idle GET streams, each with its session, opened in ${secs.toFixed(1)} s (${ok} answered 200): ` +
      `${kib((m1.heap - m0.heap) / N)} KB heap and ${kib((m1.rss - m0.rss) / N)} KB RSS per stream ` +
      `(server RSS ${mib(m1.rss)} MiB, ${m1.sessions} sessions) [load ${load()}]`,
  );
  for (const so of open) so.destroy();
  await s.stop();
}

const cases = { unread, drops, pending, cycles, streams };
console.log(`load average at the start: ${load()} (${os.cpus().length} CPUs)`);
for (const [name, run] of Object.entries(cases)) {
  if (only && !only.includes(name)) continue;
  for (const impl of IMPLS) await run(impl);
}
agent.destroy();
console.log(`\n${lines.join('\n')}`);
process.exit(0);
