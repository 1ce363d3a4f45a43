/**
 * End to end over a real socket, the older paths and other clients: the deprecated
 * HTTP+SSE transport (our `SseClientTransport`, and `StreamableHttpClientTransport` falling
 * back to it), and the official SDK v1 client on Streamable HTTP and on HTTP+SSE.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport as V1Sse } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../../client/client.js';
import { WireTap, formAnswer } from '../../test-support/mcp-harness.js';
import { SseClientTransport, StreamableHttpClientTransport } from '../http-client/index.js';
import { LEGACY, request, startEverything } from '../../test-support/http-server-harness.js';
import { SdkWireRecorder } from '../../test-support/sdk-wire-recorder.js';
import type { SdkTransport } from '../../test-support/sdk-wire-recorder.js';
import type { Fixture, Obj } from '../../test-support/http-server-harness.js';
import { waitFor } from '../../test-support/waiting.js';

let f: Fixture;
before(async () => {
  f = await startEverything({}, 10);
});
after(() => f.close());

const textOf = (r: unknown): string => String((((r as Obj).content as Obj[])[0] ?? {}).text);

function ourClient(): Client {
  return new Client(
    { name: 'http-e2e-interop', version: '1.0.0' },
    {
      era: 'legacy',
      timeoutMs: 10_000,
      handlers: {
        elicitation: (params) => ({
          action: 'accept',
          content: formAnswer((params as Obj).requestedSchema) as never,
        }),
      },
    },
  );
}

/** What every client below does: list, call, an elicitation, progress, read, prompt. */
async function exerciseOurs(client: Client): Promise<void> {
  const tools = await client.listTools();
  assert.ok(tools.tools.length > 10);
  assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent, {
    sum: 3,
  });
  const e = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } });
  assert.match(textOf(e), /username-value/);
  const seen: number[] = [];
  await client.callTool(
    { name: 'test_tool_with_progress', arguments: {} },
    { onprogress: (p) => seen.push(p.progress) },
  );
  assert.deepEqual(seen, [0, 50, 100]);
  const read = await client.readResource({ uri: 'test://static-text' });
  assert.ok(JSON.stringify(read.contents).length > 20);
}

describe('the deprecated HTTP+SSE transport (2024-11-05)', () => {
  test('our SseClientTransport against /sse', async () => {
    const client = ourClient();
    const tap = new WireTap(new SseClientTransport({ url: `${f.origin}/sse` }), LEGACY);
    await client.connect(tap);
    try {
      assert.equal(client.era, 'legacy');
      await exerciseOurs(client);
      assert.equal(tap.requestsFrom('server', 'elicitation/create').length, 1);
    } finally {
      await client.close();
    }
    tap.assertValid();
  });

  test('POST to the SSE URL gets a 405 with no JSON-RPC body, so clients fall back', async () => {
    const r = await request(`${f.origin}/sse`, {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, 'GET');
    assert.equal(r.json, undefined);
  });

  test('StreamableHttpClientTransport({ legacySseFallback }) pointed at the SSE URL falls back', async () => {
    // The Streamable endpoint lives elsewhere (/other), as on an HTTP+SSE-only server.
    const g = await startEverything({ path: '/other' }, 10);
    try {
      const client = ourClient();
      const transport = new StreamableHttpClientTransport({
        url: `${g.origin}/sse`,
        legacySseFallback: true,
      });
      const tap = new WireTap(transport, LEGACY);
      await client.connect(tap);
      try {
        assert.equal(transport.kind, 'sse', 'the transport switched to HTTP+SSE');
        await exerciseOurs(client);
      } finally {
        await client.close();
      }
      tap.assertValid();
      assert.equal(
        (await request(`${g.origin}/mcp`, { body: '{}' })).status,
        404,
        '/mcp is not served there',
      );
    } finally {
      await g.close();
    }
  });
});

describe('the official SDK v1 client', () => {
  async function v1Client(transport: SdkTransport): Promise<{ client: V1Client; tap: SdkWireRecorder }> {
    const client = new V1Client(
      { name: 'sdk-v1', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} }, sampling: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (r) => ({
      action: 'accept',
      content: formAnswer((r.params as Obj).requestedSchema) as never,
    }));
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Echo' },
      model: 'sdk-model',
      stopReason: 'endTurn',
    }));
    const tap = new SdkWireRecorder(transport, LEGACY);
    await client.connect(tap as never);
    return { client, tap };
  }

  async function exerciseV1(client: V1Client, tap: SdkWireRecorder): Promise<void> {
    assert.equal(client.getServerVersion()?.name, 'mcpkit-everything');
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'json_schema_2020_12_tool'));
    const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
    assert.deepEqual(add.structuredContent, { sum: 4 });
    const progress: number[] = [];
    const from = tap.fromServer.length;
    await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    // All three travel before the result. The SDK handles notifications a microtask late, so
    // when the last one shares a chunk with the result it never reaches onprogress.
    assert.deepEqual(
      tap.fromServer.slice(from).map((m) => (m.method ? (m.params as Obj).progress : 'result')),
      [0, 50, 100, 'result'],
    );
    assert.deepEqual(progress.slice(0, 2), [0, 50]);
    const e = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } });
    assert.match(textOf(e), /username-value/);
    const s = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    assert.equal(textOf(s), 'LLM response: Echo');
    const read = await client.readResource({ uri: 'test://template/7/data' });
    assert.match(JSON.stringify(read.contents), /7/);
    const prompt = await client.getPrompt({ name: 'test_simple_prompt' });
    assert.ok(prompt.messages.length > 0);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(tap.notifications('notifications/message').length, 3);
    assert.deepEqual(tap.problems.server, [], 'every server message matches the schema');
  }

  test('on Streamable HTTP: everything, then DELETE', async () => {
    const transport = new V1StreamableHttp(new URL(f.url));
    const before = f.running.handler.sessionCount;
    const { client, tap } = await v1Client(transport as unknown as SdkTransport);
    try {
      assert.ok(transport.sessionId);
      assert.equal(f.running.handler.sessionCount, before + 1);
      await exerciseV1(client, tap);
      // The GET stream carries a runtime tool change.
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
      });
      await waitFor(() => {
        f.server.tool({ name: 'v1_probe' }, () => 'x').remove();
        return tap.notifications('notifications/tools/list_changed').length > 0;
      }, 3000);
      await changed;
      await transport.terminateSession();
      assert.equal(f.running.handler.sessionCount, before);
    } finally {
      await client.close();
    }
  });

  test('on HTTP+SSE (/sse and /messages)', async () => {
    const transport = new V1Sse(new URL(`${f.origin}/sse`));
    const { client, tap } = await v1Client(transport as unknown as SdkTransport);
    try {
      await exerciseV1(client, tap);
    } finally {
      await client.close();
    }
  });
});
