/**
 * The server as a task requestor (2025-11-25, server to client) against the official SDK v1
 * client as the receiver, over Streamable HTTP: `ctx.elicit(..., { task })` sends the
 * request task-augmented to a client that declared `tasks.requests.elicitation.create`,
 * polls the client's `tasks/get` and reads the answer with `tasks/result`; a client that
 * did not declare it is asked plainly.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTaskStore as SdkTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serve } from '../serve/index.js';
import { McpServer } from './server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface Seen {
  task: unknown;
}

async function setup(declareTasks: boolean) {
  const server = new McpServer({ name: 'requestor', version: '1.0.0' });
  server.tool({ name: 'approve' }, async (_a, ctx) => {
    const r = await ctx.elicit(
      {
        mode: 'form',
        message: 'Approve?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
      { task: { ttlMs: 60_000 } },
    );
    return `${r.action} ${JSON.stringify(r.content)}`;
  });
  const running = await serve(server, { port: 0 });
  const store = new SdkTaskStore();
  // Counts the server's tasks/get polls, which the SDK client serves from its store.
  const polls = { count: 0 };
  /** Stores the client task's answer; set while one waits for the server's first poll. */
  let answerLater: (() => void) | undefined;
  const getTask = store.getTask.bind(store);
  store.getTask = async (...a: Parameters<typeof getTask>) => {
    polls.count++;
    const task = await getTask(...a);
    // The answer comes after the server polled once, as a person's would: it has to poll again.
    const answer = answerLater;
    answerLater = undefined;
    answer?.();
    return task;
  };
  const client = new SdkClient(
    { name: 'sdk-v1-receiver', version: '1.0.0' },
    {
      capabilities: {
        elicitation: { form: {} },
        ...(declareTasks ? { tasks: { requests: { elicitation: { create: {} } } } } : {}),
      },
      ...(declareTasks ? { taskStore: store } : {}),
    },
  );
  const seen: Seen[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    seen.push({ task: request.params.task });
    const result = { action: 'accept' as const, content: { ok: true } };
    if (request.params.task && extra.taskStore) {
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? null });
      answerLater = () => void extra.taskStore!.storeTaskResult(task.taskId, 'completed', result);
      return { task };
    }
    return result;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
  cleanup.push(async () => {
    await client.close();
    await running.close();
    await server.close();
    store.cleanup();
  });
  return { client, seen, polls };
}

describe('server-to-client tasks against the official SDK v1 client (HTTP)', () => {
  test('ctx.elicit with { task } makes a client task, polls it and reads its answer', async () => {
    const { client, seen, polls } = await setup(true);
    const r = await client.request(
      { method: 'tools/call', params: { name: 'approve', arguments: {} } },
      CallToolResultSchema,
    );
    assert.equal((r.content[0] as { text: string }).text, 'accept {"ok":true}');
    assert.deepEqual(seen, [{ task: { ttl: 60_000 } }]);
    assert.ok(polls.count >= 1, 'the server polled the client task');
  });

  test('a client that did not declare task support is asked plainly', async () => {
    const { client, seen, polls } = await setup(false);
    const r = await client.request(
      { method: 'tools/call', params: { name: 'approve', arguments: {} } },
      CallToolResultSchema,
    );
    assert.equal((r.content[0] as { text: string }).text, 'accept {"ok":true}');
    assert.deepEqual(seen, [{ task: undefined }]);
    assert.equal(polls.count, 0);
  });
});
