// Shared parts of the HTTP benchmarks: a benchmark server in a child process (with its CPU
// and heap read over IPC, never over the HTTP path being measured), and raw keep-alive
// node:http clients for both protocol eras, so that a server's cost shows apart from any
// SDK client's.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

/** Starts bench/servers/http-<impl>.mjs; resolves once it has told its ports. */
export async function startServer(impl, env = {}) {
  const script = fileURLToPath(new URL(`../servers/http-${impl}.mjs`, import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const ports = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${impl} server exited with ${code}`)));
  });
  let seq = 0;
  const ask = (type) =>
    new Promise((resolve) => {
      const s = ++seq;
      const on = (m) => {
        if (m?.type === type && m.seq === s) {
          child.off('message', on);
          resolve(m.value);
        }
      };
      child.on('message', on);
      child.send({ type, seq: s });
    });
  return {
    ports,
    pid: child.pid,
    /** heapUsed in the server after forced GC. */
    heap: () => ask('heap'),
    /** CPU time (user + system) the server used so far, in µs. */
    cpu: () => ask('cpu'),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGKILL');
      }),
  };
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function request(port, method, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC message in a JSON or SSE body (the last non-empty `data:`). */
export function messageOf(r) {
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text.slice(0, 200)}`);
  if (!(r.headers['content-type'] ?? '').startsWith('text/event-stream')) return JSON.parse(r.text);
  let data;
  for (const line of r.text.split('\n'))
    if (line.startsWith('data:') && line.length > 6) data = line.slice(5);
  return JSON.parse(data);
}

const BASE = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

/** A legacy session by hand: initialize, initialized, then tools/call POSTs. */
export async function rawLegacyClient(port, version = '2025-11-25') {
  const init = await request(
    port,
    'POST',
    BASE,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
  messageOf(init);
  const headers = { ...BASE, 'mcp-protocol-version': version };
  if (init.headers['mcp-session-id']) headers['mcp-session-id'] = init.headers['mcp-session-id'];
  const note = await request(port, 'POST', headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  if (note.status !== 202 && note.status !== 200) throw new Error(`initialized: HTTP ${note.status}`);
  let id = 1;
  return {
    call: async (text) => {
      const body = {
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text } },
      };
      const m = messageOf(await request(port, 'POST', headers, JSON.stringify(body)));
      if (m.result?.content?.[0]?.text !== text) throw new Error(`bad answer: ${JSON.stringify(m)}`);
    },
    close: () => request(port, 'DELETE', headers),
  };
}

/** A modern (2026-07-28) client by hand: every tools/call carries its `_meta` and headers. */
export function rawModernClient(port) {
  const headers = {
    ...BASE,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'echo',
  };
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  let id = 1;
  return {
    call: async (text) => {
      const body = {
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text }, _meta },
      };
      const m = messageOf(await request(port, 'POST', headers, JSON.stringify(body)));
      if (m.result?.content?.[0]?.text !== text) throw new Error(`bad answer: ${JSON.stringify(m)}`);
    },
    close: async () => undefined,
  };
}

/** Calls/s of `lanes` clients, each with one call in flight, for `ms`, and the calls made. */
export async function measure(lanes, ms) {
  let count = 0;
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(
    lanes.map(async (c) => {
      while (performance.now() < end) {
        await c.call('hello');
        count++;
      }
    }),
  );
  return { rate: count / ((performance.now() - t0) / 1000), count };
}

/** `measure`, plus the CPU µs per call spent in the server process and in this (client) process. */
export async function measureCpu(server, lanes, ms) {
  const s0 = await server.cpu();
  const c0 = process.cpuUsage();
  const { rate, count } = await measure(lanes, ms);
  const c = process.cpuUsage(c0);
  const s = (await server.cpu()) - s0;
  return { rate, server: s / count, client: (c.user + c.system) / count };
}
