/**
 * Integration scenarios, part 1 — lists, calls and notifications: our Client against the
 * demo server over every transport (in-memory, stdio, Streamable HTTP, legacy HTTP+SSE) × era
 * (2025-11-25, 2026-07-28) it carries, every message checked
 * against the official schema. Part 2 (questions to the client, subscriptions) is in
 * integration-interactive.test.ts.
 */
import assert from 'node:assert/strict';
import { LocalError, WireError } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { Progress } from '../session/index.js';
import { collect } from '../test-support/client-harness.js';
import type { Obj, WireTap } from '../test-support/mcp-harness.js';
import {
  PAGE_SIZE,
  STEP_MS,
  cancelledIds,
  cancelsByClosingStream,
  firstText,
  runScenarios,
} from '../test-support/integration.js';
import type { Scenario } from '../test-support/integration.js';
import { TINY_PNG_BASE64 } from './everything-media.js';
import { DEMO_TOOL_NAMES, PROMPT_CASES, SKILL_URIS } from '../test-support/demo-cases.js';
import { delay } from '../test-support/waiting.js';

const WATCHED = 'test://watched-resource';

/** The pages the server answered to `method` requests sent after the first `skip`. */
function pages(tap: WireTap, method: string, skip: number, key: string): Obj[][] {
  return tap
    .requestsFrom('client', method)
    .slice(skip)
    .map((r) => (tap.responses(r.id)[0]?.result as Obj)[key] as Obj[]);
}

/** Walks a list with the client's iterator and checks it came two items a page. */
async function pagedList<T>(tap: WireTap, method: string, key: string, walk: AsyncIterable<T>): Promise<T[]> {
  const skip = tap.requestsFrom('client', method).length;
  const items = await collect(walk);
  const seen = pages(tap, method, skip, key);
  assert.equal(seen.length, Math.ceil(items.length / PAGE_SIZE), `${method}: one request a page`);
  assert.ok(
    seen.every((p) => p.length <= PAGE_SIZE),
    `${method}: pages of at most ${PAGE_SIZE}`,
  );
  return items;
}

const isLocal = (code: string) => (e: unknown) => e instanceof LocalError && e.code === code;
const isWire = (code: number) => (e: unknown) => e instanceof WireError && e.code === code;

/** The last tools/call the client sent and the progress token it carried. */
function lastCall(tap: WireTap): { id: unknown; token: unknown } {
  const req = tap.requestsFrom('client', 'tools/call').at(-1)!;
  return { id: req.id, token: ((req.params as Obj)._meta as Obj | undefined)?.progressToken };
}

const scenarios: Scenario[] = [
  {
    name: 'lists every tool, resource, template and prompt, two a page',
    async run({ client, tap }) {
      const tools = await pagedList(tap, 'tools/list', 'tools', client.tools());
      assert.deepEqual(tools.map((t) => t.name).sort(), [...DEMO_TOOL_NAMES].sort());
      const resources = await pagedList(tap, 'resources/list', 'resources', client.resources());
      assert.deepEqual(resources.map((r) => r.uri).sort(), [
        ...SKILL_URIS,
        'test://static-binary',
        'test://static-text',
        WATCHED,
        'ui://mcpkit-demo/counter.html',
      ]);
      const templates = await pagedList(
        tap,
        'resources/templates/list',
        'resourceTemplates',
        client.resourceTemplates(),
      );
      assert.deepEqual(
        templates.map((t) => t.uriTemplate),
        ['test://template/{id}/data'],
      );
      const prompts = await pagedList(tap, 'prompts/list', 'prompts', client.prompts());
      assert.deepEqual(prompts.map((p) => p.name).sort(), Object.keys(PROMPT_CASES).sort());
      // A forged cursor is refused.
      await assert.rejects(client.listTools({ cursor: 'not-a-cursor' }), isWire(-32602));
    },
  },
  {
    name: 'calls tools with progress, in order, every notification before the answer',
    async run({ client }) {
      const seen: Progress[] = [];
      const r = await client.callTool(
        { name: 'slow_count', arguments: { n: 4 } },
        { onprogress: (p) => seen.push(p) },
      );
      assert.equal(firstText(r), 'Counted to 4');
      assert.deepEqual(
        seen,
        [1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `Counted ${i} of 4` })),
      );
      // The last notification shares a write with the response; it still arrives first.
      const quick: number[] = [];
      await client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        { onprogress: (p) => quick.push(p.progress) },
      );
      assert.deepEqual(quick, [0, 50, 100]);
      const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
      assert.deepEqual(sum.structuredContent, { sum: 42 });
    },
  },
  {
    name: 'cancels a call with an AbortSignal: notifications/cancelled, and the server stops',
    async run(ctx) {
      const { client, tap } = ctx;
      const ac = new AbortController();
      let started!: () => void;
      const first = new Promise<void>((r) => (started = r));
      const call = client.callTool(
        { name: 'slow_count', arguments: { n: 1000 } },
        { signal: ac.signal, onprogress: () => started() },
      );
      await first;
      ac.abort('the user pressed stop');
      await assert.rejects(call, isLocal('Cancelled'));
      const { id, token } = lastCall(tap);
      if (cancelsByClosingStream(ctx)) {
        assert.ok(!cancelledIds(tap).includes(id), 'closing the stream is the cancellation');
      } else {
        const cancel = tap.notifications('notifications/cancelled', 'client').at(-1);
        assert.deepEqual(cancel?.params, { requestId: id, reason: 'the user pressed stop' });
      }
      const progressed = () =>
        tap.notifications('notifications/progress').filter((n) => (n.params as Obj).progressToken === token)
          .length;
      // Notes already in the pipe when the cancel left may still arrive (a loaded machine
      // holds several); after they drain, nothing more may come. Time is the subject here:
      // proving that a periodic sender stopped takes several of its periods, and over HTTP the
      // call's own stream is not ordered with any barrier request.
      await delay(Math.max(STEP_MS * 4, 200));
      const settled = progressed();
      await delay(Math.max(STEP_MS * 8, 300));
      assert.equal(progressed(), settled, 'the server stopped counting');
      assert.deepEqual(tap.responses(id), [], 'a cancelled request is never answered');
      assert.equal(
        firstText(await client.callTool({ name: 'echo', arguments: { text: 'still here' } })),
        'still here',
      );
    },
  },
  {
    name: 'times out a call: RequestTimeout, and the server is told to stop',
    async run(ctx) {
      const { client, tap } = ctx;
      const started = Date.now();
      await assert.rejects(
        client.callTool({ name: 'slow_count', arguments: { n: 1000 } }, { timeoutMs: 100 }),
        isLocal('RequestTimeout'),
      );
      assert.ok(Date.now() - started < 2000);
      const { id } = lastCall(tap);
      assert.equal(cancelledIds(tap).includes(id), !cancelsByClosingStream(ctx));
      // A barrier instead of a sleep: on the ordered transports anything sent before its
      // answer has arrived (the server was told to stop, so no answer to the call may come).
      assert.equal(firstText(await client.callTool({ name: 'echo', arguments: { text: 'after' } })), 'after');
      assert.deepEqual(tap.responses(id), []);
    },
  },
  {
    name: 'reads resources and the template; an unknown URI is the era’s not-found error',
    async run({ client, era }) {
      const text = await client.readResource({ uri: 'test://static-text' });
      assert.deepEqual(text.contents, [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ]);
      const binary = await client.readResource({ uri: 'test://static-binary' });
      assert.equal((binary.contents[0] as { blob?: string }).blob, TINY_PNG_BASE64);
      const data = await client.readResource({ uri: 'test://template/123/data' });
      assert.deepEqual(JSON.parse(String((data.contents[0] as { text?: string }).text)), {
        id: '123',
        templateTest: true,
        data: 'Data for ID: 123',
      });
      const missing = 'test://template/123/other';
      await assert.rejects(
        client.readResource({ uri: missing }),
        (e: unknown) =>
          isWire(era === 'legacy' ? -32002 : -32602)(e) &&
          (e as WireError).message === `Resource not found: ${missing}`,
      );
    },
  },
  {
    name: 'gets prompts and completes prompt arguments and template variables',
    async run({ client }) {
      const p = await client.getPrompt({
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'a', arg2: 'b' },
      });
      assert.deepEqual(p.messages, [
        { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } },
      ]);
      const embedded = await client.getPrompt({
        name: 'test_prompt_with_embedded_resource',
        arguments: { resourceUri: 'test://static-text' },
      });
      assert.equal((embedded.messages[0]!.content as { resource?: Obj }).resource?.uri, 'test://static-text');
      await assert.rejects(
        client.getPrompt({ name: 'test_prompt_with_arguments', arguments: {} }),
        isWire(-32602),
      );
      const args = await client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'tes' },
      });
      assert.deepEqual(args.completion, { values: ['test', 'testing', 'tester'], total: 3, hasMore: false });
      const ids = await client.complete({
        ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
        argument: { name: 'id', value: '1' },
      });
      assert.deepEqual(ids.completion.values, ['1', '123']);
    },
  },
  {
    name: 'logging: the level set is honoured (setLevel, or per-request _meta in 2026-07-28)',
    async run({ client, tap, era }) {
      const logs = () => tap.notifications('notifications/message').map((n) => (n.params as Obj).data);
      await client.setLoggingLevel('info');
      const before = logs().length;
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      assert.deepEqual(logs().slice(before), [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ]);
      const call = tap.requestsFrom('client', 'tools/call').at(-1)!;
      if (era === 'modern') {
        assert.equal(((call.params as Obj)._meta as Obj)[MetaKey.LogLevel], 'info');
        assert.deepEqual(tap.requestsFrom('client', 'logging/setLevel'), []);
      } else {
        assert.deepEqual(tap.requestsFrom('client', 'logging/setLevel').at(-1)?.params, { level: 'info' });
      }
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      assert.equal(logs().length, before + 3, 'info messages filtered out at warning');
    },
  },
];

runScenarios('integration', scenarios);
