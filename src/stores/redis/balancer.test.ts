/**
 * The scale-out scenario with real parts: redis-server, three `mcpkit demo-server --redis`
 * child processes and haproxy in round-robin mode with no stickiness in front of them. The
 * official SDK clients (v1, v2 in the legacy era, v2 in the modern era) run their checks
 * through the balancer, so consecutive requests of one session land on different nodes;
 * then a node is killed with SIGKILL mid-session.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport as V1Sse } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2StreamableHttp,
} from '@modelcontextprotocol/client';
import {
  PROMPT_CASES,
  ROOTS,
  SKILL_URIS,
  TOOL_CASES,
  elicit,
  firstMessage,
  sample,
} from '../../test-support/demo-cases.js';
import type { Obj } from '../../test-support/demo-cases.js';
import { SdkWireRecorder } from '../../test-support/sdk-wire-recorder.js';
import type { SdkTransport } from '../../test-support/sdk-wire-recorder.js';
import {
  assertServerMessage,
  modern,
  openLegacySession,
  postJson,
  rpc,
  sseMessages,
} from '../../test-support/http-server-harness.js';
import { startCluster } from '../../test-support/cluster.js';
import { missing } from '../../test-support/services.js';
import type { Cluster } from '../../test-support/cluster.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const WATCHED = 'test://watched-resource';
const CAPABILITIES = { sampling: { tools: {} }, elicitation: { form: {} }, roots: { listChanged: true } };
/** Registrations are per node (every node runs the same code): a tool that adds a tool on one node is left out. */
const NODE_LOCAL = new Set(['toggle_bonus_tool']);

/** The calls both SDKs share, loosely typed. */
interface SdkClient {
  listTools(params?: Obj): Promise<Obj>;
  listResources(params?: Obj): Promise<Obj>;
  listResourceTemplates(params?: Obj): Promise<Obj>;
  readResource(params: Obj): Promise<Obj>;
  listPrompts(params?: Obj): Promise<Obj>;
  getPrompt(params: Obj): Promise<Obj>;
  complete(params: Obj): Promise<Obj>;
}

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

/** Lists and calls every tool, reads every resource, gets every prompt, completes. */
async function fullCheck(client: SdkClient, call: (name: string, args: Obj) => Promise<Obj>): Promise<void> {
  const tools = await listAll((p) => client.listTools(p), 'tools');
  const listed = new Set(tools.map((t) => String(t.name)));
  for (const name of Object.keys(TOOL_CASES)) assert.ok(listed.has(name), `${name} is listed`);
  for (const tool of tools) {
    const name = String(tool.name);
    // Tools without a case (the task tools) are checked by their own suites.
    if (NODE_LOCAL.has(name) || !TOOL_CASES[name]) continue;
    TOOL_CASES[name]!.check(await call(name, TOOL_CASES[name]!.args));
  }
  const resources = await listAll((p) => client.listResources(p), 'resources');
  assert.deepEqual(
    resources.map((r) => String(r.uri)).sort(),
    [
      ...SKILL_URIS,
      'test://static-binary',
      'test://static-text',
      'test://watched-resource',
      'ui://mcpkit-demo/counter.html',
    ].sort(),
  );
  for (const r of resources) {
    const { contents } = (await client.readResource({ uri: r.uri })) as { contents: Obj[] };
    assert.equal(contents[0]!.uri, r.uri);
  }
  const templates = await listAll((p) => client.listResourceTemplates(p), 'resourceTemplates');
  assert.ok(templates.some((t) => t.uriTemplate === 'test://template/{id}/data'));
  const prompts = await listAll((p) => client.listPrompts(p), 'prompts');
  const names = new Set(prompts.map((p) => String(p.name)));
  for (const name of Object.keys(PROMPT_CASES)) assert.ok(names.has(name), name);
  for (const [name, { args, first }] of Object.entries(PROMPT_CASES)) {
    assert.equal(firstMessage(await client.getPrompt({ name, arguments: args })), first, name);
  }
  const done = await client.complete({
    ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
    argument: { name: 'arg1', value: 'pa' },
  });
  assert.deepEqual((done.completion as Obj).values, ['paris', 'park', 'party', 'pasta']);
}

/** The nodes that asked the client something: our server-to-client request ids name their node. */
function askingNodes(wire: SdkWireRecorder): Set<string> {
  return new Set(wire.requestsFrom('server').map((r) => String(r.id).split(':')[0]!));
}

async function v1Client(
  url: string,
): Promise<{ client: V1Client; wire: SdkWireRecorder; transport: V1StreamableHttp }> {
  const client = new V1Client({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: CAPABILITIES });
  client.setRequestHandler(CreateMessageRequestSchema, (r) => sample(r.params as Obj) as never);
  client.setRequestHandler(ElicitRequestSchema, (r) => elicit(r.params as Obj) as never);
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOTS }));
  const transport = new V1StreamableHttp(new URL(url));
  const wire = new SdkWireRecorder(transport as unknown as SdkTransport, LEGACY);
  await client.connect(wire as never);
  return { client, wire, transport };
}

const SKIP = missing('redis', 'haproxy');
let cluster: Cluster;
before(async () => {
  if (!SKIP) cluster = await startCluster(3);
});
after(async () => {
  await cluster?.close();
});

describe(
  'through haproxy (round robin, no stickiness) in front of 3 nodes sharing Redis',
  { skip: SKIP },
  () => {
    test('SDK v1 (legacy): every tool, resource and prompt; sampling, elicitation and roots cross nodes', async () => {
      const { client, wire, transport } = await v1Client(cluster.balancer.url);
      const updates: string[] = [];
      client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (n) => void updates.push(n.params.uri),
      );
      try {
        await client.setLoggingLevel('info');
        await fullCheck(
          client as unknown as SdkClient,
          (name, args) => client.callTool({ name, arguments: args }) as Promise<Obj>,
        );
        assert.ok(
          askingNodes(wire).size >= 2,
          `server requests came from several nodes: ${[...askingNodes(wire)]}`,
        );
        // Subscribed through one node, changed through another, announced on the GET stream of a third.
        await client.subscribeResource({ uri: WATCHED });
        await client.callTool({ name: 'touch_watched_resource', arguments: {} });
        await waitFor(() => updates.length === 1, WAIT_MS);
        assert.deepEqual(updates, [WATCHED]);
        assert.deepEqual(wire.problems.server, [], 'every server message matches the 2025-11-25 schema');
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    test('SDK v2 in the legacy era: the same checks', async () => {
      const client = new V2Client(
        { name: 'sdk-v2-legacy', version: '2.0.0' },
        { capabilities: CAPABILITIES },
      );
      client.setRequestHandler('sampling/createMessage', (r) => sample(r.params as Obj) as never);
      client.setRequestHandler('elicitation/create', (r) => elicit(r.params as Obj) as never);
      client.setRequestHandler('roots/list', () => ({ roots: ROOTS }));
      const wire = new SdkWireRecorder(
        new V2StreamableHttp(new URL(cluster.balancer.url)) as unknown as SdkTransport,
        LEGACY,
      );
      await client.connect(wire as never);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), LEGACY);
        await fullCheck(
          client as unknown as SdkClient,
          (name, args) => client.callTool({ name, arguments: args }) as Promise<Obj>,
        );
        assert.ok(askingNodes(wire).size >= 2);
        assert.deepEqual(wire.problems.server, []);
      } finally {
        await client.close();
      }
    });

    test('SDK v2 in the modern era: the same checks, input_required rounds answered on other nodes', async () => {
      const client = new V2Client(
        { name: 'sdk-v2-modern', version: '2.0.0' },
        {
          capabilities: CAPABILITIES,
          versionNegotiation: { mode: { pin: MODERN } },
          inputRequired: { autoFulfill: true, maxRounds: 4 },
        },
      );
      client.setRequestHandler('sampling/createMessage', (r) => sample(r.params as Obj) as never);
      client.setRequestHandler('elicitation/create', (r) => elicit(r.params as Obj) as never);
      client.setRequestHandler('roots/list', () => ({ roots: ROOTS }));
      const updates: string[] = [];
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void updates.push(n.params.uri),
      );
      const wire = new SdkWireRecorder(
        new V2StreamableHttp(new URL(cluster.balancer.url)) as unknown as SdkTransport,
        MODERN,
      );
      await client.connect(wire as never);
      try {
        assert.equal(client.getProtocolEra(), 'modern');
        await fullCheck(
          client as unknown as SdkClient,
          (name, args) => client.callTool({ name, arguments: args }) as Promise<Obj>,
        );
        // A listen stream held on one node hears a change made through another.
        const sub = await client.listen({ resourceSubscriptions: [WATCHED] });
        await client.callTool({ name: 'touch_watched_resource', arguments: {} });
        await client.callTool({ name: 'touch_watched_resource', arguments: {} });
        await waitFor(() => updates.length === 2, WAIT_MS);
        await sub.close();
        assert.deepEqual(wire.problems.server, []);
      } finally {
        await client.close();
      }
    });

    test('SDK v1 over the 2024-11-05 HTTP+SSE transport: POSTs on any node reach the node holding the stream', async () => {
      const client = new V1Client({ name: 'sdk-v1-sse', version: '1.0.0' }, { capabilities: CAPABILITIES });
      client.setRequestHandler(CreateMessageRequestSchema, (r) => sample(r.params as Obj) as never);
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOTS }));
      const wire = new SdkWireRecorder(
        new V1Sse(new URL(cluster.balancer.url.replace(/\/mcp$/, '/sse'))) as unknown as SdkTransport,
        '2024-11-05',
      );
      await client.connect(wire as never);
      try {
        // Round robin spreads these POSTs over every node; only one holds the stream.
        for (let i = 0; i < 6; i++) {
          const r = await client.callTool({ name: 'add', arguments: { a: i, b: 10 } });
          assert.match(JSON.stringify(r.content), new RegExp(`${i + 10}`));
        }
        assert.ok((await client.listTools()).tools.length > 10);
        // A server-to-client request on the stream, answered by a POST that lands anywhere.
        for (const name of ['test_sampling', 'list_roots']) {
          const r = await client.callTool({
            name,
            arguments: name === 'test_sampling' ? { prompt: 'Hi' } : {},
          });
          assert.notEqual(r.isError, true, JSON.stringify(r));
        }
        assert.deepEqual(wire.problems.server, [], 'every server message matches the 2024-11-05 schema');
      } finally {
        await client.close();
      }
      const stray = await postJson(
        cluster.balancer.url.replace(/\/mcp$/, `/messages?sessionId=${cluster.nodes.length}x.none`),
        rpc('ping'),
      );
      assert.equal(stray.status, 404, 'an id no node holds is refused');
    });

    test('SIGKILL of a node mid-session: its in-flight call fails (no hang), the session goes on', async () => {
      const { client, transport } = await v1Client(cluster.balancer.url);
      try {
        const progress = [0, 0, 0, 0, 0, 0];
        const failures: Array<unknown> = [undefined, undefined, undefined, undefined, undefined, undefined];
        const stop = new AbortController();
        // Six calls in a row, spread by round robin over the three nodes (each node gets two of
        // them, or at least one when the client's GET stream reconnects in between). Each counts
        // for about 20 s (the tool's maximum), far longer than the kill takes to come, so the
        // order of events rather than the speed of the machine decides the outcome.
        const calls = progress.map((_, i) =>
          client
            .callTool({ name: 'slow_count', arguments: { n: 1000 } }, undefined, {
              onprogress: () => void progress[i]!++,
              timeout: 600_000,
              signal: stop.signal,
            })
            .catch((e: unknown) => void (failures[i] = e)),
        );
        await waitFor(() => progress.every((p) => p > 0), 30_000, 'progress from all six calls');
        await cluster.nodes[0]!.stop('SIGKILL');
        // Each call now either fails (it was on the killed node) or goes on counting.
        const atKill = [...progress];
        await waitFor(
          () => progress.every((p, i) => failures[i] !== undefined || p >= atKill[i]! + 3),
          30_000,
          'every call failed or counted on',
        );
        const failed = failures.filter((f) => f !== undefined);
        assert.ok(
          failed.length >= 1 && failed.length < 6,
          `the killed node's calls fail: ${failed.length} of 6`,
        );
        for (const f of failed) assert.match(String(f), /node handling this request stopped/);
        stop.abort();
        await Promise.all(calls);
        // The session lives on the two others.
        for (let i = 0; i < 4; i++) {
          const r = await client.callTool({ name: 'add', arguments: { a: i, b: 1 } });
          assert.deepEqual(r.structuredContent, { sum: i + 1 });
        }
        const e = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Still there?' } });
        assert.match(JSON.stringify(e), /accept/);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    test('a Redis restart is survived: 503s while it is down, then the same session goes on', async () => {
      const { client, transport } = await v1Client(cluster.balancer.url);
      try {
        // Used through every live node, so each holds a copy it can put back.
        for (let i = 0; i < 3; i++) await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
        await cluster.redis.stop();
        // A node that confirmed the session within its lease (a second at most) still serves
        // it; past that, a request that needs the store is refused with 503 at once.
        let refused: unknown;
        const until503 = Date.now() + 10_000;
        while (refused === undefined && Date.now() < until503) {
          await client
            .callTool({ name: 'add', arguments: { a: 1, b: 2 } })
            .catch((e: unknown) => (refused = e));
        }
        assert.match(String(refused), /503|unavailable/i);
        await cluster.redis.start();
        const sum = await waitFor(
          async () =>
            (await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } }).catch(() => undefined))
              ?.structuredContent,
          30_000,
          'a call once Redis is back',
        );
        assert.deepEqual(sum, { sum: 42 }, 'the session was restored by the nodes');
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    test('SIGKILL of the node running tasks: they fail soon with a clear error, polled through the balancer', async () => {
      const TASKS_EXT = 'io.modelcontextprotocol/tasks';
      const meta = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXT]: {} } } };
      const alive = cluster.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
      assert.ok(alive.length >= 2, 'two live nodes: one to kill, one to go on');
      const [doomed, survivor] = alive as [(typeof alive)[0], (typeof alive)[0]];
      const startModern = async (url: string): Promise<string> => {
        const call = modern('tools/call', { name: 'slow_compute', arguments: { seconds: 120 } }, { meta });
        // A node may still be reconnecting to the Redis the previous test restarted.
        const r = await waitFor(
          async () => {
            const answer = await postJson(url, call.body, call.headers);
            return answer.status === 200 ? answer : undefined;
          },
          WAIT_MS,
          'the node to create a task',
        );
        return (r.json!.result as Obj).taskId as string;
      };
      const getModern = async (taskId: string): Promise<Obj> => {
        const m = modern('tasks/get', { taskId }, { meta });
        const r = await postJson(cluster.balancer.url, m.body, m.headers);
        // The extension's methods are not in the core schema: checked field by field below.
        return r.json!.result as Obj;
      };
      // Started on chosen nodes; everything after goes through the balancer.
      const lost = await startModern(doomed.url);
      const kept = await startModern(survivor.url);
      const sid = await openLegacySession(cluster.balancer.url, { tasks: {} });
      const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
      const started = await postJson(
        doomed.url,
        rpc('tools/call', { name: 'slow_compute', arguments: { seconds: 120 }, task: { ttl: 600_000 } }),
        headers,
      );
      const legacyTask = (sseMessages(started.body)[0]!.result as Obj).task as Obj;
      assert.equal(legacyTask.status, 'working');
      assert.equal((await getModern(lost)).status, 'working');

      await doomed.stop('SIGKILL');
      // A blocking tasks/result waiting on a live node hears of the failure too.
      const blocked = postJson(
        cluster.balancer.url,
        rpc('tasks/result', { taskId: legacyTask.taskId }),
        headers,
      );
      // Each poll is a real request; the node's lease (3 s by default) bounds the wait.
      const failed = await waitFor(
        async () => {
          const t = await getModern(lost);
          return t.status !== 'working' ? t : undefined;
        },
        2 * WAIT_MS,
        "the dead node's task to end",
      );
      assert.equal(failed.status, 'failed');
      assert.match(String((failed!.error as Obj).message), /stopped before the task finished/);
      const answer = sseMessages((await blocked).body).find((m) => m.id !== undefined)!;
      assertServerMessage(LEGACY, answer, 'tasks/result');
      assert.match(String((answer.error as Obj).message), /stopped before the task finished/);
      const polled = sseMessages(
        (await postJson(cluster.balancer.url, rpc('tasks/get', { taskId: legacyTask.taskId }), headers)).body,
      )[0]!.result as Obj;
      assert.equal(polled.status, 'failed');
      // The task on the node still alive is left running, and can still be cancelled.
      assert.equal((await getModern(kept)).status, 'working');
      const cancel = modern('tasks/cancel', { taskId: kept }, { meta });
      assert.equal((await postJson(cluster.balancer.url, cancel.body, cancel.headers)).status, 200);
    });
  },
);
