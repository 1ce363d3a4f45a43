#!/usr/bin/env node
// Hostile clients against one server, each with its bounded outcome and a figure:
//   node --expose-gc test/soak/hostile.mjs
// slowloris, half-open connections, an SSE client that never reads, a flood of
// cancellations for unknown ids, 100,000 pending requests from one session, deep JSON,
// huge string fields. The server keeps serving other clients throughout.
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { openConnections as connections } from './raw-clients.mjs';
import { createFetchHandler } from '../../dist/transports/http-server/index.js';
import { serve } from '../../dist/serve/index.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';

const heap = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const mb = (b) => (b / 2 ** 20).toFixed(1);
const POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = (id = 1, version = '2025-11-25') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function openSession(url) {
  const r = await fetch(url, { method: 'POST', headers: POST, body: init() });
  await r.text();
  const sid = r.headers.get('mcp-session-id');
  const n = await fetch(url, {
    method: 'POST',
    headers: { ...POST, 'mcp-session-id': sid },
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  });
  await n.text();
  return sid;
}

async function pingLatency(url, sid) {
  const t = performance.now();
  const r = await fetch(url, {
    method: 'POST',
    headers: { ...POST, 'mcp-session-id': sid },
    body: '{"jsonrpc":"2.0","id":99,"method":"ping"}',
  });
  await r.text();
  return { status: r.status, ms: performance.now() - t };
}

const results = [];
const report = (what, outcome) => {
  results.push([what, outcome]);
  console.log(`${what.padEnd(34)} ${outcome}`);
};

// ---------------------------------------------------------------- socket-level attacks
{
  const server = createEverythingServer();
  const running = await serve(server, { port: 0, maxSessionsPerClient: 100_000 });
  const sid = await openSession(running.url);

  const before = heap();
  const loris = connections(running.port, 200, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n', 200);
  const lat = [];
  for (let i = 0; i < 8; i++) {
    lat.push((await pingLatency(running.url, sid)).ms);
    await sleep(500);
  }
  while (loris.closedAt.length < 200 && performance.now() < 30_000 + 0) await sleep(100);
  report(
    'slowloris (200 header dribblers)',
    `all cut after ${(Math.max(...loris.closedAt) / 1000).toFixed(1)} s (headersTimeout 10 s); ` +
      `other clients' ping p-max ${Math.max(...lat).toFixed(0)} ms meanwhile`,
  );
  loris.stop();

  // Server side: how long each accepted connection lived.
  const lives = [];
  const onConnection = (socket) => {
    const at = performance.now();
    socket.on('close', () => lives.push(performance.now() - at));
  };
  running.httpServer.on('connection', onConnection);
  const half = connections(running.port, 3000, '', 0);
  await sleep(1000);
  const held = heap() - before;
  const ping = await pingLatency(running.url, sid);
  const deadline = performance.now() + 20_000;
  while (half.closedAt.length < 3000 && performance.now() < deadline) await sleep(200);
  report(
    'half-open (3,000 silent sockets)',
    `${half.closedAt.length} closed by the server, last after ${(Math.max(...half.closedAt, 0) / 1000).toFixed(1)} s; ` +
      `longest accepted-to-closed ${(Math.max(...lives, 0) / 1000).toFixed(1)} s (bound: headersTimeout 10 s + 1 s check); ` +
      `heap while held +${mb(held)} MiB; a ping meanwhile: ${ping.status} in ${ping.ms.toFixed(0)} ms`,
  );
  running.httpServer.off('connection', onConnection);
  half.stop();

  // An SSE client that never reads: the stream is dropped at the cap (4 MiB by default).
  const sub = await fetch(running.url, {
    method: 'POST',
    headers: { ...POST, 'mcp-session-id': sid },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'resources/subscribe',
      params: { uri: 'test://watched-resource' },
    }),
  });
  await sub.text();
  const reader = net.connect(running.port, '127.0.0.1');
  reader.pause();
  reader.on('error', () => undefined);
  reader.write(
    `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sid}\r\n\r\n`,
  );
  await sleep(300);
  const h0 = heap();
  let dropped = false;
  let sent = 0;
  for (let round = 0; round < 200 && !dropped; round++) {
    for (let i = 0; i < 5000; i++) server.resourceUpdated('test://watched-resource');
    sent += 5000;
    await sleep(5);
    const again = await fetch(running.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid },
      signal: AbortSignal.timeout(2000),
    }).catch(() => undefined);
    if (again?.status === 200) dropped = true;
    await again?.body?.cancel().catch(() => undefined);
  }
  report(
    'SSE client that never reads',
    dropped
      ? `stream dropped after ${sent} notifications; heap growth ${mb(heap() - h0)} MiB (cap maxStreamBufferBytes 4 MiB)`
      : `NOT dropped after ${sent} notifications (heap +${mb(heap() - h0)} MiB)`,
  );
  reader.destroy();

  // Deep JSON and huge strings.
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const d = await fetch(running.url, {
    method: 'POST',
    headers: { ...POST, 'mcp-session-id': sid },
    body: deep,
  });
  const dj = await d.json();
  report('deep JSON (100,000 levels)', `${d.status}, JSON-RPC error ${dj.error?.code}`);
  const call = (text) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text } },
    });
  const ok = await fetch(running.url, {
    method: 'POST',
    headers: { ...POST, 'mcp-session-id': sid },
    body: call('x'.repeat(3 << 20)),
  });
  const okBody = await ok.text();
  const big = await fetch(running.url, {
    method: 'POST',
    headers: { ...POST, 'mcp-session-id': sid },
    body: call('x'.repeat(5 << 20)),
  });
  await big.text();
  report(
    'huge string fields',
    `3 MiB text: ${ok.status} (${mb(okBody.length)} MiB echoed); 5 MiB text: ${big.status} (maxBodyBytes 4 MiB)`,
  );
  await running.close();
  await server.close();
}

// ---------------------------------------------------------------- pending requests
{
  const server = createEverythingServer({ stepMs: 60_000 });
  const { fetch: handle, handler } = createFetchHandler(server, { responseMode: 'json' });
  const url = 'http://127.0.0.1/mcp';
  const r = await handle(new Request(url, { method: 'POST', headers: POST, body: init() }));
  await r.text();
  const sid = r.headers.get('mcp-session-id');
  const statuses = new Map();
  const aborts = [];
  const send = (i) => {
    const ac = new AbortController();
    aborts.push(ac);
    return handle(
      new Request(url, {
        method: 'POST',
        headers: { ...POST, 'mcp-session-id': sid },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1000 + i,
          method: 'tools/call',
          params: { name: 'test_tool_with_progress', arguments: {} },
        }),
        signal: ac.signal,
      }),
    ).then((res) => {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    });
  };
  // The first 1,000 are accepted and stay pending: what each costs (client objects included).
  const before = heap();
  for (let i = 0; i < 1000; i++) void send(i);
  await sleep(300);
  const perPending = (heap() - before) / 1000;
  for (let i = 1000; i < 100_000; i++) {
    void send(i);
    if (i % 1000 === 999) await new Promise((res) => setImmediate(res));
  }
  await sleep(500);
  const counts = [...statuses].map(([st, n]) => `${n}×${st}`).join(', ');
  report(
    '100,000 pending requests (1 session)',
    `1,000 accepted and pending, ${counts} (maxInFlightPerSession 1,000); ` +
      `${(perPending / 1024).toFixed(1)} KB heap per pending request (this process's Request objects included)`,
  );
  for (const a of aborts) a.abort();
  await handler.close();
  await server.close();
}

// ---------------------------------------------------------------- cancellation flood (stdio)
{
  const entry = fileURLToPath(new URL('../../dist/demo/everything-stdio.js', import.meta.url));
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d.toString().slice(-2000)));
  const rss = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024;
  child.stdin.write(init(0) + '\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  await sleep(500);
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
  report(
    'cancellation flood (100,000 unknown ids)',
    `ignored; a ping behind them answered after ${((performance.now() - t) / 1000).toFixed(1)} s; server RSS ${mb(r0)} → ${mb(rss())} MiB`,
  );
  child.kill();
}
process.exit(0);
