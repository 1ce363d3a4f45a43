// CLI and cold-start benchmark: process starts, interleaved in one run, medians and ratios.
//
//   - `mcpkit --help` against `node -e 0`;
//   - `mcpkit tools --json -- SERVER` against a hand-written raw client doing the same
//     initialize and tools/list (bench/lib/raw-tools.mjs);
//   - server cold start (spawn, initialize, tools/list, driven by a raw client here):
//     `mcpkit demo-server --stdio`, the one-tool library server with and without zod,
//     the official SDK v1 server and the NDJSON floor.
//
// The CLI is the published `bin` (the bundle); `--unbundled` adds tsc's dist/cli/main.js beside
// it, interleaved, to show what bundling gains.
//
//   node bench/cli.mjs [--quick] [--json] [--unbundled]      (after npm run build)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initializeAndList, rawStdio } from './lib/raw-stdio.mjs';
import { median, timeProcess } from './lib/stats.mjs';

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const RUNS = quick ? 5 : 15;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const node = process.execPath;
const cli = here(`../${JSON.parse(readFileSync(here('../package.json'), 'utf8')).bin.mcpkit}`);
const unbundled = process.argv.includes('--unbundled') ? here('../dist/cli/main.js') : undefined;
const echoJson = here('./servers/mcpkit-echo-json.mjs');

/** Process workloads: argv for a whole process run to its end. */
const processes = {
  'node -e 0': ['-e', '0'],
  'mcpkit --help': [cli, '--help'],
  'raw tools client': [here('./lib/raw-tools.mjs'), '--', node, echoJson],
  'mcpkit tools --json': [cli, 'tools', '--json', '--', node, echoJson],
  ...(unbundled && {
    'mcpkit --help (unbundled)': [unbundled, '--help'],
    'mcpkit tools --json (unbundled)': [unbundled, 'tools', '--json', '--', node, echoJson],
  }),
};

/** Server cold starts: spawn, initialize, tools/list, through the raw client. */
const servers = {
  floor: [here('./servers/floor-echo.mjs')],
  'sdk-v1': [here('./servers/sdk-v1-echo.mjs')],
  'mcpkit library (json schema)': [echoJson],
  'mcpkit library (zod)': [here('./servers/mcpkit-echo.mjs')],
  'mcpkit demo-server --stdio': [cli, 'demo-server', '--stdio'],
  ...(unbundled && { 'mcpkit demo-server --stdio (unbundled)': [unbundled, 'demo-server', '--stdio'] }),
};

async function coldStart(args) {
  const t0 = performance.now();
  const c = rawStdio(node, args);
  await initializeAndList(c);
  const ms = performance.now() - t0;
  await c.close();
  return ms;
}

const results = {};
for (const k of [...Object.keys(processes), ...Object.keys(servers)]) results[k] = [];
// One untimed pass warms the file cache, then the runs interleave every workload.
for (let i = -1; i < RUNS; i++) {
  for (const [k, args] of Object.entries(processes)) {
    const ms = await timeProcess(node, args);
    if (i >= 0) results[k].push(ms);
  }
  for (const [k, args] of Object.entries(servers)) {
    const ms = await coldStart(args);
    if (i >= 0) results[k].push(ms);
  }
}

const m = Object.fromEntries(Object.entries(results).map(([k, xs]) => [k, median(xs)]));
const rows = [
  {
    workload: 'CLI --help',
    unit: 'ms',
    mcpkit: m['mcpkit --help'],
    floor: m['node -e 0'],
    note: 'floor = node -e 0',
  },
  {
    workload: 'CLI tools --json (stdio)',
    unit: 'ms',
    mcpkit: m['mcpkit tools --json'],
    floor: m['raw tools client'],
    note: 'floor = raw NDJSON client',
  },
  {
    workload: 'stdio cold start, demo-server (CLI)',
    unit: 'ms',
    mcpkit: m['mcpkit demo-server --stdio'],
    'sdk-v1': m['sdk-v1'],
    floor: m.floor,
  },
  {
    workload: 'stdio cold start, library server',
    unit: 'ms',
    mcpkit: m['mcpkit library (json schema)'],
    'sdk-v1': m['sdk-v1'],
    floor: m.floor,
  },
  {
    workload: 'stdio cold start, library server + zod',
    unit: 'ms',
    mcpkit: m['mcpkit library (zod)'],
    'sdk-v1': m['sdk-v1'],
    floor: m.floor,
  },
];
if (asJson) {
  console.log(JSON.stringify({ rows, medians: m }));
} else {
  const f = (x) => (x === undefined ? '' : x.toFixed(0));
  console.log(`CLI and cold start (node ${process.version}, ${RUNS} interleaved runs, medians in ms)`);
  for (const [k, v] of Object.entries(m)) console.log(`  ${k.padEnd(32)} ${f(v).padStart(6)}`);
  console.log(`  --help / node -e 0:                 ${(m['mcpkit --help'] / m['node -e 0']).toFixed(2)}x`);
  console.log(
    `  tools --json / raw client:          ${(m['mcpkit tools --json'] / m['raw tools client']).toFixed(2)}x`,
  );
  console.log(
    `  sdk-v1 / demo-server cold start:    ${(m['sdk-v1'] / m['mcpkit demo-server --stdio']).toFixed(2)}x faster`,
  );
  console.log(
    `  sdk-v1 / library server cold start: ${(m['sdk-v1'] / m['mcpkit library (json schema)']).toFixed(2)}x faster`,
  );
}
