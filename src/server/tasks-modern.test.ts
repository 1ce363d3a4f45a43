/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, protocol 2026-07-28) on the demo
 * server, over the memory transport with raw modern client sessions: server-directed
 * task creation, DetailedTask on tasks/get, tasks/update with inputResponses (partial
 * answers too), cooperative tasks/cancel, -32021 without the extension, MRTR rounds
 * before a deferred task, removed methods, and notifications/tasks on subscriptions/listen.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import { createEverythingServer } from '../demo/everything-server.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import type { McpServer } from './server.js';
import { waitFor } from '../test-support/waiting.js';

const MODERN = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';
const WITH_EXT = { elicitation: {}, sampling: {}, extensions: { [EXT]: {} } };

// The extension's own schema (vendored under test/fixtures/ext-tasks): every task message
// the server sends in this generation is checked against it at the end.
const extSchema = JSON.parse(
  readFileSync(new URL('../../test/fixtures/ext-tasks/schema.json', import.meta.url), 'utf8'),
) as { $defs: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(extSchema, 'ext-tasks');
const RESULT_DEF: Record<string, string> = {
  'tasks/get': 'GetTaskResult',
  'tasks/update': 'UpdateTaskResult',
  'tasks/cancel': 'CancelTaskResult',
};

/** Problems of the task messages the server sent on one client's tap. */
function extProblems(tap: TestClient['tap']): string[] {
  const out: string[] = [];
  const methods = new Map<unknown, string>();
  const check = (def: string, value: unknown): void => {
    const validate = ajv.getSchema(`ext-tasks#/$defs/${def}`)!;
    if (!validate(value))
      out.push(`${def}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 300)}`);
  };
  for (const { from, message } of tap.entries) {
    if (from === 'client' && typeof message.method === 'string') methods.set(message.id, message.method);
    if (from !== 'server') continue;
    if (message.method === 'notifications/tasks') check('TaskStatusNotification', message);
    const result = message.result as Obj | undefined;
    if (!result) continue;
    const method = methods.get(message.id);
    if (method === 'tools/call' && result.resultType === 'task') check('CreateTaskResult', result);
    const def = method === undefined ? undefined : RESULT_DEF[method];
    if (def) check(def, result);
  }
  return out;
}

const isWire = (code: number) => (e: unknown) => e instanceof WireError && e.code === code;

describe('tasks extension (2026-07-28): server', () => {
  let server: McpServer;
  let c: TestClient;
  let plain: TestClient;
  const open = async (capabilities: Obj): Promise<TestClient> => {
    const [a, b] = memoryPair();
    await server.connect(b);
    return openClient(a, MODERN, { capabilities });
  };
  before(async () => {
    server = createEverythingServer({ tasks: { pollIntervalMs: 100 } });
    c = await open(WITH_EXT);
    plain = await open({ elicitation: {} });
  });
  after(async () => {
    assert.deepEqual(extProblems(c.tap), [], 'task messages against the extension schema');
    assert.ok(c.tap.entries.some((e) => (e.message.result as Obj | undefined)?.resultType === 'task'));
    await c.close();
    await plain.close();
    await server.close();
  });

  const terminal = (taskId: unknown) =>
    waitFor(async () => {
      const t = await c.request('tasks/get', { taskId });
      return ['completed', 'failed', 'cancelled'].includes(String(t.status)) ? t : false;
    });

  test('server/discover declares the extension and no 2025-11-25 tasks slot', async () => {
    const d = await c.request('server/discover');
    const caps = d.capabilities as Obj;
    assert.deepEqual((caps.extensions as Obj)[EXT], {});
    assert.equal(caps.tasks, undefined);
  });

  test('a task-supporting tool answers with a flat CreateTaskResult; tasks/get inlines the result', async () => {
    const created = await c.callTool('slow_compute', { seconds: 0.2, label: 'x' });
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.equal(typeof created.ttlMs, 'number');
    assert.equal(created.pollIntervalMs, 100);
    for (const k of ['task', 'ttl', 'pollInterval', 'result', 'requestState']) assert.ok(!(k in created), k);
    const now = await c.request('tasks/get', { taskId: created.taskId });
    assert.equal(now.resultType, 'complete');
    const done = await terminal(created.taskId);
    assert.equal(done.status, 'completed');
    assert.deepEqual((done.result as Obj).content, [{ type: 'text', text: 'Computed x after 0.2 s' }]);
    assert.equal(
      ((done.result as Obj)._meta as Obj | undefined)?.['io.modelcontextprotocol/related-task'],
      undefined,
    );
    const greet = await c.callTool('greet', { name: 'Ann' }, undefined);
    assert.equal(greet.resultType, 'complete');
    assert.deepEqual(greet.content, [{ type: 'text', text: 'Hello, Ann!' }]);
  });

  test('tool errors complete with isError; JSON-RPC errors fail with an inlined error', async () => {
    const a = await c.callTool('failing_job');
    const da = await terminal(a.taskId);
    assert.equal(da.status, 'completed');
    assert.equal((da.result as Obj).isError, true);
    const b = await c.callTool('protocol_error_job');
    const db = await terminal(b.taskId);
    assert.equal(db.status, 'failed');
    assert.equal((db.error as Obj).code, ErrorCode.InternalError);
    assert.equal(db.result, undefined);
  });

  test('input_required: inputRequests on tasks/get, answered with tasks/update (one at a time)', async () => {
    const t = await c.callTool('multi_input');
    const waiting = await waitFor(async () => {
      const g = await c.request('tasks/get', { taskId: t.taskId });
      return Object.keys((g.inputRequests ?? {}) as Obj).length === 2 ? g : false;
    });
    assert.equal(waiting.status, 'input_required');
    const [k1, k2] = Object.keys(waiting.inputRequests as Obj) as [string, string];
    assert.equal(((waiting.inputRequests as Obj)[k1] as Obj).method, 'elicitation/create');
    const ack = await c.request('tasks/update', {
      taskId: t.taskId,
      inputResponses: { [k1]: { action: 'accept', content: { name: 'one' } }, unknown: { x: 1 } },
    });
    assert.equal(ack.resultType, 'complete');
    assert.ok(!('status' in ack));
    const mid = await c.request('tasks/get', { taskId: t.taskId });
    assert.equal(mid.status, 'input_required');
    assert.deepEqual(Object.keys(mid.inputRequests as Obj), [k2]);
    await assert.rejects(
      c.request('tasks/update', { taskId: t.taskId, inputResponses: { [k2]: { action: 'maybe' } } }),
      isWire(ErrorCode.InvalidParams),
    );
    await c.request('tasks/update', {
      taskId: t.taskId,
      inputResponses: { [k2]: { action: 'accept', content: { name: 'two' } } },
    });
    const done = await terminal(t.taskId);
    assert.equal(((done.result as Obj).content as Obj[])[0]!.text, 'Got {"name":"one"} and {"name":"two"}');
    // Answering a finished task is acknowledged and changes nothing.
    await c.request('tasks/update', { taskId: t.taskId, inputResponses: { [k2]: { action: 'decline' } } });
    assert.equal((await c.request('tasks/get', { taskId: t.taskId })).status, 'completed');
  });

  test('tasks/cancel is an acknowledgement, idempotent once terminal; unknown ids are -32602', async () => {
    const t = await c.callTool('slow_compute', { seconds: 60, label: 'cancel-me' });
    const ack = await c.request('tasks/cancel', { taskId: t.taskId });
    assert.equal(ack.resultType, 'complete');
    assert.ok(!('status' in ack));
    assert.equal((await terminal(t.taskId)).status, 'cancelled');
    assert.equal((await c.request('tasks/cancel', { taskId: t.taskId })).resultType, 'complete');
    for (const method of ['tasks/get', 'tasks/cancel']) {
      await assert.rejects(c.request(method, { taskId: 'nope' }), isWire(ErrorCode.InvalidParams));
    }
    await assert.rejects(
      c.request('tasks/update', { taskId: 'nope', inputResponses: {} }),
      isWire(ErrorCode.InvalidParams),
    );
  });

  test('without the extension: plain results, -32021 for required tools and the task methods', async () => {
    const r = await plain.callTool('slow_compute', { seconds: 0, label: 'sync' });
    assert.equal(r.resultType, 'complete');
    assert.equal(r.taskId, undefined);
    await assert.rejects(plain.callTool('failing_job'), (e: unknown) => {
      assert.ok(e instanceof WireError);
      assert.equal(e.code, ErrorCode.MissingRequiredClientCapability);
      assert.deepEqual(e.data, { requiredCapabilities: { extensions: { [EXT]: {} } } });
      return true;
    });
    for (const [method, params] of [
      ['tasks/get', { taskId: 'x' }],
      ['tasks/update', { taskId: 'x', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'x' }],
    ] as const) {
      await assert.rejects(plain.request(method, params), isWire(ErrorCode.MissingRequiredClientCapability));
    }
    // The legacy task param neither errors nor promotes a plain tool.
    const g = await c.request('tools/call', { name: 'greet', arguments: { name: 'L' }, task: { ttl: 1000 } });
    assert.equal(g.resultType, 'complete');
  });

  test('tasks/result and tasks/list are gone in the extension', async () => {
    // Sent raw: mcpkit's own client refuses to send them in this revision.
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': WITH_EXT,
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    };
    for (const [id, method] of [
      ['raw-result', 'tasks/result'],
      ['raw-list', 'tasks/list'],
    ] as const) {
      c.session.sendRaw({ jsonrpc: '2.0', id, method, params: { taskId: 'x', _meta: meta } });
      const reply = await waitFor(async () => c.tap.responses(id)[0]);
      assert.equal((reply.error as Obj).code, ErrorCode.MethodNotFound);
    }
  });

  test('MRTR rounds settle questions before a deferred task is created', async () => {
    const created = await c.callTool('test_tool_with_task');
    assert.equal(c.rounds, 1);
    assert.equal(created.resultType, 'task');
    assert.ok(!('requestState' in created));
    const done = await terminal(created.taskId);
    assert.match(String(((done.result as Obj).content as Obj[])[0]!.text), /Hello, name-value!/);
  });

  test('notifications/tasks arrive on subscriptions/listen for the listed task ids', async () => {
    const t = await c.callTool('slow_compute', { seconds: 0.3, label: 'watched' });
    const listen = c.session.request('subscriptions/listen', { notifications: { taskIds: [t.taskId] } });
    const got = await waitFor(async () =>
      c.tap
        .notifications('notifications/tasks')
        .find((n) => (n.params as Obj).taskId === t.taskId && (n.params as Obj).status === 'completed'),
    );
    assert.deepEqual(((got.params as Obj).result as Obj).content, [
      { type: 'text', text: 'Computed watched after 0.3 s' },
    ]);
    const ackd = c.tap.notifications('notifications/subscriptions/acknowledged').at(-1)!;
    assert.deepEqual(((ackd.params as Obj).notifications as Obj).taskIds, [t.taskId]);
    await assert.rejects(
      plain.session.request('subscriptions/listen', { notifications: { taskIds: ['x'] } }),
      isWire(ErrorCode.MissingRequiredClientCapability),
    );
    void listen.catch(() => undefined);
  });
});
