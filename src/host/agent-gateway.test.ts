/**
 * The host's agent loop over several real servers, and the gateway: the aggregated
 * catalog served as one MCP server over Streamable HTTP and over stdio, plus the
 * stdio→HTTP and HTTP→stdio bridges, each checked with a real client.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../client/index.js';
import { createEverythingServer } from '../demo/everything-server.js';
import type { CreateMessageRequestParams, Tool } from '../protocol/types/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { Agent } from './llm/agent.js';
import type { AgentStep } from './llm/agent.js';
import { bridge } from './serve/bridge.js';
import { Gateway, gatewayUri } from './serve/gateway.js';
import type { Host } from './host.js';
import { ScriptedProvider, textAnswer } from './llm/llm.js';
import {
  EVERYTHING,
  FILESYSTEM,
  NODE,
  OURS,
  makeHost,
  nodeServer,
  tempDir,
} from '../test-support/host-harness.js';
import { ScriptedUi } from './ui/ui.js';
import { waitFor } from '../test-support/waiting.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/gateway-stdio.js', import.meta.url));
const CLIENT = { name: 'gateway-test', version: '1.0.0' };
const text = (r: { content: Array<{ type: string; text?: string }> }): string =>
  r.content.map((c) => c.text ?? `[${c.type}]`).join('');
const uses = (...calls: Array<[string, Record<string, unknown>]>) => ({
  role: 'assistant' as const,
  content: calls.map(([name, input], i) => ({ type: 'tool_use' as const, id: `u${i}_${name}`, name, input })),
  model: '',
  stopReason: 'toolUse',
});

describe('agent loop and gateway over real servers', () => {
  let web: RunningServer;
  let host: Host;
  const dir = tempDir();
  const file = join(dir, 'todo.txt');

  before(async () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(file, 'buy milk');
    web = await serve(createEverythingServer({ stepMs: 5 }), { port: 0 });
    ({ host } = makeHost({
      files: nodeServer(FILESYSTEM, [dir], {
        era: 'legacy',
        policy: { default: 'allow', tools: { write_file: 'deny' } },
      }),
      ours: nodeServer(OURS),
      web: { url: web.url, policy: { default: 'allow', tools: { echo: 'deny' } } },
    }));
    await host.start();
  });

  after(async () => {
    await host.close();
    await web.close();
  });

  test('the agent: user message → the LLM picks tools → policy → calls → results fed back → answer', async () => {
    const llm = new ScriptedProvider([
      uses(['files__read_text_file', { path: file }]),
      uses(
        ['ours__add', { a: 2, b: 3 }],
        ['web__echo', { text: 'hi' }],
        ['files__write_file', { path: file, content: 'x' }],
        ['made_up', {}],
      ),
      (_model: string, params: CreateMessageRequestParams) =>
        textAnswer(`Done: ${params.messages.length} messages`),
    ]);
    const steps: AgentStep[] = [];
    const agent = new Agent(host, {
      system: 'Use the tools.',
      provider: llm,
      model: 'scripted',
      onStep: (s) => steps.push(s),
    });
    const result = await agent.run('What is on my todo list, and what is 2 + 3?');
    assert.deepEqual(result, { text: 'Done: 5 messages', stopReason: 'endTurn', turns: 3 });
    const offered = (llm.requests[0]!.params.tools ?? []).map((t: Tool) => t.name);
    for (const name of ['files__read_text_file', 'ours__add', 'web__echo'])
      assert.ok(offered.includes(name), name);
    assert.equal(llm.requests[0]!.params.systemPrompt, 'Use the tools.');
    const second = llm.requests[1]!.params.messages;
    assert.deepEqual(second[2], {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'u0_files__read_text_file',
          content: [{ type: 'text', text: 'buy milk' }],
          structuredContent: { content: 'buy milk' },
        },
      ],
    });
    const tools = steps.filter((s): s is Extract<AgentStep, { type: 'tool' }> => s.type === 'tool');
    assert.deepEqual(
      tools.map((s) => [s.name, s.ok, s.text]),
      [
        ['files__read_text_file', true, 'buy milk'],
        ['ours__add', true, '5'],
        ['web__echo', false, 'The host refused: The policy denies "echo" on "web" (tool-rule)'],
        [
          'files__write_file',
          false,
          'The host refused: The policy denies "write_file" on "files" (tool-rule)',
        ],
        ['made_up', false, 'The tool made_up is not available'],
      ],
    );
  });

  test('gateway over Streamable HTTP: one endpoint, aliased names, the policy applied, changes pushed', async () => {
    const gateway = new Gateway(host);
    const running = await gateway.serveHttp();
    let changed: Tool[] | undefined;
    const client = new Client(CLIENT, { autoRefreshTools: true, ontoolschanged: (t) => (changed = t) });
    try {
      await client.connect(new StreamableHttpClientTransport({ url: running.url }));
      const names: string[] = [];
      for await (const t of client.tools()) names.push(t.name);
      for (const n of ['files__read_text_file', 'ours__echo', 'web__echo', 'ours__add'])
        assert.ok(names.includes(n), n);
      assert.equal(
        text(await client.callTool({ name: 'ours__echo', arguments: { text: 'via gateway' } })),
        'via gateway',
      );
      const add = await client.callTool({ name: 'ours__add', arguments: { a: 20, b: 22 } });
      assert.deepEqual(add.structuredContent, { sum: 42 });
      const denied = await client.callTool({ name: 'web__echo', arguments: { text: 'no' } });
      assert.equal(denied.isError, true);
      assert.equal(text(denied), 'Refused by the host: The policy denies "echo" on "web" (tool-rule)');
      // ours and web are both our demo server: their resource URIs collide and get per-server URIs.
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      const shared = gatewayUri('ours', 'test://static-text');
      assert.ok(
        uris.includes(shared) && uris.includes(gatewayUri('web', 'test://static-text')),
        uris.join(' '),
      );
      const read = await client.readResource({ uri: shared });
      assert.equal(
        (read.contents[0] as { text?: string }).text,
        'This is the content of the static text resource.',
      );
      const prompt = (await client.listPrompts()).prompts.find((p) => p.name === 'web__test_simple_prompt');
      assert.ok(prompt);
      assert.ok((await client.getPrompt({ name: 'web__test_simple_prompt' })).messages.length > 0);
      await client.callTool({ name: 'ours__toggle_bonus_tool', arguments: {} });
      await waitFor(
        () => changed?.some((t) => t.name === 'ours__bonus_tool'),
        5000,
        'the gateway to announce bonus_tool',
      );
      await client.callTool({ name: 'ours__toggle_bonus_tool', arguments: {} });
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  test('gateway over stdio: a child process fronting ours and the official server-everything', async () => {
    const config = join(dir, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          ours: { command: NODE, args: [OURS], policy: { default: 'allow' } },
          everything: {
            command: NODE,
            args: [EVERYTHING, 'stdio'],
            era: 'legacy',
            policy: { default: 'allow' },
          },
        },
      }),
    );
    const client = new Client(CLIENT);
    try {
      await client.connect(
        new StdioClientTransport({ command: NODE, args: [FIXTURE, 'gateway', config], stderr: 'ignore' }),
      );
      const names: string[] = [];
      for await (const t of client.tools()) names.push(t.name);
      assert.ok(
        names.includes('ours__echo') &&
          names.includes('everything__echo') &&
          names.includes('everything__get-sum'),
      );
      assert.match(
        text(await client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })),
        /3/,
      );
    } finally {
      await client.close();
    }
  });

  test('bridges: a stdio server served over HTTP, and an HTTP server served over stdio', async () => {
    const toHttp = await bridge(
      { command: NODE, args: [OURS] },
      { to: 'http', ui: new ScriptedUi({ confirmCommand: true }) },
    );
    const overHttp = new Client(CLIENT);
    const overStdio = new Client(CLIENT);
    try {
      await overHttp.connect(new StreamableHttpClientTransport({ url: toHttp.url! }));
      assert.equal(overHttp.serverInfo?.name, 'bridge:mcpkit-everything');
      assert.equal(
        text(await overHttp.callTool({ name: 'echo', arguments: { text: 'stdio→http' } })),
        'stdio→http',
      );
      await overStdio.connect(
        new StdioClientTransport({ command: NODE, args: [FIXTURE, 'bridge', web.url], stderr: 'ignore' }),
      );
      assert.equal(
        text(await overStdio.callTool({ name: 'echo', arguments: { text: 'http→stdio' } })),
        'http→stdio',
      );
    } finally {
      await overHttp.close();
      await overStdio.close();
      await toHttp.close();
    }
  });
});
