/**
 * Interop for tasks, both ways:
 *
 * - the official SDK v1 client's experimental tasks API (`callToolStream`, `getTask`,
 *   `listTasks`, `cancelTask`) against mcpkit's demo server, as a child process over stdio
 *   and in process over Streamable HTTP (2025-11-25 tasks);
 * - mcpkit's client against server-everything's `simulate-research-query` (a task the
 *   tool requires; with `ambiguous`, a question mid-task answered by our handler);
 * - mcpkit's client and server over HTTP in the extension's generation, with a client that
 *   goes away and a new one that picks the task up by id.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport as V1Stdio,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../client/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { createEverythingServer } from './everything-server.js';
import type { Obj } from '../test-support/demo-cases.js';

const ENTRY = fileURLToPath(new URL('./everything-stdio.js', import.meta.url));
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const RELATED = 'io.modelcontextprotocol/related-task';

interface StreamMessage {
  type: string;
  task?: Obj;
  result?: Obj;
  error?: Error;
}

async function drain(stream: AsyncIterable<unknown>): Promise<StreamMessage[]> {
  const out: StreamMessage[] = [];
  for await (const m of stream) out.push(m as StreamMessage);
  return out;
}

const textOf = (r: Obj | undefined): string => String(((r?.content as Obj[] | undefined)?.[0] as Obj)?.text);

function v1Client(asked: Obj[]): V1Client {
  const client = new V1Client(
    { name: 'sdk-v1-tasks', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    asked.push(req.params as unknown as Obj);
    return { action: 'accept', content: { confirm: true } };
  });
  return client;
}

const transports = {
  stdio: () =>
    new V1Stdio({ command: process.execPath, args: [ENTRY], env: getDefaultEnvironment(), stderr: 'ignore' }),
  http: (url: string) => new V1Http(new URL(url)),
};

for (const kind of ['stdio', 'http'] as const) {
  describe(`interop: SDK v1 experimental tasks against the demo server (${kind})`, () => {
    let running: RunningServer | undefined;
    let client: V1Client;
    const asked: Obj[] = [];
    before(async () => {
      if (kind === 'http') running = await serve(createEverythingServer({ tasks: { pollIntervalMs: 200 } }));
      client = v1Client(asked);
      await client.connect(kind === 'http' ? transports.http(running!.url) : transports.stdio());
      await client.listTools();
    });
    after(async () => {
      await client.close();
      await running?.close();
    });

    test('callToolStream: taskCreated, status updates, then the result', async () => {
      const messages = await drain(
        client.experimental.tasks.callToolStream({ name: 'research_report', arguments: { topic: 'kelp' } }),
      );
      const types = messages.map((m) => m.type);
      assert.equal(types[0], 'taskCreated', types.join(','));
      assert.ok(types.includes('taskStatus'));
      const last = messages.at(-1)!;
      assert.equal(last.type, 'result', String(last.error));
      assert.equal(textOf(last.result), 'Report on kelp: sources agree; nothing alarming found.');
      assert.deepEqual((last.result!._meta as Obj)[RELATED], { taskId: messages[0]!.task!.taskId });
    });

    test('a question mid-task reaches the elicitation handler through tasks/result', async () => {
      const messages = await drain(
        client.experimental.tasks.callToolStream(
          { name: 'approve_deployment', arguments: { service: 'billing' } },
          CallToolResultSchema,
          { task: {} },
        ),
      );
      const last = messages.at(-1)!;
      assert.equal(last.type, 'result', String(last.error));
      assert.equal(textOf(last.result), 'Deployed billing');
      const q = asked.at(-1)!;
      assert.match(String(q.message), /Deploy billing/);
      assert.deepEqual((q._meta as Obj)[RELATED], { taskId: messages[0]!.task!.taskId });
    });

    test('getTask, listTasks and cancelTask', async () => {
      const stream = client.experimental.tasks.callToolStream(
        { name: 'watch_until_cancelled', arguments: {} },
        CallToolResultSchema,
        { task: { ttl: 60_000 } },
      );
      const first = (await stream[Symbol.asyncIterator]().next()).value as StreamMessage;
      assert.equal(first.type, 'taskCreated');
      const taskId = String(first.task!.taskId);
      const got = await client.experimental.tasks.getTask(taskId);
      assert.equal(got.status, 'working');
      assert.equal(got.ttl, 60_000);
      const listed = await client.experimental.tasks.listTasks();
      assert.ok(listed.tasks.some((t) => t.taskId === taskId));
      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
      await assert.rejects(client.experimental.tasks.cancelTask(taskId), /terminal status/);
      await assert.rejects(client.experimental.tasks.getTask('not-a-task'), /Task not found/);
    });
  });
}

describe('interop: mcpkit client against server-everything simulate-research-query', () => {
  for (const ambiguous of [false, true]) {
    test(`ambiguous=${ambiguous}`, async () => {
      const questions: string[] = [];
      const client = new Client(
        { name: 'mcpkit-tasks-interop', version: '1.0.0' },
        {
          era: 'legacy',
          handlers: {
            elicitation: (req) => {
              questions.push(String(req.message));
              return { action: 'accept', content: { interpretation: 'Deep sea ecology' } };
            },
          },
        },
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          stderr: 'ignore',
        }),
      );
      try {
        const statuses: string[] = [];
        const r = await client.callTool(
          { name: 'simulate-research-query', arguments: { topic: 'squid', ambiguous } },
          { onTaskStatus: (t) => statuses.push(t.status) },
        );
        assert.match(textOf(r as unknown as Obj), /# Research Report: squid/);
        assert.equal(statuses[0], 'working');
        if (ambiguous) {
          assert.equal(questions.length, 1);
          assert.match(textOf(r as unknown as Obj), /\*\*Clarification\*\*: Deep sea ecology/);
        } else assert.equal(questions.length, 0);
      } finally {
        await client.close();
      }
    });
  }
});

describe('interop: mcpkit client and server over HTTP, the tasks extension', () => {
  test('a client that goes away and a new one that picks the task up by id', async () => {
    await using running = await serve(createEverythingServer({ tasks: { pollIntervalMs: 100 } }));
    const open = async (): Promise<Client> => {
      const c = new Client(
        { name: 'modern-tasks', version: '1.0.0' },
        {
          era: 'modern',
          handlers: { elicitation: () => ({ action: 'accept', content: { confirm: true } }) },
        },
      );
      await c.connect(new StreamableHttpClientTransport({ url: running.url }));
      return c;
    };
    const first = await open();
    const plain = await first.callTool({ name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    assert.equal(textOf(plain as unknown as Obj), 'Deleted a.txt');
    const task = await first.tasks.start({ name: 'research_report', arguments: { topic: 'tides' } });
    await first.close();
    const second = await open();
    try {
      const r = await second.tasks.resume(task.taskId).result();
      assert.equal(textOf(r as unknown as Obj), 'Report on tides: sources agree; nothing alarming found.');
      const asking = await second.tasks.start({ name: 'approve_deployment', arguments: { service: 'x' } });
      assert.equal(textOf((await asking.result()) as unknown as Obj), 'Deployed x');
    } finally {
      await second.close();
    }
  });
});
