/**
 * The client's tasks, both generations, against mcpkit's demo server over the memory
 * transport: `callTool` follows tasks transparently (augmenting required tools, answering
 * questions with the registered handlers, cancelling on abort), and the explicit
 * `client.tasks` API starts, resumes, lists and cancels.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import { createEverythingServer } from '../demo/everything-server.js';
import type { McpServer } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { Client } from './client.js';
import type { ClientOptions } from './types.js';
import type { TaskInfo } from './tasks.js';
import { waitFor } from '../test-support/waiting.js';

const servers: McpServer[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

function demo(): McpServer {
  const s = createEverythingServer({ tasks: { pollIntervalMs: 50 } });
  servers.push(s);
  return s;
}

async function connect(
  server: McpServer,
  era: 'legacy' | 'modern',
  options: ClientOptions = {},
): Promise<Client> {
  const [a, b] = memoryPair();
  await server.connect(b);
  const client = new Client(
    { name: 'tasks-client-test', version: '1.0.0' },
    {
      era,
      handlers: {
        elicitation: (req) => ({
          action: 'accept',
          content: { confirm: !String(req.message).includes('refuse') },
        }),
      },
      ...options,
    },
  );
  await client.connect(a);
  clients.push(client);
  return client;
}

const text = (r: { content: unknown[] }): string => String((r.content[0] as { text?: string }).text);

for (const era of ['legacy', 'modern'] as const) {
  describe(`client tasks (${era})`, () => {
    test('callTool follows a required task tool to its result, reporting status', async () => {
      const client = await connect(demo(), era);
      const seen: TaskInfo[] = [];
      // No tools/list first: in 2025-11-25 the client learns the tool needs a task from the refusal.
      const r = await client.callTool(
        { name: 'research_report', arguments: { topic: 'otters' } },
        { onTaskStatus: (t) => seen.push(t) },
      );
      assert.equal(text(r), 'Report on otters: sources agree; nothing alarming found.');
      assert.ok(seen.length >= 2, `statuses seen: ${seen.map((t) => t.status).join(',')}`);
      assert.equal(seen[0]!.status, 'working');
      assert.ok(seen.some((t) => /on otters/.test(t.statusMessage ?? '')));
    });

    test('questions a task asks are answered with the elicitation handler', async () => {
      const client = await connect(demo(), era);
      const task = await client.tasks.start({ name: 'approve_deployment', arguments: { service: 'api' } });
      assert.ok(task.taskId.length > 0);
      const statuses: string[] = [];
      const r = await task.result({ onStatus: (t) => statuses.push(t.status) });
      assert.equal(text(r), 'Deployed api');
      assert.ok(statuses.includes('completed') || statuses.includes('input_required') || statuses.length > 0);
      const info = await task.status();
      assert.equal(info.status, 'completed');
    });

    test('aborting the call cancels the task on the server', async () => {
      const server = demo();
      const client = await connect(server, era);
      let taskId = '';
      if (era === 'legacy') {
        // Optional tools run plainly unless asked: start it as a task explicitly.
        const task = await client.tasks.start({ name: 'watch_until_cancelled', arguments: {} });
        const controller = new AbortController();
        const waiting = task.result({ signal: controller.signal, onStatus: () => controller.abort() });
        await assert.rejects(waiting, (e: unknown) => e instanceof LocalError && e.code === 'Cancelled');
        taskId = task.taskId;
      } else {
        // The server makes it a task by itself; callTool follows it until aborted.
        const controller = new AbortController();
        const call = client.callTool(
          { name: 'watch_until_cancelled', arguments: {} },
          {
            signal: controller.signal,
            onTaskStatus: (t) => {
              taskId = t.taskId;
              controller.abort();
            },
          },
        );
        await assert.rejects(call, (e: unknown) => e instanceof LocalError && e.code === 'Cancelled');
      }
      await waitFor(async () => (await client.tasks.get(taskId)).status === 'cancelled');
      assert.equal(server.tasks!.runningCount, 0);
    });

    test('a task can be picked up by id and cancelled; failures surface as the generation says', async () => {
      const client = await connect(demo(), era);
      const started = await client.tasks.start({
        name: 'slow_compute',
        arguments: { seconds: 0.2, label: 'r' },
      });
      const again = client.tasks.resume(started.taskId);
      assert.equal(text(await again.result()), 'Computed r after 0.2 s');
      const long = await client.tasks.start({ name: 'slow_compute', arguments: { seconds: 60 } });
      await long.cancel();
      assert.equal((await long.status()).status, 'cancelled');
      const failing = await client.tasks.start({ name: 'failing_job', arguments: {} });
      const fr = await failing.result();
      assert.equal(fr.isError, true);
      const broken = await client.tasks.start({ name: 'protocol_error_job', arguments: {} });
      await assert.rejects(broken.result(), /simulated internal failure/);
    });
  });
}

describe('client tasks across connections', () => {
  test('2025-11-25: tasks/list pages through the connection’s own tasks only', async () => {
    const server = demo();
    const a = await connect(server, 'legacy');
    const b = await connect(server, 'legacy');
    const t1 = await a.tasks.start({ name: 'slow_compute', arguments: { seconds: 30 } });
    const t2 = await a.tasks.start({ name: 'slow_compute', arguments: { seconds: 30 } });
    const ids = (await a.tasks.list()).tasks.map((t) => t.taskId).sort();
    assert.deepEqual(ids, [t1.taskId, t2.taskId].sort());
    assert.deepEqual((await b.tasks.list()).tasks, []);
    await assert.rejects(b.tasks.get(t1.taskId), /Task not found/);
  });

  test('the extension: a new client picks up a task by id and gets its result', async () => {
    const server = demo();
    const first = await connect(server, 'modern');
    const task = await first.tasks.start({
      name: 'slow_compute',
      arguments: { seconds: 0.3, label: 'later' },
    });
    await first.close();
    const second = await connect(server, 'modern');
    const r = await second.tasks.resume(task.taskId).result();
    assert.equal(text(r), 'Computed later after 0.3 s');
    await assert.rejects(second.tasks.list(), (e: unknown) => e instanceof LocalError);
  });

  test('tasks: false turns task handling off', async () => {
    const client = await connect(demo(), 'modern', { tasks: false });
    const r = await client.callTool({ name: 'slow_compute', arguments: { seconds: 0 } });
    assert.equal(text(r), 'Computed job after 0 s');
    await assert.rejects(
      client.callTool({ name: 'failing_job', arguments: {} }),
      /-32021|Missing required client capability/,
    );
  });
});
