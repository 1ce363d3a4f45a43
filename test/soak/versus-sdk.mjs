#!/usr/bin/env node
// The same hostile traffic against mcpkit's serve() and the official SDK v1 server (wired
// as its documentation shows, bench/servers/http-sdk-v1.mjs), side by side, each server in
// its own process:  node test/soak/versus-sdk.mjs [--sessions N]
// Cases: a session flood, 3,000 silent connections at once, 200 slowloris header dribblers,
// deep JSON, a huge string field, an oversized body, a batch of 20,000 calls, and (stdio) a
// flood of cancellations for unknown ids.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { mcpRequest, openConnections } from './raw-clients.mjs';

const argN = (name, d) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? d : Number(process.argv[i + 1]);
};
const SESSIONS = argN('--sessions', 3000);
const SILENT = 3000;
const LORIS = 200;
/** Long enough for Node's own defaults (headers 60 s, checked every 30 s) to act. */
const WINDOW_MS = 100_000;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function start(impl) {
  const child = fork(here(`../../bench/servers/http-${impl}.mjs`), [], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise((resolve) => child.once('message', resolve));
  let seq = 0;
  const heap = () =>
    new Promise((resolve) => {
      const s = ++seq;
      const on = (m) => {
        if (m?.type === 'heap' && m.seq === s) {
          child.off('message', on);
          resolve(m.value);
        }
      };
      child.on('message', on);
      child.send({ type: 'heap', seq: s });
    });
  return { port: ports.json, heap, stop: () => child.kill('SIGKILL') };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const post = (port, headers, body) => mcpRequest(agent, port, 'POST', headers, body);
const init = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});

/**
 * Opens `n` raw connections that send `head` and then a byte every `dripMs` (0: nothing).
 * They read what the server says, so a server's close is seen. `done` resolves once all
 * are closed by the server or WINDOW_MS has passed.
 */
async function openMany(port, n, head, dripMs) {
  const { closedAt, started, stop } = openConnections(port, n, head, dripMs);
  const done = (async () => {
    while (closedAt.length < n && performance.now() - started < WINDOW_MS) await sleep(250);
    stop();
  })();
  const summary = () => {
    const closed = closedAt.filter((t) => t < WINDOW_MS);
    const last = closed.length ? Math.max(...closed) : 0;
    return `${closed.length}/${n} closed by the server within ${WINDOW_MS / 1000} s, the last after ${(last / 1000).toFixed(1)} s`;
  };
  return { done, summary };
}

const rows = [];
for (const impl of ['mcpkit', 'sdk-v1']) {
  const s = await start(impl);
  const h0 = await s.heap();
  const statuses = new Map();
  for (let i = 0; i < SESSIONS; i++) {
    const r = await post(s.port, {}, init);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  }
  const h1 = await s.heap();
  const silent = await openMany(s.port, SILENT, '', 0);
  const loris = await openMany(s.port, LORIS, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n', 200);
  const sid = (await post(s.port, {}, init)).sid;
  const asSession = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  await post(s.port, asSession, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const call = (id, text) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text } },
    });
  const deep = await post(s.port, asSession, '['.repeat(100_000) + ']'.repeat(100_000));
  const huge = await post(s.port, asSession, call(2, 'x'.repeat(3 << 20)));
  const over = await post(s.port, asSession, call(3, 'x'.repeat(5 << 20)));
  const alive = await post(s.port, asSession, '{"jsonrpc":"2.0","id":4,"method":"ping"}');
  // A batch needs 2025-03-26, the one revision that had them.
  const old = (await post(s.port, {}, init.replace('2025-11-25', '2025-03-26'))).sid;
  const asOld = { 'mcp-session-id': old, 'mcp-protocol-version': '2025-03-26' };
  await post(s.port, asOld, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const hb = await s.heap();
  const tb = performance.now();
  const batch = await post(
    s.port,
    asOld,
    JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))),
  );
  const batchMs = performance.now() - tb;
  const batchHeap = (await s.heap()) - hb;
  await Promise.all([silent.done, loris.done]);
  rows.push({
    impl,
    flood: [...statuses].map(([k, v]) => `${v}×${k}`).join(' '),
    heapPerInit: (h1 - h0) / SESSIONS,
    heapMiB: (h1 - h0) / 2 ** 20,
    silent: silent.summary(),
    loris: loris.summary(),
    bodies: `deep JSON ${deep.status}, 3 MiB string ${huge.status}, 5 MiB body ${over.status}, a ping after ${alive.status}`,
    batch: `${batch.status} in ${(batchMs / 1000).toFixed(1)} s, heap ${batchHeap >= 0 ? '+' : ''}${(batchHeap / 2 ** 20).toFixed(1)} MiB after`,
  });
  s.stop();
  await sleep(200);
}
for (const r of rows) {
  console.log(
    `${r.impl.padEnd(7)} ${SESSIONS} initializes that never come back from one address: ${r.flood}; ` +
      `heap +${r.heapMiB.toFixed(1)} MiB (${(r.heapPerInit / 1024).toFixed(1)} KB per initialize)\n` +
      `        ${SILENT} silent connections at once: ${r.silent}\n` +
      `        ${LORIS} slowloris header dribblers: ${r.loris}\n` +
      `        ${r.bodies}\n        a batch of 20,000 pings (2025-03-26): ${r.batch}`,
  );
}
agent.destroy();

// ---------------------------------------------------------------- stdio: cancellation flood
for (const [impl, entry] of [
  ['mcpkit', '../../dist/demo/everything-stdio.js'],
  ['sdk-v1', '../../bench/servers/sdk-v1-echo.mjs'],
]) {
  const child = spawn(process.execPath, [here(entry)], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d.toString().slice(-2000)));
  const rss = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024;
  child.stdin.write(init + '\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  while (!out.includes('"id":1')) await sleep(20);
  const r0 = rss();
  const t = performance.now();
  const line = (i) =>
    `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${1e9 + i}}}\n`;
  for (let i = 0; i < 100_000; i += 1000) {
    let chunk = '';
    for (let j = 0; j < 1000; j++) chunk += line(i + j);
    if (!child.stdin.write(chunk)) await new Promise((res) => child.stdin.once('drain', res));
  }
  child.stdin.write('{"jsonrpc":"2.0","id":42,"method":"ping"}\n');
  while (!out.includes('"id":42')) await sleep(20);
  console.log(
    `${impl.padEnd(7)} stdio, 100,000 notifications/cancelled for unknown ids: a ping behind them answered after ` +
      `${((performance.now() - t) / 1000).toFixed(1)} s; server RSS ${(r0 / 2 ** 20).toFixed(1)} → ${(rss() / 2 ** 20).toFixed(1)} MiB`,
  );
  child.kill();
}
process.exit(0);
