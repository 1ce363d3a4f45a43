#!/usr/bin/env node
// Soak runs: `npm run soak` prints the figures RELIABILITY.md quotes.
//   node --expose-gc test/soak/run.mjs [--only sessions|streams|stdio] [--cycles N] [--streams N] [--calls N]
//     [--stdio-server mcpkit|sdk-v1]   (the stdio server: ours, or the official SDK v1's, same echo tool)
// sessions: legacy session create + delete cycles through the HTTP core (fetch binding, in
//           process), heap growth per 1,000 cycles after GC.
// streams:  concurrent idle SSE GET streams on one server process, memory per stream.
// stdio:    tool calls over stdio (64 in flight), client heap and server RSS over time.
import { fork } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { fetchHandler } from '../../dist/transports/http-server/index.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';
import { Client } from '../../dist/client/index.js';
import { StdioClientTransport } from '../../dist/transports/stdio/index.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i === -1 ? undefined : process.argv[i + 1];
})();
if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (npm run soak does).');
  process.exit(2);
}
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const kb = (b) => (b / 1024).toFixed(2);
const mb = (b) => (b / 2 ** 20).toFixed(1);

const POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
});

async function sessions(cycles) {
  const server = createEverythingServer();
  const { fetch, handler } = fetchHandler(server, {
    responseMode: 'json',
    maxSessionsPerClient: 1e9,
  });
  const url = 'http://127.0.0.1/mcp';
  const cycle = async () => {
    const r = await fetch(new Request(url, { method: 'POST', headers: POST, body: initBody }));
    await r.text();
    const sid = r.headers.get('mcp-session-id');
    const d = await fetch(new Request(url, { method: 'DELETE', headers: { 'mcp-session-id': sid } }));
    await d.text();
  };
  const warm = Math.min(10_000, Math.floor(cycles / 10));
  for (let i = 0; i < warm; i++) await cycle();
  const start = heap();
  const t = performance.now();
  for (let i = 0; i < cycles; i++) await cycle();
  const s = (performance.now() - t) / 1000;
  const growth = heap() - start;
  console.log(
    `sessions  ${cycles} create+delete cycles in ${s.toFixed(1)} s: heap ${growth >= 0 ? '+' : ''}${kb(growth)} KB after GC ` +
      `= ${((growth / cycles) * 1000).toFixed(1)} bytes per 1,000 cycles (live sessions at the end: ${handler.sessionCount})`,
  );
  await handler.close();
  await server.close();
}

async function streams(count) {
  const child = fork(fileURLToPath(new URL('./stream-server.mjs', import.meta.url)), [], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (m) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      if (m) child.send(m);
    });
  const { url, port } = await ask();
  const base = await ask('mem');
  const sockets = [];
  const t = performance.now();
  for (let i = 0; i < count; i++) {
    const r = await fetch(url, { method: 'POST', headers: POST, body: initBody });
    await r.text();
    const sid = r.headers.get('mcp-session-id');
    await (
      await fetch(url, {
        method: 'POST',
        headers: { ...POST, 'mcp-session-id': sid },
        body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      })
    ).text();
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sid}\r\n\r\n`,
    );
    sockets.push(socket);
  }
  await new Promise((r) => setTimeout(r, 1000));
  const loaded = await ask('mem');
  const s = (performance.now() - t) / 1000;
  const heapPer = (loaded.mem.heapUsed - base.mem.heapUsed) / count;
  const rssPer = (loaded.mem.rss - base.mem.rss) / count;
  console.log(
    `streams   ${count} idle SSE GET streams (each with its session) opened in ${s.toFixed(1)} s on one server process: ` +
      `${kb(heapPer)} KB heap and ${kb(rssPer)} KB RSS per stream (server RSS ${mb(loaded.mem.rss)} MiB, ${loaded.sessions} sessions)`,
  );
  for (const so of sockets) so.destroy();
  child.kill();
}

function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function stdio(calls) {
  const i = process.argv.indexOf('--stdio-server');
  const name = i === -1 ? 'mcpkit' : process.argv[i + 1];
  const server = fileURLToPath(new URL(`../../bench/servers/${name}-echo.mjs`, import.meta.url));
  const transport = new StdioClientTransport({ command: process.execPath, args: [server] });
  const client = new Client({ name: 'soak', version: '1' });
  await client.connect(transport);
  const inFlight = 64;
  let started = 0;
  let completed = 0;
  const tenth = Math.max(1, Math.floor(calls / 10));
  const checkpoints = [];
  const t = performance.now();
  const worker = async () => {
    while (started < calls) {
      started++;
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      if (++completed % tenth === 0) checkpoints.push({ completed, rss: rssOf(transport.pid) });
    }
  };
  const start = heap();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const s = (performance.now() - t) / 1000;
  const end = heap();
  const rss = checkpoints.map((c) => mb(c.rss)).join(' ');
  console.log(
    `stdio     ${calls} tool calls (64 in flight, ${name} server) in ${s.toFixed(1)} s = ${Math.round(calls / s)} calls/s: ` +
      `client heap ${end >= start ? '+' : ''}${kb(end - start)} KB after GC; server RSS (MiB) at each tenth: ${rss}`,
  );
  await client.close();
}

if (!only || only === 'sessions') await sessions(arg('--cycles', 1_000_000));
if (!only || only === 'streams') await streams(arg('--streams', 10_000));
if (!only || only === 'stdio') await stdio(arg('--calls', 1_000_000));
