// The gateway's own cost per call, without sockets: one process, the in-memory transport on
// both sides (client → Gateway → Host → echo server), against the client calling the echo
// server directly, in both eras. What `bench/gateway.mjs` measures over loopback HTTP is this
// plus two HTTP hops, which a busy 2-core machine turns into noise; this part it does not.
// With --ab DIST, another build's gateway runs beside this one, interleaved (A/B of a change).
//
//   node bench/gateway-layers.mjs [--calls N] [--rounds N] [--ab DIST] [--json]
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { median } from './lib/stats.mjs';

const argv = process.argv;
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const CALLS = Number(opt('--calls') ?? 3000);
const ROUNDS = Number(opt('--rounds') ?? 9);
const ab = opt('--ab');
const asJson = argv.includes('--json');
process.env.MCPKIT_NO_DEPRECATION = '1';
const builds = { mcpkit: fileURLToPath(new URL('../dist', import.meta.url)) };
if (ab) builds['mcpkit-ab'] = ab;

async function load(dist) {
  const at = (p) => import(pathToFileURL(`${dist}/${p}`).href);
  const [{ McpServer, Client }, host, { memoryPair }] = await Promise.all([
    at('index.js'),
    at('host/index.js'),
    at('transports/memory/index.js'),
  ]);
  return { McpServer, Client, memoryPair, ...host };
}

function echoServer(m) {
  const server = new m.McpServer({ name: 'echo', version: '1.0.0' });
  server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

async function clientOf(m, server, era) {
  const [a, b] = m.memoryPair();
  await server.connect(b);
  const client = new m.Client({ name: 'bench', version: '1.0.0' }, { era });
  await client.connect(a);
  return client;
}

const targets = [];
for (const [name, dist] of Object.entries(builds)) {
  const m = await load(dist);
  const echo = echoServer(m);
  const config = m.parseHostConfig({
    mcpServers: { echo: { url: 'http://127.0.0.1:1/mcp', policy: { default: 'allow' } } },
  });
  const host = new m.Host(config, {
    serverTransport: () => {
      const [a, b] = m.memoryPair();
      void echo.connect(b);
      return a;
    },
  });
  await host.start();
  const gateway = new m.Gateway(host);
  for (const era of ['legacy', 'modern']) {
    // The direct call of each build: the modern/legacy ratio without a gateway, too.
    const direct = name === 'mcpkit' ? 'direct' : 'direct-ab';
    targets.push({ key: `${direct}|${era}`, client: await clientOf(m, echoServer(m), era), tool: 'echo' });
    targets.push({
      key: `${name}|${era}`,
      client: await clientOf(m, gateway.server, era),
      tool: 'echo__echo',
    });
  }
}

const args = { text: 'hello' };
async function run(t, n) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const r = await t.client.callTool({ name: t.tool, arguments: args });
    if (r.content[0].text !== 'hello') throw new Error(`${t.key}: ${JSON.stringify(r)}`);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}
for (const t of targets) await run(t, CALLS);
const us = Object.fromEntries(targets.map((t) => [t.key, []]));
for (let r = 0; r < ROUNDS; r++)
  for (let i = 0; i < targets.length; i++) {
    const t = targets[(i + r) % targets.length];
    us[t.key].push(await run(t, CALLS));
  }
const out = {};
for (const t of targets) {
  const era = t.key.split('|')[1];
  out[t.key] = { us: median(us[t.key]) };
  if (t.key.startsWith('mcpkit'))
    out[t.key].added = median(us[t.key].map((x, i) => x - us[`direct|${era}`][i]));
}
if (asJson) console.log(JSON.stringify(out));
else {
  console.log(`CPU µs per tools/call in one process over memory (${ROUNDS} rounds of ${CALLS}, medians)`);
  for (const [k, v] of Object.entries(out))
    console.log(
      `  ${k.padEnd(18)} ${v.us.toFixed(1).padStart(7)}${v.added !== undefined ? `   added ${v.added.toFixed(1)}` : ''}`,
    );
}
process.exit(0);
