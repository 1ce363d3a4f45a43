// Telemetry with the real OpenTelemetry SDK: spans on both ends of every request, the client
// span the parent of the server span through `_meta` (in-memory, Streamable HTTP in both eras,
// legacy SSE), the conventions' names and attributes, errors, metrics, and bad propagation
// fields ignored. Every message either side sends is checked against its revision's schema.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode, propagation } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client } from '../client/client.js';
import { WireError } from '../jsonrpc/index.js';
import type { Transport } from '../jsonrpc/index.js';
import { McpServer } from '../server/server.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { Session } from '../session/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { SseClientTransport, StreamableHttpClientTransport } from '../transports/http-client/node.js';
import { WireTap } from '../test-support/mcp-harness.js';
import { histogramPoints, inRootSpan, installOtel, parentOf } from '../test-support/otel.js';
import { waitFor } from '../test-support/waiting.js';
import type { Otel } from '../test-support/otel.js';

type Obj = Record<string, unknown>;
const REVISION = { legacy: '2025-11-25', modern: '2026-07-28' } as const;

const otel: Otel = installOtel();
const telemetry = { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider };

function makeServer(): McpServer {
  const server = new McpServer({ name: 'traced', version: '1.0.0' }, { telemetry, logger: () => undefined });
  server.tool({ name: 'echo' }, () => {
    // The handler runs inside the server span, with the baggage the client sent.
    const baggage = propagation.getActiveBaggage()?.getEntry('tenant')?.value;
    return baggage === undefined ? 'echo' : `echo for ${baggage}`;
  });
  server.tool({ name: 'broken' }, () => ({ content: [{ type: 'text', text: 'no' }], isError: true }));
  server.prompt({ name: 'greet' }, () => [{ role: 'user', content: { type: 'text', text: 'hello' } }]);
  server.resource({ uri: 'note://one', name: 'one' }, () => [{ uri: 'note://one', text: 'note one' }]);
  return server;
}

function spansOf(traceId: string): ReadableSpan[] {
  return otel.spans().filter((s) => s.spanContext().traceId === traceId);
}

function one(spans: ReadableSpan[], name: string, kind: SpanKind): ReadableSpan {
  const found = spans.filter((s) => s.name === name && s.kind === kind);
  assert.equal(
    found.length,
    1,
    `one ${SpanKind[kind]} span "${name}" in ${spans.map((s) => `${s.name}/${SpanKind[s.kind]}`).join(', ')}`,
  );
  return found[0]!;
}

interface Combo {
  client: Client;
  tap: WireTap;
  close(): Promise<void>;
}

type Kind = 'memory' | 'http' | 'sse';
const MATRIX: Array<[Kind, 'legacy' | 'modern']> = [
  ['memory', 'legacy'],
  ['memory', 'modern'],
  ['http', 'legacy'],
  ['http', 'modern'],
  ['sse', 'legacy'],
];

async function open(kind: Kind, era: 'legacy' | 'modern'): Promise<Combo> {
  const server = makeServer();
  let running: RunningServer | undefined;
  let inner: Transport;
  if (kind === 'memory') {
    const [c, s] = memoryPair();
    await server.connect(s);
    inner = c;
  } else {
    running = await serve(server, { port: 0 });
    inner =
      kind === 'http'
        ? new StreamableHttpClientTransport({ url: running.url })
        : new SseClientTransport({ url: `http://127.0.0.1:${running.port}/sse` });
  }
  const client = new Client(
    { name: 'tracing-client', version: '1.0.0' },
    { era, telemetry, logger: () => undefined },
  );
  const tap = new WireTap(inner, REVISION[era]);
  await client.connect(tap);
  return {
    client,
    tap,
    close: async () => {
      await client.close();
      await running?.close();
      await server.close();
    },
  };
}

for (const [kind, era] of MATRIX) {
  describe(`telemetry over ${kind}, ${era} (${REVISION[era]})`, () => {
    let combo: Combo;
    before(async () => {
      combo = await open(kind, era);
    });
    after(async () => {
      combo.tap.assertValid();
      await combo.close();
    });

    test('a tool call is a CLIENT span whose child is the SERVER span, named and attributed per the conventions', async () => {
      const { result, traceId, spanId } = await inRootSpan(otel, 'test', () =>
        combo.client.callTool({ name: 'echo', arguments: {} }),
      );
      assert.equal((result.content[0] as unknown as Obj).text, 'echo');
      const spans = spansOf(traceId);
      const client = one(spans, 'tools/call echo', SpanKind.CLIENT);
      const server = one(spans, 'tools/call echo', SpanKind.SERVER);
      assert.equal(parentOf(client), spanId);
      assert.equal(parentOf(server), client.spanContext().spanId);
      for (const s of [client, server]) {
        assert.equal(s.attributes['mcp.method.name'], 'tools/call');
        assert.equal(s.attributes['gen_ai.tool.name'], 'echo');
        assert.equal(s.attributes['gen_ai.operation.name'], 'execute_tool');
        assert.equal(s.attributes['mcp.protocol.version'], REVISION[era]);
        assert.equal(typeof s.attributes['jsonrpc.request.id'], 'string');
        assert.equal(s.status.code, SpanStatusCode.UNSET);
        assert.equal(s.attributes['error.type'], undefined);
        if (kind !== 'memory') {
          assert.equal(s.attributes['network.transport'], 'tcp');
          assert.equal(s.attributes['network.protocol.name'], 'http');
        }
      }
      assert.equal(client.attributes['jsonrpc.request.id'], server.attributes['jsonrpc.request.id']);
      // Legacy Streamable HTTP has a session; 2026-07-28 is stateless and has none.
      if (kind === 'http' && era === 'legacy')
        assert.equal(typeof server.attributes['mcp.session.id'], 'string');
      if (era === 'modern') assert.equal(server.attributes['mcp.session.id'], undefined);
    });

    test('baggage travels in _meta to the server handler', async () => {
      const bag = propagation.createBaggage({ tenant: { value: 'acme' } });
      const { context } = await import('@opentelemetry/api');
      const result = await context.with(propagation.setBaggage(context.active(), bag), () =>
        combo.client.callTool({ name: 'echo', arguments: {} }),
      );
      assert.equal((result.content[0] as unknown as Obj).text, 'echo for acme');
    });

    test('a tool result with isError is an error span with error.type tool_error on both ends', async () => {
      const { traceId } = await inRootSpan(otel, 'test', () =>
        combo.client.callTool({ name: 'broken', arguments: {} }),
      );
      const spans = spansOf(traceId);
      for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
        const s = one(spans, 'tools/call broken', kind);
        assert.equal(s.attributes['error.type'], 'tool_error');
        assert.equal(s.status.code, SpanStatusCode.ERROR);
      }
    });

    test('a JSON-RPC error sets error.type and rpc.response.status_code to its code and the status message', async () => {
      let error: WireError | undefined;
      const { traceId } = await inRootSpan(otel, 'test', () =>
        combo.client.getPrompt({ name: 'no-such-prompt' }).then(
          () => assert.fail('expected an error'),
          (e: unknown) => {
            assert.ok(e instanceof WireError);
            error = e;
          },
        ),
      );
      const spans = spansOf(traceId);
      for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
        const s = one(spans, 'prompts/get no-such-prompt', kind);
        assert.equal(s.attributes['gen_ai.prompt.name'], 'no-such-prompt');
        assert.equal(s.attributes['error.type'], String(error!.code));
        assert.equal(s.attributes['rpc.response.status_code'], String(error!.code));
        assert.deepEqual(s.status, { code: SpanStatusCode.ERROR, message: error!.message });
      }
    });

    test('resources/read carries mcp.resource.uri, not in the span name', async () => {
      const { traceId } = await inRootSpan(otel, 'test', () =>
        combo.client.readResource({ uri: 'note://one' }),
      );
      const spans = spansOf(traceId);
      for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
        assert.equal(one(spans, 'resources/read', kind).attributes['mcp.resource.uri'], 'note://one');
      }
    });
  });
}

describe('telemetry: propagation fields from a peer', () => {
  let server: McpServer;
  let raw: Session;
  before(async () => {
    server = makeServer();
    const [c, s] = memoryPair();
    await server.connect(s);
    // A bare session (no telemetry) sends whatever _meta the test writes.
    raw = new Session({ role: 'client', info: { name: 'raw', version: '1' } });
    await raw.connect(c);
    await raw.initialize();
  });
  after(async () => {
    await raw.close();
    await server.close();
  });

  async function callWithMeta(meta: Obj): Promise<{ text: unknown; span: ReadableSpan }> {
    const before = new Set(otel.spans());
    const result = await raw.request('tools/call', { name: 'echo', arguments: {}, _meta: meta });
    const span = otel
      .spans()
      .find((s) => !before.has(s) && s.name === 'tools/call echo' && s.kind === SpanKind.SERVER);
    assert.ok(span);
    return { text: (result.content as Obj[])[0]!.text, span };
  }

  test('a valid traceparent makes the server span its child', async () => {
    const { span } = await callWithMeta({
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    });
    assert.equal(span.spanContext().traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(parentOf(span), '00f067aa0ba902b7');
  });

  test('a malformed traceparent is ignored: a root span, and the request succeeds', async () => {
    for (const traceparent of [
      'garbage',
      '00-zz-yy-01',
      42,
      { nested: true },
      `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01`,
    ]) {
      const { text, span } = await callWithMeta({ traceparent });
      assert.equal(text, 'echo');
      assert.equal(parentOf(span), undefined, JSON.stringify(traceparent));
    }
  });

  test('baggage over the cap (8 KB) is ignored, never an error', async () => {
    const { text } = await callWithMeta({ baggage: `tenant=${'x'.repeat(9000)}` });
    assert.equal(text, 'echo');
    const small = await callWithMeta({ baggage: 'tenant=small' });
    assert.equal(small.text, 'echo for small');
  });
});

describe('telemetry: server-to-client requests (legacy sampling)', () => {
  test('get a CLIENT span on the server and a SERVER span on the client, children of the tool call', async () => {
    const server = new McpServer({ name: 'asker', version: '1.0.0' }, { telemetry });
    server.tool({ name: 'ask' }, async (_args, ctx) => {
      const r = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 5,
      });
      return String((r.content as unknown as Obj).text);
    });
    const [c, s] = memoryPair();
    await server.connect(s);
    const client = new Client(
      { name: 'sampler', version: '1.0.0' },
      {
        era: 'legacy',
        telemetry,
        handlers: {
          sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }),
        },
      },
    );
    const tap = new WireTap(c, REVISION.legacy);
    await client.connect(tap);
    try {
      const { result, traceId } = await inRootSpan(otel, 'test', () =>
        client.callTool({ name: 'ask', arguments: {} }),
      );
      assert.equal((result.content[0] as unknown as Obj).text, 'sampled');
      const spans = spansOf(traceId);
      const toolServer = one(spans, 'tools/call ask', SpanKind.SERVER);
      const sampleClient = one(spans, 'sampling/createMessage', SpanKind.CLIENT);
      const sampleServer = one(spans, 'sampling/createMessage', SpanKind.SERVER);
      assert.equal(parentOf(sampleClient), toolServer.spanContext().spanId);
      assert.equal(parentOf(sampleServer), sampleClient.spanContext().spanId);
      tap.assertValid();
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('telemetry: metrics', () => {
  test('operation durations, errors, in-flight and session counts on both sides', async () => {
    const combo = await open('memory', 'legacy');
    await combo.client.callTool({ name: 'echo', arguments: {} });
    await combo.client.callTool({ name: 'broken', arguments: {} });
    const m = await otel.metrics();
    for (const side of ['client', 'server']) {
      const points = histogramPoints(m.get(`mcp.${side}.operation.duration`));
      const echo = points.find(
        (p) => p.attributes['gen_ai.tool.name'] === 'echo' && p.attributes['error.type'] === undefined,
      );
      assert.ok(echo && echo.value.count >= 1, `${side} duration for echo`);
      assert.equal(m.get(`mcp.${side}.operation.duration`)?.descriptor.unit, 's');
      const errors = m.get(`mcp.${side}.operation.errors`)?.dataPoints ?? [];
      assert.ok(
        errors.some((p) => p.attributes['error.type'] === 'tool_error'),
        `${side} tool_error counted`,
      );
      const inflight = m.get(`mcp.${side}.request.active`)?.dataPoints ?? [];
      assert.ok(
        inflight.every((p) => p.value === 0),
        `${side} nothing in flight`,
      );
      assert.ok(
        (m.get(`mcp.${side}.session.active`)?.dataPoints ?? []).some((p) => (p.value as number) >= 1),
      );
    }
    await combo.close();
    const after = await otel.metrics();
    assert.ok(histogramPoints(after.get('mcp.client.session.duration')).some((p) => p.value.count >= 1));
    assert.ok(histogramPoints(after.get('mcp.server.session.duration')).some((p) => p.value.count >= 1));
  });
});

describe('telemetry: tasks', () => {
  for (const era of ['legacy', 'modern'] as const) {
    test(`${era}: a span over the task's whole life, linked to the call that created it`, async () => {
      const server = new McpServer(
        { name: 'tasker', version: '1.0.0' },
        { telemetry, logger: () => undefined },
      );
      server.tool({ name: 'job', execution: { taskSupport: 'required' } }, async () => {
        await new Promise((r) => setImmediate(r));
        return 'done';
      });
      server.tool({ name: 'bad-job', execution: { taskSupport: 'required' } }, () => {
        throw new WireError(-32603, 'The job broke');
      });
      const [c, s] = memoryPair();
      await server.connect(s);
      const client = new Client({ name: 'c', version: '1.0.0' }, { era, telemetry, logger: () => undefined });
      await client.connect(c);
      try {
        const { result, traceId } = await inRootSpan(otel, 'test', () =>
          client.callTool({ name: 'job', arguments: {} }),
        );
        assert.equal((result.content[0] as unknown as Obj).text, 'done');
        const creator = one(spansOf(traceId), 'tools/call job', SpanKind.SERVER);
        const task = await waitFor(() =>
          otel
            .spans()
            .find(
              (sp) =>
                sp.name === 'task tools/call job' && sp.attributes['mcp.protocol.version'] === REVISION[era],
            ),
        );
        assert.equal(task.kind, SpanKind.INTERNAL);
        assert.equal(parentOf(task), undefined);
        assert.deepEqual(
          task.links.map((l) => l.context.spanId),
          [creator.spanContext().spanId],
        );
        assert.equal(task.attributes['mcp.task.status'], 'completed');
        assert.equal(typeof task.attributes['mcp.task.id'], 'string');
        assert.equal(task.status.code, SpanStatusCode.UNSET);

        await client.callTool({ name: 'bad-job', arguments: {} }).catch(() => undefined);
        const bad = await waitFor(() =>
          otel
            .spans()
            .find(
              (sp) =>
                sp.name === 'task tools/call bad-job' &&
                sp.attributes['mcp.protocol.version'] === REVISION[era],
            ),
        );
        assert.equal(bad.attributes['mcp.task.status'], 'failed');
        assert.equal(bad.attributes['error.type'], 'task_failed');
        assert.deepEqual(bad.status, { code: SpanStatusCode.ERROR, message: 'The job broke' });
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});
