// Server CPU per call over stdio, every server driven by the same raw NDJSON client, one call
// in flight: the floor against mcpkit's one-tool server, in the legacy era (initialize, then
// tools/call) and the modern one (tools/call with `_meta`, no handshake). The floor answers
// modern-shaped messages too, which shows what the larger messages alone cost. The server's
// CPU time is read from /proc (Linux). Interleaved rounds, after a warm-up.
//
//   node bench/stdio-cpu.mjs [--quick] [--json] [--best] [--ab DIST]
import { fileURLToPath } from 'node:url';
import { rawStdio } from './lib/raw-stdio.mjs';
import { median } from './lib/stats.mjs';
import { cpuOf } from './lib/proc-cpu.mjs';

const argv = process.argv;
const quick = argv.includes('--quick');
const asJson = argv.includes('--json');
const best = argv.includes('--best');
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const ab = opt('--ab');
const ROUNDS = quick ? 3 : Number(opt('--rounds') ?? 9);
const CALLS = quick ? 2000 : Number(opt('--calls') ?? 5000);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const impls = {
  floor: [here('./servers/floor-echo.mjs'), {}],
  mcpkit: [here('./servers/mcpkit-echo-json.mjs'), {}],
};
if (ab) impls['mcpkit-ab'] = [here('./servers/mcpkit-echo-json.mjs'), { MCPKIT_DIST: ab }];

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = {
  legacy: (c) => c.request('tools/call', { name: 'echo', arguments: { text: 'hello' } }),
  modern: (c) => c.request('tools/call', { name: 'echo', arguments: { text: 'hello' }, _meta: modernMeta }),
};

const clients = {};
for (const [name, [script, env]] of Object.entries(impls)) {
  for (const era of Object.keys(call)) {
    const c = rawStdio(process.execPath, [script], { env: { ...process.env, ...env } });
    if (era === 'legacy') {
      await c.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      c.notify('notifications/initialized');
    }
    clients[`${name}|${era}`] = c;
  }
}

async function run(key, n) {
  const c = clients[key];
  const before = cpuOf(c.pid);
  for (let i = 0; i < n; i++) {
    const m = await call[key.split('|')[1]](c);
    if (m.result?.content?.[0]?.text !== 'hello') throw new Error(`${key}: ${JSON.stringify(m)}`);
  }
  return (cpuOf(c.pid) - before) / n;
}

const keys = Object.keys(clients);
for (const k of keys) await run(k, CALLS);
const results = Object.fromEntries(keys.map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++)
  for (let i = 0; i < keys.length; i++) {
    const k = keys[(i + r) % keys.length];
    results[k].push(await run(k, CALLS));
  }
await Promise.all(Object.values(clients).map((c) => c.close()));

const us = Object.fromEntries(keys.map((k) => [k, best ? Math.min(...results[k]) : median(results[k])]));
if (asJson) {
  console.log(JSON.stringify(us));
} else {
  console.log(
    `Server CPU µs per call over stdio (raw client, ${ROUNDS} rounds of ${CALLS} calls, ${best ? 'best round' : 'medians'})`,
  );
  for (const name of Object.keys(impls)) {
    const l = us[`${name}|legacy`];
    const m = us[`${name}|modern`];
    console.log(
      `  ${name.padEnd(10)} legacy ${l.toFixed(1)}  modern ${m.toFixed(1)}  modern/legacy ${(m / l).toFixed(2)}`,
    );
  }
}
