/**
 * Interop: our client against a small server built with the official TypeScript SDK v2
 * (`@modelcontextprotocol/server`, `serveStdio`), which speaks both eras, as a real child
 * process over stdio. The fixture is plain .mjs, outside the compiled tree.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { LocalError } from '../jsonrpc/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { Client } from './client.js';
import { collect } from '../test-support/client-harness.js';
import type { EraPreference } from './types.js';
import type { Tool } from '../protocol/types/index.js';
import { WAIT_MS, waitFor, within } from '../test-support/waiting.js';

const FIXTURE = fileURLToPath(new URL('../../src/client/fixtures/sdk-v2-server.mjs', import.meta.url));

function textOf(r: { content: unknown[] }): string {
  return (r.content[0] as { text: string }).text;
}

const cases: Array<[EraPreference, 'legacy' | 'modern']> = [
  ['auto', 'modern'],
  ['modern', 'modern'],
  ['legacy', 'legacy'],
];

for (const [preference, expected] of cases) {
  describe(`interop: SDK v2 server over stdio, era ${preference}`, () => {
    let client: Client;
    const toolLists: Tool[][] = [];

    before(async () => {
      client = new Client(
        { name: 'mcpkit-interop', version: '0.0.1' },
        {
          era: preference,
          timeoutMs: 10_000,
          autoRefreshTools: true,
          ontoolschanged: (tools) => toolLists.push(tools),
          handlers: {
            elicitation: async () => ({ action: 'accept', content: { confirm: true } }),
            sampling: async (params) => ({
              role: 'assistant',
              content: {
                type: 'text',
                text: `answer to ${JSON.stringify(params.messages[0]?.content)}`,
              },
              model: 'test-model',
            }),
            roots: [{ uri: 'file:///srv/data', name: 'data' }],
          },
          logger: () => undefined,
        },
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [FIXTURE],
          stderr: 'ignore',
          closeGraceMs: 500,
        }),
      );
    });

    after(async () => {
      await client?.close();
    });

    test(`negotiates the ${expected} era`, () => {
      assert.equal(client.era, expected);
      assert.equal(client.protocolVersion, expected === 'modern' ? '2026-07-28' : '2025-11-25');
      assert.equal(client.serverInfo?.name, 'sdk-v2-fixture');
      assert.equal(client.instructions, 'A test server.');
    });

    test('tools: list, call, and output validation against a 2020-12 schema', async () => {
      const names = (await collect(client.tools())).map((t) => t.name);
      assert.deepEqual(names.sort(), ['add', 'add-tool', 'ask-llm', 'deploy']);
      const r = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
      assert.deepEqual(r.structuredContent, { sum: 42 });
      assert.equal(textOf(r), '42');
    });

    test('elicitation through MRTR (modern) or the SDK legacy shim, with form defaults', async () => {
      const r = await client.callTool({ name: 'deploy', arguments: { env: 'prod' } });
      assert.equal(textOf(r), 'deployed prod (none)');
    });

    test('sampling and roots in one round', async () => {
      const r = await client.callTool({ name: 'ask-llm', arguments: { q: 'why?' } });
      assert.match(textOf(r), /^answer to .*why\?.* \/ file:\/\/\/srv\/data$/);
    });

    test('resources, prompts and caching', async () => {
      const first = await client.readResource({ uri: 'config://app' });
      const second = await client.readResource({ uri: 'config://app' });
      if (expected === 'modern') {
        assert.equal(first.ttlMs, 60_000);
        assert.deepEqual(second, first, 'served from the cache while fresh');
      } else {
        assert.notDeepEqual(second, first, 'no cache hints in the legacy era');
      }
      const p = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
      assert.deepEqual(p.messages[0]!.content, { type: 'text', text: 'Hello Ada' });
    });

    test('subscriptions and automatic tool refresh see a tool added at runtime', async () => {
      const sub = await client.subscribe({ toolsListChanged: true });
      assert.deepEqual(sub.acknowledged, { toolsListChanged: true });
      const before = toolLists.length;
      await client.callTool({ name: 'add-tool', arguments: { name: 'late-tool' } });
      const event = await within(sub[Symbol.asyncIterator]().next(), WAIT_MS, 'tools/list_changed');
      assert.deepEqual(event.value, { kind: 'tools' });
      await waitFor(() => toolLists.length !== before, WAIT_MS, 'the refreshed tool list');
      assert.ok(toolLists.at(-1)!.some((t) => t.name === 'late-tool'));
      // The cached list was invalidated: a fresh listing has the new tool.
      assert.ok((await collect(client.tools())).some((t) => t.name === 'late-tool'));
      await sub.close();
    });

    test('discover, ping and logging level', async () => {
      const d = await client.discover();
      assert.ok(d.supportedVersions.includes(client.protocolVersion!));
      await client.setLoggingLevel('info');
      if (expected === 'legacy') await client.ping();
      else
        await assert.rejects(
          client.ping(),
          (e: unknown) => e instanceof LocalError && e.code === 'CapabilityNotSupported',
        );
      assert.equal(
        (await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).structuredContent !== undefined,
        true,
      );
    });
  });
}
