/**
 * Tasks of 2025-11-25 on the server, end to end over the memory transport with raw client
 * sessions: task-augmented tools/call, tasks/get, tasks/result (blocking, with questions
 * put to the client on it), tasks/list, tasks/cancel, status notifications, the
 * taskSupport rules, owner isolation, TTL expiry and the per-owner cap. Every message
 * either side emits is checked against the 2025-11-25 schema.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import { McpServer } from './server.js';
import type { ServerOptions } from './server.js';
import { toolError } from './tools.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const REV = '2025-11-25';
const RELATED = 'io.modelcontextprotocol/related-task';

const servers: McpServer[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) {
    c.tap.assertValid();
    await c.close();
  }
  for (const s of servers.splice(0)) await s.close();
});

/** A gate a test opens when it wants a handler to go on. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

interface Probe {
  seenAbort: boolean;
  release: ReturnType<typeof gate>;
}

function taskServer(options: ServerOptions = {}): { server: McpServer; probe: Probe } {
  const server = new McpServer({ name: 'tasks-test', version: '1.0.0' }, options);
  const probe: Probe = { seenAbort: false, release: gate() };
  server.tool({ name: 'plain', description: 'never a task' }, () => 'plain answer');
  server.tool({ name: 'maybe', execution: { taskSupport: 'optional' } }, async (args, ctx) => {
    ctx.status('thinking');
    await probe.release.wait;
    return `done ${JSON.stringify(args)}`;
  });
  server.tool({ name: 'must', execution: { taskSupport: 'required' } }, () => 'must answer');
  server.tool({ name: 'ask', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
    const r = await ctx.elicit({
      mode: 'form',
      message: 'Proceed?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    } as never);
    return `answer ${r.action} ${JSON.stringify(r.content)}`;
  });
  server.tool({ name: 'hang', execution: { taskSupport: 'optional' } }, (_a, ctx) => {
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        probe.seenAbort = true;
        reject(new Error('aborted'));
      });
    });
  });
  server.tool({ name: 'tool_error', execution: { taskSupport: 'optional' } }, () => toolError('it broke'));
  server.tool({ name: 'crash', execution: { taskSupport: 'optional' } }, () => {
    throw new WireError(-32099, 'custom failure', { why: 'test' });
  });
  servers.push(server);
  return { server, probe };
}

async function connect(server: McpServer): Promise<TestClient> {
  const [a, b] = memoryPair();
  await server.connect(b);
  const c = await openClient(a, REV);
  clients.push(c);
  return c;
}

async function startTask(c: TestClient, name: string, args: Obj = {}, task: Obj = {}): Promise<Obj> {
  const r = await c.request('tools/call', { name, arguments: args, task });
  const t = r.task as Obj;
  assert.equal(typeof t.taskId, 'string');
  return t;
}

const isWire = (code: number, text?: RegExp) => (e: unknown) =>
  e instanceof WireError && e.code === code && (text === undefined || text.test(e.message));

describe('tasks 2025-11-25: server', () => {
  test('declares the tasks capability and lists taskSupport', async () => {
    const { server } = taskServer();
    const c = await connect(server);
    const caps = c.session.peerCapabilities as Obj;
    assert.deepEqual(caps.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = (await c.request('tools/list')) as { tools: Obj[] };
    const must = tools.find((t) => t.name === 'must')!;
    assert.deepEqual(must.execution, { taskSupport: 'required' });
    assert.equal(tools.find((t) => t.name === 'plain')!.execution, undefined);
  });

  test('a task-augmented call: CreateTaskResult, tasks/get, status notifications, tasks/result', async () => {
    const { server, probe } = taskServer({ tasks: { pollIntervalMs: 250 } });
    const c = await connect(server);
    const t = await startTask(c, 'maybe', { x: 1 }, { ttl: 60_000 });
    assert.equal(t.status, 'working');
    assert.equal(t.ttl, 60_000);
    assert.equal(t.pollInterval, 250);
    assert.ok(!Number.isNaN(Date.parse(String(t.createdAt))));
    const got = await c.request('tasks/get', { taskId: t.taskId });
    assert.equal(got.taskId, t.taskId);
    await waitFor(
      async () => (await c.request('tasks/get', { taskId: t.taskId })).statusMessage === 'thinking',
    );
    const result = c.request('tasks/result', { taskId: t.taskId });
    probe.release.open();
    const r = await result;
    assert.deepEqual(r.content, [{ type: 'text', text: 'done {"x":1}' }]);
    assert.deepEqual((r._meta as Obj)[RELATED], { taskId: t.taskId });
    const done = await c.request('tasks/get', { taskId: t.taskId });
    assert.equal(done.status, 'completed');
    const statuses = c.tap.notifications('notifications/tasks/status').map((n) => (n.params as Obj).status);
    assert.ok(statuses.includes('completed'), `status notifications: ${statuses.join(',')}`);
  });

  test('taskSupport: required without params.task and forbidden with it are -32601', async () => {
    const { server } = taskServer();
    const c = await connect(server);
    await assert.rejects(
      c.request('tools/call', { name: 'must', arguments: {} }),
      isWire(ErrorCode.MethodNotFound, /requires task augmentation/),
    );
    await assert.rejects(
      c.request('tools/call', { name: 'plain', arguments: {}, task: {} }),
      isWire(ErrorCode.MethodNotFound, /does not support task augmentation/),
    );
    // Optional tools still answer plain calls at once.
    const r = await c.request('tools/call', { name: 'tool_error', arguments: {} });
    assert.equal(r.isError, true);
    const t = await startTask(c, 'must');
    const r2 = await c.request('tasks/result', { taskId: t.taskId });
    assert.deepEqual(r2.content, [{ type: 'text', text: 'must answer' }]);
  });

  test('input_required: the question arrives on tasks/result with the related task', async () => {
    const { server } = taskServer();
    const c = await connect(server);
    const t = await startTask(c, 'ask');
    await waitFor(
      async () => (await c.request('tasks/get', { taskId: t.taskId })).status === 'input_required',
    );
    const r = await c.request('tasks/result', { taskId: t.taskId });
    assert.match(String((r.content as Obj[])[0]!.text), /^answer accept \{"ok":true\}/);
    const asked = c.tap.requestsFrom('server', 'elicitation/create');
    assert.equal(asked.length, 1);
    assert.deepEqual(((asked[0]!.params as Obj)._meta as Obj)[RELATED], { taskId: t.taskId });
  });

  test('tasks/cancel reaches the handler signal; cancelling again is -32602', async () => {
    const { server, probe } = taskServer();
    const c = await connect(server);
    const t = await startTask(c, 'hang');
    const cancelled = await c.request('tasks/cancel', { taskId: t.taskId });
    assert.equal(cancelled.status, 'cancelled');
    await waitFor(() => probe.seenAbort);
    assert.equal((await c.request('tasks/get', { taskId: t.taskId })).status, 'cancelled');
    await assert.rejects(
      c.request('tasks/cancel', { taskId: t.taskId }),
      isWire(ErrorCode.InvalidParams, /terminal status 'cancelled'/),
    );
    await assert.rejects(c.request('tasks/result', { taskId: t.taskId }), isWire(ErrorCode.InternalError));
  });

  test('tool errors fail the task with the result; JSON-RPC errors come back from tasks/result', async () => {
    const { server } = taskServer();
    const c = await connect(server);
    const a = await startTask(c, 'tool_error');
    const ra = await c.request('tasks/result', { taskId: a.taskId });
    assert.equal(ra.isError, true);
    const ga = await c.request('tasks/get', { taskId: a.taskId });
    assert.equal(ga.status, 'failed');
    assert.equal(ga.statusMessage, 'it broke');
    const b = await startTask(c, 'crash');
    await assert.rejects(c.request('tasks/result', { taskId: b.taskId }), (e: unknown) => {
      assert.ok(e instanceof WireError);
      assert.equal(e.code, -32099);
      assert.deepEqual(e.data, { why: 'test' });
      return true;
    });
    assert.equal((await c.request('tasks/get', { taskId: b.taskId })).status, 'failed');
  });

  test('tasks belong to their connection: others can neither see nor touch them', async () => {
    const { server } = taskServer({ tasks: { pageSize: 2 } });
    const owner = await connect(server);
    const other = await connect(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await startTask(owner, 'hang')).taskId));
    const seen: string[] = [];
    let cursor: unknown;
    do {
      const page = await owner.request('tasks/list', cursor === undefined ? {} : { cursor });
      assert.ok((page.tasks as Obj[]).length <= 2);
      seen.push(...(page.tasks as Obj[]).map((t) => String(t.taskId)));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    assert.deepEqual((await other.request('tasks/list')).tasks, []);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      await assert.rejects(
        other.request(method, { taskId: ids[0] }),
        isWire(ErrorCode.InvalidParams, /Task not found/),
      );
    }
    await assert.rejects(
      owner.request('tasks/get', { taskId: 'no-such-task' }),
      isWire(ErrorCode.InvalidParams),
    );
    await assert.rejects(owner.request('tasks/list', { cursor: 'bogus' }), isWire(ErrorCode.InvalidParams));
    assert.equal((await owner.request('tasks/get', { taskId: ids[0] })).status, 'working');
  });

  test('live tasks per owner are capped with a clear error', async () => {
    const { server } = taskServer({ tasks: { maxLivePerOwner: 2 } });
    const c = await connect(server);
    const first = await startTask(c, 'hang');
    await startTask(c, 'hang');
    await assert.rejects(
      c.request('tools/call', { name: 'hang', arguments: {}, task: {} }),
      isWire(ErrorCode.InvalidRequest, /Too many live tasks/),
    );
    await c.request('tasks/cancel', { taskId: first.taskId });
    await startTask(c, 'hang');
  });

  test('an expired task is gone, and its running handler is stopped', async () => {
    const { server, probe } = taskServer({ tasks: { maxTtlMs: 400 } });
    const c = await connect(server);
    const t = await startTask(c, 'hang', {}, { ttl: 3_600_000 });
    assert.equal(t.ttl, 400);
    await waitFor(() => probe.seenAbort, WAIT_MS);
    await waitFor(async () => {
      try {
        await c.request('tasks/get', { taskId: t.taskId });
        return false;
      } catch (e) {
        return isWire(ErrorCode.InvalidParams)(e);
      }
    }, 5000);
  });
});
