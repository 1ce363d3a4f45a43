/**
 * Interop: the official TypeScript SDK clients against our demo server, a real child
 * process over stdio (`node dist/demo/everything-stdio.js`):
 *
 * - `@modelcontextprotocol/sdk` 1.x `Client` (legacy era, 2025-11-25): sampling, elicitation
 *   and roots arrive as server-to-client requests, answered through `setRequestHandler`.
 * - `@modelcontextprotocol/client` 2.x pinned to 2026-07-28 (`versionNegotiation: { mode:
 *   { pin } }`): the same questions come back as `input_required` results, which the SDK
 *   fulfils with the same handlers (`inputRequired.autoFulfill`, on by default) and retries.
 *
 * Each client lists and calls every tool, reads every resource and the template, gets every
 * prompt, completes, sets the log level and subscribes. Every message either side sends is
 * checked against the official schema; the server's must all pass.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport as V1Stdio,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { MetaKey } from '../protocol/meta-keys.js';
import {
  DEMO_EXTENSIONS,
  DEMO_TOOL_NAMES,
  PROMPT_CASES,
  ROOTS,
  SKILL_URIS,
  TASK_TOOL_NAMES,
  TOOL_CASES,
  elicit,
  firstMessage,
  sample,
} from '../test-support/demo-cases.js';
import type { Obj } from '../test-support/demo-cases.js';
import { SdkWireRecorder } from '../test-support/sdk-wire-recorder.js';
import { waitFor } from '../test-support/waiting.js';

const ENTRY = fileURLToPath(new URL('./everything-stdio.js', import.meta.url));
const CHILD = { command: process.execPath, args: [ENTRY], stderr: 'ignore' as const };
const CHILD_ENV = { MCPKIT_DEMO_STEP_MS: '20', MCPKIT_PAGE_SIZE: '5' };
const WATCHED = 'test://watched-resource';
const CLIENT_CAPABILITIES = {
  sampling: { tools: {} },
  elicitation: { form: {} },
  roots: { listChanged: true },
};

/** The surface both SDK clients share, loosely typed: enough to run one round for either. */
interface SdkClient {
  listTools(params?: Obj): Promise<Obj>;
  callTool(params: Obj, ...rest: unknown[]): Promise<Obj>;
  listResources(params?: Obj): Promise<Obj>;
  listResourceTemplates(params?: Obj): Promise<Obj>;
  readResource(params: Obj): Promise<Obj>;
  listPrompts(params?: Obj): Promise<Obj>;
  getPrompt(params: Obj): Promise<Obj>;
  complete(params: Obj): Promise<Obj>;
}

/** Every page of a list, following nextCursor by hand (the server pages by 5). */
async function listAll(list: (p?: Obj) => Promise<Obj>, key: string): Promise<Obj[]> {
  const items: Obj[] = [];
  let cursor: unknown;
  for (let page = 0; page < 20; page++) {
    const r = await list(cursor === undefined ? undefined : { cursor });
    items.push(...(r[key] as Obj[]));
    cursor = r.nextCursor;
    if (cursor === undefined) return items;
  }
  throw new Error(`${key}: too many pages`);
}

/** Calls every tool the server lists and checks each result; returns the progress seen per tool. */
async function callEveryTool(
  client: SdkClient,
  call: (name: string, args: Obj, onprogress: (p: Obj) => void) => Promise<Obj>,
): Promise<Record<string, number[]>> {
  const tools = await listAll((p) => client.listTools(p), 'tools');
  assert.deepEqual(tools.map((t) => t.name).sort(), [...DEMO_TOOL_NAMES].sort(), 'every tool has a case');
  const add = tools.find((t) => t.name === 'add')!;
  assert.deepEqual(add.outputSchema, {
    type: 'object',
    properties: { sum: { type: 'number' } },
    required: ['sum'],
  });
  const progress: Record<string, number[]> = {};
  for (const tool of tools) {
    const name = String(tool.name);
    if (TASK_TOOL_NAMES.includes(name)) continue;
    const seen: number[] = (progress[name] = []);
    const result = await call(name, TOOL_CASES[name]!.args, (p) => seen.push(Number(p.progress)));
    TOOL_CASES[name]!.check(result);
  }
  return progress;
}

/**
 * Progress of one call: every notification must be on the wire before the response. The
 * SDKs dispatch notifications a microtask later than responses, so one that shares a read
 * with the response reaches a retired token and is dropped (reported to `onerror`): the
 * known SDK race typescript-sdk#2580. What the SDK delivered must be a prefix of the wire.
 */
function checkProgress(wire: SdkWireRecorder, tool: string, delivered: number[], expected: number[]): void {
  const call = wire.requestsFrom('client', 'tools/call').filter((r) => (r.params as Obj).name === tool)[0]!;
  const token = ((call.params as Obj)._meta as Obj).progressToken;
  const answeredAt = wire.messages.findIndex((m) => m.from === 'server' && m.message.id === call.id);
  const onWire = wire.messages
    .slice(0, answeredAt)
    .filter((m) => m.message.method === 'notifications/progress')
    .filter((m) => (m.message.params as Obj).progressToken === token)
    .map((m) => (m.message.params as Obj).progress);
  assert.deepEqual(onWire, expected, `${tool}: every progress notification precedes the response`);
  assert.ok(delivered.length > 0, `${tool}: no progress delivered`);
  assert.deepEqual(delivered, expected.slice(0, delivered.length));
}

/** Reads every resource and the template, gets every prompt and completes both kinds of ref. */
async function readAndGetEverything(client: SdkClient): Promise<void> {
  const resources = await listAll((p) => client.listResources(p), 'resources');
  assert.deepEqual(resources.map((r) => r.uri).sort(), [
    ...SKILL_URIS,
    'test://static-binary',
    'test://static-text',
    WATCHED,
    'ui://mcpkit-demo/counter.html',
  ]);
  for (const r of resources) {
    const { contents } = (await client.readResource({ uri: r.uri })) as { contents: Obj[] };
    assert.equal(contents.length, 1);
    assert.equal(contents[0]!.uri, r.uri);
    assert.equal(contents[0]!.mimeType, r.mimeType);
    if (r.mimeType === 'image/png') assert.match(String(contents[0]!.blob), /^iVBORw0KGgo/);
    else assert.ok(String(contents[0]!.text).length > 10);
  }
  const templates = await listAll((p) => client.listResourceTemplates(p), 'resourceTemplates');
  assert.deepEqual(
    templates.map((t) => t.uriTemplate),
    ['test://template/{id}/data'],
  );
  const { contents } = (await client.readResource({ uri: 'test://template/42/data' })) as {
    contents: Obj[];
  };
  assert.deepEqual(JSON.parse(String(contents[0]!.text)), {
    id: '42',
    templateTest: true,
    data: 'Data for ID: 42',
  });

  const prompts = await listAll((p) => client.listPrompts(p), 'prompts');
  assert.deepEqual(prompts.map((p) => p.name).sort(), Object.keys(PROMPT_CASES).sort());
  for (const [name, { args, first }] of Object.entries(PROMPT_CASES)) {
    assert.equal(firstMessage(await client.getPrompt({ name, arguments: args })), first, name);
  }
  const byPrompt = await client.complete({
    ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
    argument: { name: 'arg1', value: 'pa' },
  });
  assert.deepEqual(byPrompt.completion, {
    values: ['paris', 'park', 'party', 'pasta'],
    total: 4,
    hasMore: false,
  });
  const byTemplate = await client.complete({
    ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
    argument: { name: 'id', value: '4' },
  });
  assert.deepEqual((byTemplate.completion as Obj).values, ['42']);
}

describe('interop: SDK v1 Client over stdio (legacy, 2025-11-25)', () => {
  let client: V1Client;
  let wire: SdkWireRecorder;
  const logs: Obj[] = [];
  const updates: string[] = [];
  let toolListChanges = 0;

  before(async () => {
    client = new V1Client({ name: 'sdk-v1-client', version: '1.0.0' }, { capabilities: CLIENT_CAPABILITIES });
    client.setRequestHandler(CreateMessageRequestSchema, (r) => sample(r.params as Obj) as never);
    client.setRequestHandler(ElicitRequestSchema, (r) => elicit(r.params as Obj) as never);
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOTS }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolListChanges++);
    const transport = new V1Stdio({ ...CHILD, env: { ...getDefaultEnvironment(), ...CHILD_ENV } });
    wire = new SdkWireRecorder(transport, '2025-11-25');
    await client.connect(wire);
  });

  after(async () => {
    await client?.close();
    assert.deepEqual(wire.problems.server, [], 'every server message matches the 2025-11-25 schema');
    assert.deepEqual(wire.problems.client, [], 'every SDK v1 message matches the 2025-11-25 schema');
  });

  test('initialize negotiates 2025-11-25 with our identity and capabilities', () => {
    assert.equal(client.getServerVersion()?.name, 'mcpkit-everything');
    assert.match(String(client.getInstructions()), /demo server/);
    assert.deepEqual(client.getServerCapabilities(), {
      logging: {},
      completions: {},
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: true },
      ...DEMO_EXTENSIONS,
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    const init = wire.messages.find((m) => m.from === 'server')!.message;
    assert.equal((init.result as Obj).protocolVersion, '2025-11-25');
  });

  test('every tool: list and call, with sampling, elicitation and roots as server requests', async () => {
    await client.setLoggingLevel('info');
    const progress = await callEveryTool(client as unknown as SdkClient, (name, args, onprogress) =>
      client.callTool({ name, arguments: args }, undefined, { onprogress }),
    );
    checkProgress(wire, 'test_tool_with_progress', progress.test_tool_with_progress!, [0, 50, 100]);
    checkProgress(wire, 'slow_count', progress.slow_count!, [1, 2, 3]);
    assert.deepEqual(
      logs.map((l) => l.data),
      [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
        ...['started', 'working', 'finished'].map((step) => `test_logging_tool ${step}`),
      ],
    );
    const asked = wire.requestsFrom('server').map((r) => r.method);
    assert.deepEqual([...new Set(asked)].sort(), [
      'elicitation/create',
      'roots/list',
      'sampling/createMessage',
    ]);
    const withTools = wire
      .requestsFrom('server', 'sampling/createMessage')
      .filter((r) => (r.params as Obj).tools);
    assert.equal(withTools.length, 2, 'weather_agent asked twice: tool_use, then the answer');
    // toggle_bonus_tool added bonus_tool: the list changed, and the new tool works.
    await waitFor(() => toolListChanges > 0);
    assert.equal(wire.notifications('notifications/tools/list_changed').length, toolListChanges);
    const r = await client.callTool({ name: 'bonus_tool', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'You found the bonus tool' }]);
    await client.callTool({ name: 'toggle_bonus_tool', arguments: {} });
    assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'bonus_tool'));
  });

  test('resources, the template, prompts and completion', async () => {
    await readAndGetEverything(client as unknown as SdkClient);
    await assert.rejects(client.readResource({ uri: 'test://nope' }), { code: -32002 });
  });

  test('logging/setLevel: error silences the info messages', async () => {
    await client.setLoggingLevel('error');
    const before = logs.length;
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(logs.length, before);
  });

  test('resources/subscribe and unsubscribe', async () => {
    await client.subscribeResource({ uri: WATCHED });
    await client.callTool({ name: 'touch_watched_resource', arguments: {} });
    await waitFor(() => updates.length === 1);
    assert.deepEqual(updates, [WATCHED]);
    await client.unsubscribeResource({ uri: WATCHED });
    await client.callTool({ name: 'touch_watched_resource', arguments: {} });
    await client.ping();
    assert.equal(updates.length, 1, 'no update after unsubscribe');
  });
});

describe('interop: SDK v2 Client over stdio (modern, 2026-07-28)', () => {
  let client: V2Client;
  let wire: SdkWireRecorder;
  const logs: Obj[] = [];
  const updates: string[] = [];
  const errors: Error[] = [];

  before(async () => {
    client = new V2Client(
      { name: 'sdk-v2-client', version: '2.0.0' },
      {
        capabilities: CLIENT_CAPABILITIES,
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: true, maxRounds: 4 },
      },
    );
    // The same handlers answer MRTR input requests in this era.
    client.setRequestHandler('sampling/createMessage', (r) => sample(r.params as Obj) as never);
    client.setRequestHandler('elicitation/create', (r) => elicit(r.params as Obj) as never);
    client.setRequestHandler('roots/list', () => ({ roots: ROOTS }));
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    client.onerror = (e) => void errors.push(e);
    const transport = new V2Stdio({ ...CHILD, env: CHILD_ENV });
    wire = new SdkWireRecorder(transport, '2026-07-28');
    await client.connect(wire);
  });

  after(async () => {
    await client?.close();
    assert.deepEqual(wire.problems.server, [], 'every server message matches the 2026-07-28 schema');
    assert.deepEqual(wire.problems.client, [], 'every SDK v2 message matches the 2026-07-28 schema');
    // Only the SDK's own late-progress race (typescript-sdk#2580, see checkProgress).
    assert.deepEqual(
      errors.filter((e) => !/progress notification for an unknown token/.test(e.message)),
      [],
    );
  });

  test('server/discover pins 2026-07-28; no initialize is ever sent', () => {
    assert.equal(client.getProtocolEra(), 'modern');
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(client.getServerVersion()?.name, 'mcpkit-everything');
    assert.deepEqual(
      wire.requestsFrom('client').map((r) => r.method),
      ['server/discover'],
    );
  });

  test('every tool: list and call; sampling, elicitation and roots as input_required rounds', async () => {
    const progress = await callEveryTool(client as unknown as SdkClient, (name, args, onprogress) =>
      client.callTool(
        { name, arguments: args, _meta: { [MetaKey.LogLevel]: 'info' } },
        { onprogress: onprogress as never },
      ),
    );
    checkProgress(wire, 'test_tool_with_progress', progress.test_tool_with_progress!, [0, 50, 100]);
    checkProgress(wire, 'slow_count', progress.slow_count!, [1, 2, 3]);
    assert.deepEqual(
      logs.map((l) => l.data),
      [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
        ...['started', 'working', 'finished'].map((step) => `test_logging_tool ${step}`),
      ],
    );
    assert.deepEqual(wire.requestsFrom('server'), [], 'a modern server sends no requests');
    const retries = (name: string) =>
      wire
        .requestsFrom('client', 'tools/call')
        .filter((r) => (r.params as Obj).name === name && (r.params as Obj).requestState !== undefined);
    assert.equal(retries('test_sampling').length, 1);
    assert.equal(retries('list_roots').length, 1);
    assert.equal(retries('plan_trip').length, 2, 'elicitation, then sampling');
    assert.equal(retries('weather_agent').length, 2, 'tool_use, then the answer');
    const final = retries('plan_trip')[1]!.params as Obj;
    assert.deepEqual(Object.keys(final.inputResponses as Obj), ['q1']);
    // toggle_bonus_tool added bonus_tool; a fresh listing (the SDK caches) shows it.
    const listed = await client.listTools(undefined, { cacheMode: 'refresh' });
    assert.ok(listed.tools.some((t) => t.name === 'bonus_tool'));
    await client.callTool({ name: 'toggle_bonus_tool', arguments: {} });
  });

  test('resources, the template, prompts and completion', async () => {
    await readAndGetEverything(client as unknown as SdkClient);
    await assert.rejects(client.readResource({ uri: 'test://nope' }), /Resource not found/);
  });

  test('no logging/setLevel, resources/subscribe or ping in 2026-07-28: the SDK refuses them locally', async () => {
    await assert.rejects(client.setLoggingLevel('debug'), /not supported by the negotiated protocol version/);
    await assert.rejects(client.subscribeResource({ uri: WATCHED }), /not supported/);
    await assert.rejects(client.ping(), /not supported/);
    // The per-request log level replaces setLevel: without it, no messages.
    const before = logs.length;
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(logs.length, before);
  });

  test('subscriptions/listen delivers resources/updated until closed', async () => {
    const sub = await client.listen({ resourceSubscriptions: [WATCHED], toolsListChanged: true });
    assert.deepEqual(sub.honoredFilter, { toolsListChanged: true, resourceSubscriptions: [WATCHED] });
    await client.callTool({ name: 'touch_watched_resource', arguments: {} });
    await waitFor(() => updates.length === 1);
    assert.deepEqual(updates, [WATCHED]);
    await client.callTool({ name: 'toggle_bonus_tool', arguments: {} });
    await waitFor(() => wire.notifications('notifications/tools/list_changed').length === 1);
    await client.callTool({ name: 'toggle_bonus_tool', arguments: {} });
    await sub.close();
    assert.equal(await sub.closed, 'local');
    await client.callTool({ name: 'touch_watched_resource', arguments: {} });
    await client.discover();
    assert.equal(updates.length, 1, 'no update after the stream closed');
  });
});
