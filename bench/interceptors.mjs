// Interceptors benchmark: the per-call cost of the interceptor chain on each side, in one
// interleaved run over the in-memory transport (modern era, so no session on the server).
// Configurations, each a fresh server + client pair:
//   - none:       no interceptors (the fast path: one length check per side);
//   - server x2:  a middleware function and a request validator on the server;
//   - client x2:  a logging wrap and a request validator on the client.
// Rounds alternate the configurations so drift (GC, CPU contention) hits all alike; the
// figure is the median time per tools/call across rounds.
//
//   npm run build && node bench/interceptors.mjs [--calls 2000] [--rounds 9]
import { Client } from '../dist/index.js';
import { logging } from '../dist/client/index.js';
import { McpServer } from '../dist/index.js';
import { memoryPair } from '../dist/transports/memory/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const CALLS = arg('--calls', 2000);
const ROUNDS = arg('--rounds', 9);

const validator = {
  type: 'validation',
  name: 'has-name',
  phases: ['request'],
  validate: (p) => typeof p.name === 'string',
};

async function pair(serverSide, clientSide) {
  const server = new McpServer({ name: 'bench', version: '1' });
  server.tool({ name: 'echo' }, () => 'ok');
  for (const i of serverSide) server.use(i);
  const client = new Client({ name: 'bench', version: '1' }, { era: 'modern', interceptors: clientSide });
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return { client, close: async () => (await client.close(), await server.close()) };
}

const configs = {
  none: await pair([], []),
  'server x2': await pair([(_r, next) => next(), validator], []),
  'client x2': await pair([], [logging(() => undefined), validator]),
};
const times = Object.fromEntries(Object.keys(configs).map((k) => [k, []]));
const params = { name: 'echo', arguments: {} };
for (let round = 0; round <= ROUNDS; round++) {
  for (const [name, { client }] of Object.entries(configs)) {
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await client.callTool(params);
    // Round 0 warms up.
    if (round > 0) times[name].push(((performance.now() - started) * 1000) / CALLS);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(times.none);
console.log(`tools/call over memory, modern era, ${CALLS} calls x ${ROUNDS} rounds (median µs per call)`);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(
    `${name.padEnd(10)} ${m.toFixed(1).padStart(7)} µs  ${name === 'none' ? '' : `+${(m - base).toFixed(1)} µs`}`,
  );
}
for (const { close } of Object.values(configs)) await close();
