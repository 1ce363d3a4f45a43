/**
 * Integration scenarios, part 2 — the server asks the client (elicitation, sampling with
 * tools, roots, two-round MRTR) and change notifications (resource subscriptions, tool
 * list changes with automatic refresh): our Client against the demo server over
 * every transport × era (test-support/integration.ts), every message checked against the
 * official schema. In the legacy era the questions are server-to-client requests; in the
 * modern era they come back as `input_required` results and the client retries.
 */
import assert from 'node:assert/strict';
import type { Obj, WireTap } from '../test-support/mcp-harness.js';
import {
  cancelledIds,
  cancelsByClosingStream,
  firstText,
  runScenarios,
} from '../test-support/integration.js';
import type { Scenario, ScenarioContext } from '../test-support/integration.js';
import { DEMO_TOOL_NAMES, ROOTS, TOOL_CASES } from '../test-support/demo-cases.js';
import { WAIT_MS, waitFor, within } from '../test-support/waiting.js';

const WATCHED = 'test://watched-resource';

/** The `tools/call` requests the client sent for one tool since `skip`. */
function calls(tap: WireTap, tool: string, skip = 0): Obj[] {
  return tap
    .requestsFrom('client', 'tools/call')
    .slice(skip)
    .map((r) => r.params as Obj)
    .filter((p) => p.name === tool);
}

/**
 * Calls a tool that asks the client `questions` (methods, in order) and checks how they
 * travelled: server requests in the legacy era; `input_required` rounds in the modern
 * era, each retry answering the one new question and echoing the sealed state.
 */
async function callAsking(
  ctx: ScenarioContext,
  tool: string,
  args: Obj,
  questions: string[],
): Promise<string> {
  const { client, tap, era, asked } = ctx;
  const skipCalls = tap.requestsFrom('client', 'tools/call').length;
  const skipServer = tap.requestsFrom('server').length;
  const skipAsked = asked.length;
  const result = await client.callTool({ name: tool, arguments: args });
  // Roots are a fixed list (so that setRoots can replace it): no handler to record them.
  assert.deepEqual(
    asked.slice(skipAsked).map((a) => a.method),
    questions.filter((q) => q !== 'roots/list'),
  );
  const sent = calls(tap, tool, skipCalls);
  const fromServer = tap.requestsFrom('server').slice(skipServer);
  if (era === 'legacy') {
    assert.equal(sent.length, 1, 'one call, no retries');
    assert.deepEqual(
      fromServer.map((r) => r.method),
      questions,
    );
  } else {
    assert.deepEqual(fromServer, [], 'a modern server sends no requests');
    assert.equal(sent.length, questions.length + 1, 'one retry per question');
    const states = new Set<unknown>();
    sent.slice(1).forEach((retry, i) => {
      assert.deepEqual(Object.keys(retry.inputResponses as Obj), [`q${i}`]);
      assert.equal(typeof retry.requestState, 'string');
      states.add(retry.requestState);
      assert.deepEqual(retry.arguments, args, 'the retry repeats the original request');
    });
    assert.equal(states.size, questions.length, 'each round seals a new state');
  }
  return firstText(result);
}

const scenarios: Scenario[] = [
  {
    name: 'elicitation: the user answers a form',
    async run(ctx) {
      const text = await callAsking(ctx, 'test_elicitation', { message: 'Who are you?' }, [
        'elicitation/create',
      ]);
      TOOL_CASES.test_elicitation!.check({ content: [{ type: 'text', text }] });
      const question = ctx.asked.at(-1)!.params;
      assert.equal(question.message, 'Who are you?');
      assert.deepEqual((question.requestedSchema as Obj).required, ['username', 'email']);
    },
  },
  {
    name: 'sampling with tools: tool_use, then the tool result, then the answer',
    async run(ctx) {
      const text = await callAsking(ctx, 'weather_agent', { question: 'Weather in Oslo?' }, [
        'sampling/createMessage',
        'sampling/createMessage',
      ]);
      assert.equal(text, 'The model says: Echo: Sunny and 21°C in Oslo');
      const [first, second] = ctx.asked.slice(-2).map((a) => a.params);
      assert.deepEqual(
        (first!.tools as Obj[]).map((t) => t.name),
        ['get_weather'],
      );
      assert.deepEqual(first!.toolChoice, { mode: 'auto' });
      const messages = second!.messages as Obj[];
      assert.deepEqual(
        messages.map((m) => m.role),
        ['user', 'assistant', 'user'],
      );
      const [result] = messages[2]!.content as Obj[];
      assert.equal(result!.type, 'tool_result');
      assert.equal(result!.toolUseId, 'call-1');
    },
  },
  {
    name: 'roots: listed on request; setRoots changes them (legacy: with list_changed)',
    async run(ctx) {
      const { client, tap, era } = ctx;
      assert.equal(
        await callAsking(ctx, 'list_roots', {}, ['roots/list']),
        'project: file:///home/user/project',
      );
      const sent = tap.notifications('notifications/roots/list_changed', 'client').length;
      await client.setRoots([{ uri: 'file:///srv/data', name: 'data' }]);
      assert.equal(
        tap.notifications('notifications/roots/list_changed', 'client').length,
        sent + (era === 'legacy' ? 1 : 0),
      );
      assert.equal(await callAsking(ctx, 'list_roots', {}, ['roots/list']), 'data: file:///srv/data');
      await client.setRoots(ROOTS);
    },
  },
  {
    name: 'MRTR: plan_trip asks twice (elicitation, then sampling)',
    async run(ctx) {
      const text = await callAsking(ctx, 'plan_trip', { destination: 'Oslo' }, [
        'elicitation/create',
        'sampling/createMessage',
      ]);
      assert.equal(text, '3 days in Oslo: Echo: Plan a 3-day trip to Oslo.');
      if (ctx.era === 'modern') {
        const [, first, second] = calls(ctx.tap, 'plan_trip').slice(-3);
        assert.deepEqual(first!.inputResponses, { q0: { action: 'accept', content: { days: 3 } } });
        assert.equal(((second!.inputResponses as Obj).q1 as Obj).model, 'scripted-model');
      }
    },
  },
  {
    name: 'subscriptions: resources/updated while subscribed, nothing after',
    async run(ctx) {
      const { client, tap, era } = ctx;
      const updates = () => tap.notifications('notifications/resources/updated').length;
      const sub = await client.subscribe({ resources: [WATCHED] });
      const events = sub[Symbol.asyncIterator]();
      const touched = firstText(await client.callTool({ name: 'touch_watched_resource', arguments: {} }));
      const event = await within(events.next(), WAIT_MS, 'resources/updated');
      assert.deepEqual(event.value, { kind: 'resource', uri: WATCHED });
      const revision = /revision (\d+)$/.exec(touched)![1];
      const read = await client.readResource({ uri: WATCHED });
      assert.equal(
        (read.contents[0] as { text?: string }).text,
        `Watched resource content, revision ${revision}`,
      );
      const before = updates();
      await sub.close();
      if (era === 'legacy') {
        assert.deepEqual(tap.requestsFrom('client', 'resources/subscribe').at(-1)?.params, { uri: WATCHED });
        assert.deepEqual(tap.requestsFrom('client', 'resources/unsubscribe').at(-1)?.params, {
          uri: WATCHED,
        });
      } else {
        // Closing cancels the listen request (over Streamable HTTP by closing its stream); a
        // cancelled request gets no answer.
        const listen = tap.requestsFrom('client', 'subscriptions/listen').at(-1)!;
        assert.deepEqual((listen.params as Obj).notifications, { resourceSubscriptions: [WATCHED] });
        assert.equal(cancelledIds(tap).includes(listen.id), !cancelsByClosingStream(ctx));
      }
      await client.callTool({ name: 'touch_watched_resource', arguments: {} });
      // The echo is the barrier: an update sent before its answer would have arrived.
      await client.callTool({ name: 'echo', arguments: { text: 'sync' } });
      assert.equal(updates(), before, 'no update once closed');
    },
  },
  {
    name: 'tools/list_changed: the client refetches the tool list by itself',
    async run({ client, toolLists }) {
      const has = (list: { name: string }[] | undefined) => list?.some((t) => t.name === 'bonus_tool');
      const n = toolLists.length;
      const added = await client.callTool({ name: 'toggle_bonus_tool', arguments: {} });
      assert.equal(firstText(added), 'bonus_tool added');
      await waitFor(() => toolLists.length > n && has(toolLists.at(-1)));
      assert.equal(toolLists.at(-1)!.length, DEMO_TOOL_NAMES.length + 1, 'every page refetched');
      const bonus = await client.callTool({ name: 'bonus_tool', arguments: {} });
      assert.equal(firstText(bonus), 'You found the bonus tool');
      await client.callTool({ name: 'toggle_bonus_tool', arguments: {} });
      await waitFor(() => !has(toolLists.at(-1)));
      const gone = await client.callTool({ name: 'bonus_tool', arguments: {} }).catch((e: Error) => e);
      assert.match(String((gone as Error).message), /Unknown tool: bonus_tool/);
    },
  },
];

runScenarios('integration, the server asks', scenarios);
