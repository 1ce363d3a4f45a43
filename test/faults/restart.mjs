#!/usr/bin/env node
// Fault: the HTTP server process is killed and started again on the same port, losing
// every session. mcpkit's client meets the 404, starts a new session by itself, and later
// calls work; the official SDK v1 client is run against the same restart, side by side.
// Prints failed calls and the time from the new server listening to the first good call.
//   node test/faults/restart.mjs [--restarts N]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '../../dist/client/index.js';
import { StreamableHttpClientTransport } from '../../dist/transports/http-client/index.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const i = process.argv.indexOf('--restarts');
const RESTARTS = i === -1 ? 10 : Number(process.argv[i + 1]);
const GIVE_UP_MS = 5_000;
const child = fileURLToPath(new URL('./serve-child.mjs', import.meta.url));

async function start(port) {
  const proc = fork(child, [String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port: got } = await new Promise((resolve, reject) => {
    proc.once('message', resolve);
    proc.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { proc, port: got };
}
const stop = (proc) => new Promise((resolve) => (proc.once('exit', resolve), proc.kill('SIGKILL')));

const clients = {
  mcpkit: async (url) => {
    const c = new Client({ name: 'restart', version: '1.0.0' }, { era: 'legacy' });
    await c.connect(new StreamableHttpClientTransport({ url }));
    return { call: (text) => c.callTool({ name: 'echo', arguments: { text } }), close: () => c.close() };
  },
  'sdk-v1': async (url) => {
    const c = new V1Client({ name: 'restart', version: '1.0.0' });
    await c.connect(new V1Http(new URL(url)));
    return { call: (text) => c.callTool({ name: 'echo', arguments: { text } }), close: () => c.close() };
  },
};

for (const [name, connect] of Object.entries(clients)) {
  let server = await start(0);
  const port = server.port;
  const client = await connect(`http://127.0.0.1:${port}/mcp`);
  await client.call('warm');
  let recovered = 0;
  let failed = 0;
  const times = [];
  for (let r = 0; r < RESTARTS; r++) {
    await stop(server.proc);
    server = await start(port);
    const up = performance.now();
    for (;;) {
      const ok = await client.call('after').then(
        (res) => res.content?.[0]?.text === 'after',
        () => false,
      );
      if (ok) {
        recovered++;
        times.push(performance.now() - up);
        break;
      }
      failed++;
      if (performance.now() - up > GIVE_UP_MS) break;
      await new Promise((res) => setTimeout(res, 10));
    }
  }
  await client.close().catch(() => undefined);
  await stop(server.proc);
  times.sort((a, b) => a - b);
  console.log(
    `restart ${name.padEnd(6)}: recovered after ${recovered}/${RESTARTS} restarts; ` +
      `${(failed / RESTARTS).toFixed(1)} failed calls per restart` +
      (times.length
        ? `; new server up to first good call: median ${times[times.length >> 1].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms`
        : `; no call succeeded within ${GIVE_UP_MS / 1000} s of a restart`),
  );
}
process.exit(0);
