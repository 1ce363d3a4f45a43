/**
 * The client as a task receiver (2025-11-25): a server task-augments `elicitation/create`
 * and `sampling/createMessage`, the client answers with a `CreateTaskResult`, runs its
 * handler in the background and serves `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel`. Against mcpkit's own server (`ctx.elicit(..., { task })`, every message
 * checked against the 2025-11-25 schema) and against the official SDK v1 server's
 * experimental `elicitInputStream` / `createMessageStream` over stdio.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { McpServer } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { WireTap } from '../test-support/mcp-harness.js';
import { waitFor } from '../test-support/waiting.js';
import { Client } from './client.js';
import type { ClientOptions } from './types.js';

const REV = '2025-11-25';
const SDK_V1_FIXTURE = fileURLToPath(
  new URL('../../src/client/fixtures/sdk-v1-task-requestor.mjs', import.meta.url),
);

type Obj = Record<string, unknown>;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

const FORM = {
  mode: 'form' as const,
  message: 'Approve?',
  requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } },
};
const SAMPLE = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }],
  maxTokens: 10,
};

/** Our server whose tools ask the client with `{ task }`, and our client, over a tapped memory pair. */
async function pair(options: ClientOptions) {
  const server = new McpServer({ name: 'requestor', version: '1.0.0' });
  server.tool({ name: 'approve' }, async (_a, ctx) => {
    const r = await ctx.elicit(FORM, { task: { ttlMs: 30_000 } });
    return `${r.action} ${JSON.stringify(r.content)}`;
  });
  server.tool({ name: 'complete' }, async (_a, ctx) => {
    const r = await ctx.sample(SAMPLE, { task: true });
    return `${r.model}: ${JSON.stringify(r.content)}`;
  });
  server.tool({ name: 'peek' }, async (args, ctx) => {
    // The server's own view of the client's tasks, and a lookup of an id that is not one.
    const listed = await ctx.request.request('tasks/list', {});
    const unknown = await ctx.request
      .request('tasks/get', { taskId: String((args as Obj).id ?? 'nope') })
      .then(
        () => 'found',
        (e: Error) => e.message,
      );
    return JSON.stringify({ listed, unknown });
  });
  const [a, b] = memoryPair();
  await server.connect(b);
  const tap = new WireTap(a, REV);
  const client = new Client({ name: 'receiver', version: '1.0.0' }, { era: 'legacy', ...options });
  await client.connect(tap);
  cleanup.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, tap, server };
}

const text = (r: { content?: unknown[] }): string => (r.content?.[0] as { text: string }).text;

describe('client task receiver (2025-11-25, server to client)', () => {
  test('declares tasks.requests for its handlers only when enabled', async () => {
    const on = await pair({ taskRequests: true, handlers: { elicitation: () => ({ action: 'decline' }) } });
    assert.deepEqual(on.client.clientCapabilities.tasks, {
      list: {},
      cancel: {},
      requests: { elicitation: { create: {} } },
    });
    const off = await pair({ handlers: { elicitation: () => ({ action: 'decline' }) } });
    assert.equal(off.client.clientCapabilities.tasks, undefined);
    // Without the capability the server asks plainly: no task field goes out.
    const r = await off.client.callTool({ name: 'approve', arguments: {} });
    assert.equal(text(r), 'decline undefined');
    const asked = off.tap.requestsFrom('server', 'elicitation/create');
    assert.equal(asked.length, 1);
    assert.equal((asked[0]!.params as Obj).task, undefined);
    assert.equal(off.tap.requestsFrom('server', 'tasks/get').length, 0);
    on.tap.assertValid();
    off.tap.assertValid();
  });

  test('an augmented elicitation becomes a client task the server polls and then reads', async () => {
    const answer = gate();
    const started = gate();
    const { client, tap } = await pair({
      taskRequests: { pollIntervalMs: 60 },
      handlers: {
        elicitation: async (params) => {
          assert.equal((params as Obj).task, undefined, 'the handler sees the plain request');
          started.open();
          await answer.wait;
          return { action: 'accept', content: { ok: true } };
        },
      },
    });
    const call = client.callTool({ name: 'approve', arguments: {} });
    await started.wait;
    // The server got a CreateTaskResult and polls while the user thinks.
    await waitFor(() => tap.requestsFrom('server', 'tasks/get').length >= 2, 10_000);
    answer.open();
    const r = await call;
    assert.equal(text(r), 'accept {"ok":true}');
    const asked = tap.requestsFrom('server', 'elicitation/create')[0]!;
    assert.deepEqual((asked.params as Obj).task, { ttl: 30_000 });
    const created = tap.responses(asked.id, 'client')[0]!.result as Obj;
    const task = created.task as Obj;
    assert.equal(task.status, 'working');
    assert.equal(task.ttl, 30_000);
    assert.equal(task.pollInterval, 60);
    const result = tap.requestsFrom('server', 'tasks/result')[0]!;
    assert.equal((result.params as Obj).taskId, task.taskId);
    const final = tap.responses(result.id, 'client')[0]!.result as Obj;
    assert.deepEqual((final._meta as Obj)['io.modelcontextprotocol/related-task'], { taskId: task.taskId });
    // The client told the server when the task finished.
    await waitFor(() =>
      tap
        .notifications('notifications/tasks/status', 'client')
        .some((n) => (n.params as Obj).status === 'completed'),
    );
    tap.assertValid();
  });

  test('sampling as a task, and the server lists the client tasks and gets not-found for others', async () => {
    const { client, tap } = await pair({
      taskRequests: { pollIntervalMs: 50 },
      handlers: {
        sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm1' }),
      },
    });
    assert.equal(
      text(await client.callTool({ name: 'complete', arguments: {} })),
      'm1: {"type":"text","text":"hello"}',
    );
    const asked = tap.requestsFrom('server', 'sampling/createMessage')[0]!;
    const taskId = ((tap.responses(asked.id, 'client')[0]!.result as Obj).task as Obj).taskId;
    const peek = JSON.parse(
      text(await client.callTool({ name: 'peek', arguments: { id: 'not-a-task' } })),
    ) as {
      listed: { tasks: Obj[] };
      unknown: string;
    };
    assert.deepEqual(
      peek.listed.tasks.map((t) => [t.taskId, t.status]),
      [[taskId, 'completed']],
    );
    assert.match(peek.unknown, /Task not found/);
    tap.assertValid();
  });

  test("cancelling the server's call cancels the client task and reaches the handler's signal", async () => {
    let aborted = false;
    const started = gate();
    const { client, tap } = await pair({
      taskRequests: { pollIntervalMs: 50 },
      handlers: {
        elicitation: (_p, ctx) =>
          new Promise((_resolve, reject) => {
            started.open();
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('stopped'));
            });
          }),
      },
    });
    const stop = new AbortController();
    const call = client.callTool({ name: 'approve', arguments: {} }, { signal: stop.signal });
    await started.wait;
    stop.abort();
    await assert.rejects(call);
    await waitFor(() => aborted, 10_000);
    const cancel = tap.requestsFrom('server', 'tasks/cancel')[0]!;
    const answer = tap.responses(cancel.id, 'client')[0]!.result as Obj;
    assert.equal(answer.status, 'cancelled');
    tap.assertValid();
  });
});

describe('client task receiver against the official SDK v1 server (stdio)', () => {
  async function sdkPair() {
    const client = new Client(
      { name: 'receiver', version: '1.0.0' },
      {
        era: 'legacy',
        taskRequests: { pollIntervalMs: 50 },
        handlers: {
          elicitation: async () => ({ action: 'accept', content: { ok: true } }),
          sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm2' }),
        },
      },
    );
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SDK_V1_FIXTURE] }));
    cleanup.push(() => client.close());
    return client;
  }

  test('elicitInputStream and createMessageStream with { task } get the answers; listTasks sees them', async () => {
    const client = await sdkPair();
    const elicited = JSON.parse(
      text(await client.callTool({ name: 'elicit_as_task', arguments: {} })),
    ) as Obj;
    assert.equal(elicited.error, undefined);
    assert.equal((elicited.seen as string[])[0], 'taskCreated');
    assert.equal((elicited.seen as string[]).at(-1), 'result');
    const answer = elicited.result as Obj;
    assert.equal(answer.action, 'accept');
    assert.deepEqual(answer.content, { ok: true });
    const sampled = JSON.parse(text(await client.callTool({ name: 'sample_as_task', arguments: {} }))) as Obj;
    assert.equal(sampled.error, undefined);
    assert.equal((sampled.result as Obj).model, 'm2');
    const listed = JSON.parse(
      text(await client.callTool({ name: 'list_client_tasks', arguments: {} })),
    ) as string[];
    assert.equal(listed.length, 2);
    for (const t of listed) assert.match(t, /:completed$/);
  });
});
