import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { OURS, makeHost, nodeServer } from '../../test-support/host-harness.js';
import { installOtel, parentOf } from '../../test-support/otel.js';
import type { Host } from '../host.js';
import { Agent } from './agent.js';
import { ScriptedProvider, textAnswer } from './llm.js';

describe("the agent loop's spans", () => {
  const otel = installOtel();
  const telemetry = { tracerProvider: otel.tracerProvider, metrics: false } as const;
  let host: Host;
  before(async () => {
    ({ host } = makeHost({ ours: nodeServer(OURS, [], { policy: { default: 'allow' } }) }, { telemetry }));
    await host.start();
  });
  after(() => host.close());

  test('a run is invoke_agent; model calls (chat) and tool calls (tools/call) are its children', async () => {
    const llm = new ScriptedProvider([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'u1', name: 'ours__add', input: { a: 2, b: 40 } }],
        model: 'scripted-1',
        stopReason: 'toolUse',
      },
      textAnswer('42'),
    ]);
    const agent = new Agent(host, { provider: llm, model: 'm1', caller: 'tester', telemetry });
    const result = await agent.run('add 2 and 40');
    assert.equal(result.text, '42');

    const spans = otel.spans();
    const run = spans.find((s) => s.name === 'invoke_agent tester')!;
    assert.ok(run, spans.map((s) => s.name).join());
    assert.equal(run.kind, SpanKind.INTERNAL);
    assert.equal(run.attributes['gen_ai.operation.name'], 'invoke_agent');
    const inRun = spans.filter((s) => s.spanContext().traceId === run.spanContext().traceId);
    const chats = inRun.filter((s) => s.name === 'chat m1');
    assert.equal(chats.length, 2);
    for (const c of chats) {
      assert.equal(c.kind, SpanKind.CLIENT);
      assert.equal(parentOf(c), run.spanContext().spanId);
      assert.equal(c.attributes['gen_ai.operation.name'], 'chat');
      assert.equal(c.attributes['gen_ai.provider.name'], 'scripted');
      assert.equal(c.attributes['gen_ai.request.model'], 'm1');
    }
    assert.deepEqual(chats[0]!.attributes['gen_ai.response.finish_reasons'], ['toolUse']);
    const call = inRun.find((s) => s.name === 'tools/call add' && s.kind === SpanKind.CLIENT)!;
    assert.ok(call, inRun.map((s) => s.name).join());
    assert.equal(parentOf(call), run.spanContext().spanId);
    assert.equal(call.attributes['gen_ai.operation.name'], 'execute_tool');
  });

  test('without telemetry the agent opens no span', async () => {
    const before = otel.spans().filter((s) => s.name.startsWith('invoke_agent')).length;
    const agent = new Agent(host, { provider: new ScriptedProvider([textAnswer('hi')]), model: 'm1' });
    assert.equal((await agent.run('hello')).text, 'hi');
    assert.equal(otel.spans().filter((s) => s.name.startsWith('invoke_agent')).length, before);
  });
});
