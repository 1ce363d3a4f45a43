/**
 * Interop: our client against the official `@modelcontextprotocol/server-everything`
 * (built on the TypeScript SDK v1, legacy era only), as a real child process over stdio.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Progress } from '../session/options.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { Client } from './client.js';
import { collect } from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import type { ElicitRequestParams } from '../protocol/types/index.js';
import { WAIT_MS, waitFor, within } from '../test-support/waiting.js';

const SERVER = fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js'));

function spawnEverything(): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, 'stdio'],
    stderr: 'ignore',
    closeGraceMs: 500,
  });
}

/** Arguments for every tool we call; tools not listed here are skipped on purpose. */
const TINY_GZIP_SOURCE = `data:text/plain;base64,${Buffer.from('hello mcpkit').toString('base64')}`;
const ARGS: Record<string, Obj> = {
  echo: { message: 'hello' },
  'get-annotated-message': { messageType: 'success', includeImage: true },
  'get-env': {},
  'get-resource-links': { count: 2 },
  'get-resource-reference': { resourceType: 'Text', resourceId: 1 },
  'get-structured-content': { location: 'Chicago' },
  'get-sum': { a: 2, b: 40 },
  'get-tiny-image': {},
  'gzip-file-as-resource': { name: 'hello.gz', data: TINY_GZIP_SOURCE, outputType: 'resource' },
  'toggle-simulated-logging': {},
  'toggle-subscriber-updates': {},
  'trigger-long-running-operation': { duration: 0.3, steps: 3 },
  'get-roots-list': {},
  'trigger-elicitation-request': {},
  'trigger-url-elicitation': { url: 'https://example.com/consent', message: 'Open it' },
  'trigger-sampling-request': { prompt: 'Say hi', maxTokens: 5 },
};
/** Tools we cannot drive, and why. */
const SKIPPED: Record<string, string> = {
  'simulate-research-query':
    'taskSupport "required": needs task-augmented tools/call (the 2025-11-25 tasks feature, an extension from 2026-07-28)',
  'trigger-sampling-request-async': 'registered only for clients declaring tasks.requests.sampling',
  'trigger-elicitation-request-async': 'registered only for clients declaring tasks.requests.elicitation',
};

describe('interop: server-everything (SDK v1) over stdio', () => {
  const elicited: ElicitRequestParams[] = [];
  const sampled: unknown[] = [];
  const notifications: string[] = [];
  let client: Client;

  before(async () => {
    client = new Client(
      { name: 'mcpkit-interop', version: '0.0.1' },
      {
        timeoutMs: 10_000,
        // A probe that could only end by timing out would hold connect() for ten minutes and
        // fail the test by its bound below: the fallback must come from the server's answer.
        probeTimeoutMs: 600_000,
        handlers: {
          sampling: async (params) => {
            sampled.push(params);
            return {
              role: 'assistant',
              content: { type: 'text', text: 'Hi from the test' },
              model: 'test-model',
              stopReason: 'endTurn',
            };
          },
          elicitation: {
            handler: async (params) => {
              elicited.push(params);
              // Only the required field: the rest must come from the schema defaults.
              return params.mode === 'url'
                ? { action: 'accept' }
                : { action: 'accept', content: { name: 'Ada Lovelace' } };
            },
            url: true,
          },
          roots: [{ uri: 'file:///tmp/mcpkit-interop', name: 'interop' }],
        },
        logger: () => undefined,
      },
    );
    client.onnotification = (n) => notifications.push(n.method);
    await within(client.connect(spawnEverything()), 60_000, 'connect (era auto)');
  });

  after(async () => {
    await client?.close();
  });

  test('era auto falls back to legacy', () => {
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
    assert.ok(client.serverCapabilities?.tools);
    assert.ok(typeof client.instructions === 'string' && client.instructions.length > 0);
  });

  test('lists and calls every tool it can', async () => {
    const tools = await collect(client.tools());
    const names = tools.map((t) => t.name);
    for (const name of names) {
      if (SKIPPED[name]) continue;
      assert.ok(ARGS[name], `no arguments prepared for new tool ${name}`);
    }
    const progress: Progress[] = [];
    for (const name of names) {
      if (SKIPPED[name]) continue;
      const options =
        name === 'trigger-long-running-operation' ? { onprogress: (p: Progress) => progress.push(p) } : {};
      const r = await client.callTool({ name, arguments: ARGS[name]! }, options);
      assert.ok(Array.isArray(r.content), name);
      assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content).slice(0, 200)}`);
      if (name === 'toggle-simulated-logging' || name === 'toggle-subscriber-updates') {
        await client.callTool({ name, arguments: {} }); // switch it off again
      }
    }
    assert.ok(progress.length >= 2, 'long-running operation reported progress');
    // The structured tool's output was validated against its draft-07 outputSchema.
    const weather = await client.callTool({
      name: 'get-structured-content',
      arguments: { location: 'New York' },
    });
    assert.equal(typeof (weather.structuredContent as Obj).temperature, 'number');
    assert.equal(
      await client
        .callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } })
        .then((r) => (r.content[0] as { text: string }).text.includes('42')),
      true,
    );
  });

  test('answers its sampling and elicitation requests, with form defaults applied', async () => {
    sampled.length = 0;
    elicited.length = 0;
    const s = await client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'Say hi', maxTokens: 5 },
    });
    assert.equal(sampled.length, 1);
    assert.match(JSON.stringify(s.content), /Hi from the test/);
    const e = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    assert.equal(elicited.length, 1);
    const text = JSON.stringify(e.content);
    assert.match(text, /Ada Lovelace/);
    const props = (elicited[0] as { requestedSchema: { properties: Record<string, { default?: unknown }> } })
      .requestedSchema.properties;
    const withDefaults = Object.entries(props).filter(([, p]) => p.default !== undefined);
    assert.ok(withDefaults.length > 0, 'the server sends defaults');
    for (const [key] of withDefaults)
      assert.match(text, new RegExp(`\\\\"${key}\\\\"`), `default for ${key} was sent back`);
    const url = await client.callTool({
      name: 'trigger-url-elicitation',
      arguments: { url: 'https://example.com/x' },
    });
    assert.match(JSON.stringify(url.content), /completed the URL elicitation/);
  });

  test('the legacy -32042 URL-elicitation error path surfaces as a WireError', async () => {
    await assert.rejects(
      client.callTool({
        name: 'trigger-url-elicitation',
        arguments: { url: 'https://example.com/y', errorPath: true },
      }),
      (e: unknown) =>
        e instanceof WireError && e.code === -32042 && Array.isArray((e.data as Obj).elicitations),
    );
  });

  test('reads every resource and template, gets every prompt, completes arguments', async () => {
    const resources = await collect(client.resources());
    assert.ok(resources.length >= 2);
    for (const r of resources) {
      const read = await client.readResource({ uri: r.uri });
      assert.ok(read.contents.length > 0, r.uri);
    }
    for (const uri of ['demo://resource/dynamic/text/1', 'demo://resource/dynamic/blob/2']) {
      assert.ok((await client.readResource({ uri })).contents.length > 0);
    }
    const templates = await collect(client.resourceTemplates());
    assert.ok(templates.length >= 2);
    const promptArgs: Record<string, Record<string, string>> = {
      'simple-prompt': {},
      'args-prompt': { city: 'Oslo', state: 'N/A' },
      'completable-prompt': { department: 'Engineering', name: 'Alice' },
      'resource-prompt': { resourceType: 'Text', resourceId: '1' },
    };
    for (const p of await collect(client.prompts())) {
      const got = await client.getPrompt({ name: p.name, arguments: promptArgs[p.name] ?? {} });
      assert.ok(got.messages.length > 0, p.name);
    }
    const c = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    assert.deepEqual(c.completion.values, ['Engineering']);
    const c2 = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    assert.deepEqual(c2.completion.values, ['David', 'Eve', 'Frank']);
  });

  test('subscriptions, logging level, ping and roots', async () => {
    await client.ping();
    await client.setLoggingLevel('debug');
    const sub = await client.subscribe({
      resourcesListChanged: true,
      resources: ['demo://resource/static/document/architecture.md'],
    });
    assert.deepEqual(sub.acknowledged.resourcesListChanged, true);
    // Making a session resource changes the resource list.
    await client.callTool({
      name: 'gzip-file-as-resource',
      arguments: { name: 'again.gz', data: TINY_GZIP_SOURCE, outputType: 'resourceLink' },
    });
    const it = sub[Symbol.asyncIterator]();
    const first = await within(it.next(), WAIT_MS, 'a resources/list_changed event');
    assert.deepEqual(first.value, { kind: 'resources' });
    await sub.close();
    notifications.length = 0;
    await client.setRoots([{ uri: 'file:///tmp/other', name: 'other' }]);
    // The server refetches the roots when told they changed, then logs it.
    await waitFor(() => notifications.includes('notifications/message'), WAIT_MS, 'the log line');
    const roots = await client.callTool({ name: 'get-roots-list', arguments: {} });
    assert.match(JSON.stringify(roots.content), /file:\/\/\/tmp\/other/);
  });

  test('era modern against this legacy-only server fails with a clear VersionMismatch', async () => {
    const modern = new Client(
      { name: 'mcpkit-interop', version: '0.0.1' },
      { era: 'modern', logger: () => undefined },
    );
    await assert.rejects(
      modern.connect(spawnEverything()),
      (e: unknown) => e instanceof LocalError && e.code === 'VersionMismatch',
    );
    assert.equal(modern.isConnected, false);
  });

  test('skipped tools, and why', () => {
    // Recorded so the reason shows up in the test output.
    for (const [name, why] of Object.entries(SKIPPED)) assert.ok(why.length > 0, name);
  });
});
