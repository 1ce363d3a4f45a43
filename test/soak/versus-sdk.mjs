#!/usr/bin/env node
// The same hostile traffic against mcpkit's serve() and the official SDK v1 server (wired
// as its documentation shows, bench/servers/http-sdk-v1.mjs), side by side, each server in
// its own process:  node test/soak/versus-sdk.mjs [--sessions N]
import { fork } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const argN = (name, d) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? d : Number(process.argv[i + 1]);
};
const SESSIONS = argN('--sessions', 3000);
const SILENT = 300;
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
function post(port, headers, body) {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, sid: res.headers['mcp-session-id'] }));
      },
    );
    req.on('error', (e) => resolve({ status: e.code }));
    req.end(body);
  });
}
const init = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});

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
  const closed = await new Promise((resolve) => {
    let n = 0;
    const sockets = [];
    for (let i = 0; i < SILENT; i++) {
      const so = net.connect(s.port, '127.0.0.1');
      so.on('error', () => undefined);
      so.on('close', () => n++);
      sockets.push(so);
    }
    setTimeout(() => {
      resolve(n);
      for (const so of sockets) so.destroy();
    }, 12_000);
  });
  rows.push({
    impl,
    flood: [...statuses].map(([k, v]) => `${v}×${k}`).join(' '),
    heapPerInit: (h1 - h0) / SESSIONS,
    heapMiB: (h1 - h0) / 2 ** 20,
    silentClosed: closed,
  });
  s.stop();
  await sleep(200);
}
for (const r of rows) {
  console.log(
    `${r.impl.padEnd(7)} ${SESSIONS} initializes that never come back from one address: ${r.flood}; ` +
      `heap +${r.heapMiB.toFixed(1)} MiB (${(r.heapPerInit / 1024).toFixed(1)} KB per initialize); ` +
      `${r.silentClosed}/${SILENT} silent sockets closed by the server within 12 s`,
  );
}
agent.destroy();
