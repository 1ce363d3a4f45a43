// Tasks benchmark (2025-11-25 tasks): 1,000 concurrent tasks on one server, mcpkit against
// the official SDK v1's experimental task support, in one run, in process over each SDK's
// in-memory transport. Reports, per implementation:
//   - memory per live task: heap growth (after GC) with N tasks waiting, divided by N;
//   - polling overhead: time per tasks/get while all N tasks are live (64 in flight);
//   - create and drain: time to create N tasks, and to collect N results after release.
// Ratios are mcpkit / SDK v1 (lower is better for every figure).
//
//   npm run build && node --expose-gc bench/tasks.mjs [--tasks 1000] [--polls 10]
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as SdkServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore as SdkTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../dist/index.js';
import { McpServer } from '../dist/index.js';
import { memoryPair } from '../dist/transports/memory/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const N = arg('--tasks', 1000);
const POLLS = arg('--polls', 10);
const IN_FLIGHT = 64;

if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc for the memory figures');
  process.exit(2);
}

function gate() {
  let open;
  const wait = new Promise((r) => (open = r));
  return { wait, open };
}

async function heap() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

async function pool(count, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(IN_FLIGHT, count) }, async () => {
    while (next < count) await fn(next++);
  });
  await Promise.all(workers);
}

/** mcpkit: a task tool is one field on an ordinary tool. */
async function mcpkit() {
  const g = gate();
  const server = new McpServer(
    { name: 'bench', version: '1.0.0' },
    { tasks: { maxLivePerOwner: N + 10, pollIntervalMs: 1000 } },
  );
  server.tool({ name: 'job', execution: { taskSupport: 'required' } }, async () => {
    await g.wait;
    return 'done';
  });
  const [a, b] = memoryPair();
  await server.connect(b);
  const client = new Client({ name: 'bench', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(a);
  return {
    g,
    create: async () => (await client.tasks.start({ name: 'job', arguments: {} }, { ttlMs: 600_000 })).taskId,
    get: (taskId) => client.tasks.get(taskId),
    result: (taskId) => client.tasks.resume(taskId).result(),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** SDK v1: registerToolTask with its InMemoryTaskStore, as its examples do. */
async function sdkV1() {
  const g = gate();
  const taskStore = new SdkTaskStore();
  const server = new SdkServer(
    { name: 'bench', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore },
  );
  server.experimental.tasks.registerToolTask(
    'job',
    { description: 'waits', execution: { taskSupport: 'required' } },
    {
      async createTask(extra) {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl });
        (async () => {
          await g.wait;
          await extra.taskStore.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: 'done' }],
          });
        })();
        return { task };
      },
      getTask: (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: (extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new SdkClient({ name: 'bench', version: '1.0.0' });
  await client.connect(a);
  return {
    g,
    create: async () =>
      (
        await client.request(
          { method: 'tools/call', params: { name: 'job', arguments: {}, task: { ttl: 600_000 } } },
          CreateTaskResultSchema,
        )
      ).task.taskId,
    get: (taskId) => client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema),
    result: (taskId) => client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema),
    close: async () => {
      await client.close();
      await server.close();
      taskStore.cleanup?.();
    },
  };
}

async function run(name, make) {
  const impl = await make();
  const before = await heap();
  const ids = new Array(N);
  let t = performance.now();
  await pool(N, async (i) => {
    ids[i] = await impl.create();
  });
  const createMs = performance.now() - t;
  const live = await heap();
  t = performance.now();
  await pool(N * POLLS, async (i) => {
    const task = await impl.get(ids[i % N]);
    if (task.status !== 'working') throw new Error(`${name}: task ${task.taskId} is ${task.status}`);
  });
  const pollMs = performance.now() - t;
  impl.g.open();
  t = performance.now();
  await pool(N, async (i) => {
    const r = await impl.result(ids[i]);
    if (r.content?.[0]?.text !== 'done') throw new Error(`${name}: bad result`);
  });
  const drainMs = performance.now() - t;
  await impl.close();
  return {
    name,
    bytesPerTask: (live - before) / N,
    usPerPoll: (pollMs * 1000) / (N * POLLS),
    createMs,
    drainMs,
  };
}

const rows = [];
// Interleaved, each twice; the better of the two runs counts (less noise from the shared machine).
for (let round = 0; round < 2; round++) {
  for (const [name, make] of [
    ['mcpkit', mcpkit],
    ['sdk-v1', sdkV1],
  ]) {
    const r = await run(name, make);
    const prev = rows.find((x) => x.name === name);
    if (!prev) rows.push(r);
    else
      for (const k of ['bytesPerTask', 'usPerPoll', 'createMs', 'drainMs']) prev[k] = Math.min(prev[k], r[k]);
  }
}

const fmt = (v, d = 0) => v.toFixed(d).padStart(10);
console.log(
  `Tasks benchmark: ${N} concurrent tasks, ${POLLS} polls each, ${IN_FLIGHT} requests in flight, Node ${process.version}`,
);
console.log(
  `${'impl'.padEnd(8)}${'B/task'.padStart(10)}${'µs/poll'.padStart(10)}${'create ms'.padStart(10)}${'drain ms'.padStart(10)}`,
);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(8)}${fmt(r.bytesPerTask)}${fmt(r.usPerPoll, 1)}${fmt(r.createMs)}${fmt(r.drainMs)}`,
  );
}
const [m, s] = rows;
console.log(
  `ratio mcpkit/sdk-v1: memory ${(m.bytesPerTask / s.bytesPerTask).toFixed(2)}, poll ${(m.usPerPoll / s.usPerPoll).toFixed(2)}, create ${(m.createMs / s.createMs).toFixed(2)}, drain ${(m.drainMs / s.drainMs).toFixed(2)}`,
);
