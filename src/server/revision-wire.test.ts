/**
 * Per-revision wire shaping, end to end: a server that uses every field the newest
 * revision has (titles, icons, annotations, output schemas, audio, resource links,
 * structured content, progress messages) is served to a client of each revision. Every
 * message is validated against that revision's official schema by the harness tap, and
 * every result and progress notification is also checked for fields the revision lacks.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import { undefinedFields } from '../test-support/wire-fields.js';
import { McpServer } from './server.js';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
const icons = [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }];
const annotations = { audience: ['user' as const], priority: 0.5, lastModified: '2026-01-01T00:00:00Z' };
const AUDIO = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const RESULT_DEFINITIONS: Record<string, string> = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
};

function richServer(): McpServer {
  const server = new McpServer(
    { name: 'rich', version: '1.0.0', title: 'Rich server', description: 'Uses every field', icons },
    { logger: () => undefined },
  );
  server.tool(
    {
      name: 'everything',
      title: 'Everything',
      description: 'Returns every kind of content',
      inputJsonSchema: { type: 'object', properties: {} },
      outputJsonSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { title: 'Everything', readOnlyHint: true },
      icons,
      // Defined by 2025-11-25 only: older revisions and 2026-07-28 (tasks extension) lack it.
      execution: { taskSupport: 'forbidden' },
      _meta: { 'example.com/tool': 1 },
    },
    (_args, ctx) => {
      ctx.progress(1, 2, 'half way');
      return {
        content: [
          { type: 'text', text: 'hello', annotations },
          { type: 'audio', data: AUDIO, mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', title: 'A', icons },
          { type: 'resource', resource: { uri: 'file:///b.txt', text: 'B', _meta: { 'example.com/r': 1 } } },
        ],
        structuredContent: { sum: 3 },
      };
    },
  );
  server.resource(
    {
      uri: 'file:///a.txt',
      name: 'a.txt',
      title: 'A',
      mimeType: 'text/plain',
      icons,
      annotations,
      _meta: {},
    },
    (uri) => [{ uri, text: 'A', _meta: { 'example.com/r': 2 } }],
  );
  server.resourceTemplate({ uriTemplate: 'file:///{name}', name: 'files', title: 'Files', icons }, (uri) => [
    { uri, text: 'x' },
  ]);
  server.prompt(
    {
      name: 'listen',
      title: 'Listen',
      icons,
      arguments: [{ name: 'topic', title: 'Topic', required: true }],
    },
    () => ({
      messages: [
        { role: 'user', content: { type: 'audio', data: AUDIO, mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' } },
      ],
    }),
  );
  return server;
}

/** Every result the server sent, with the method it answered, and every progress notification. */
function sent(client: TestClient): { results: Array<[string, Obj]>; progress: Obj[] } {
  const methods = new Map(client.tap.requestsFrom('client').map((r) => [r.id, String(r.method)]));
  const results: Array<[string, Obj]> = [];
  const progress: Obj[] = [];
  for (const { from, message } of client.tap.entries) {
    if (from !== 'server') continue;
    if (message.method === 'notifications/progress') progress.push(message);
    else if (message.result !== undefined)
      results.push([methods.get(message.id) ?? '?', message.result as Obj]);
  }
  return { results, progress };
}

for (const revision of REVISIONS) {
  describe(`shaped for ${revision}`, () => {
    test('every result is valid and has no field the revision lacks', async () => {
      const server = richServer();
      const [a, b] = memoryPair();
      await server.connect(b);
      const client = await openClient(a, revision);
      await client.request('tools/list');
      const call = await client.request('tools/call', {
        name: 'everything',
        arguments: {},
        _meta: { progressToken: 7 },
      });
      await client.request('resources/list');
      await client.request('resources/templates/list');
      await client.request('resources/read', { uri: 'file:///a.txt' });
      await client.request('prompts/list');
      const prompt = await client.request('prompts/get', { name: 'listen', arguments: { topic: 'x' } });
      client.tap.assertValid();

      const { results, progress } = sent(client);
      const checked = new Set<string>();
      for (const [method, result] of results) {
        const definition = RESULT_DEFINITIONS[method];
        if (!definition) continue;
        checked.add(method);
        assert.deepEqual(undefinedFields(revision, definition, result), [], `${method} for ${revision}`);
      }
      const expected = Object.keys(RESULT_DEFINITIONS).filter((m) => m !== 'initialize' || revision < '2026');
      assert.deepEqual([...checked].sort(), expected.sort());
      assert.equal(progress.length, 1);
      const { method, params } = progress[0]!;
      assert.deepEqual(undefinedFields(revision, 'ProgressNotification', { method, params }), []);

      const tools = (results.find(([m]) => m === 'tools/list')![1].tools as Obj[])[0]!;
      assert.equal('execution' in tools, revision === '2025-11-25');
      const types = (call.content as Obj[]).map((c) => c.type);
      const promptTypes = (prompt.messages as Obj[]).map((m) => (m.content as Obj).type);
      if (revision === '2024-11-05') {
        // No audio, no links, no structured content: all kept as text.
        assert.deepEqual(types, ['text', 'text', 'text', 'resource', 'text']);
        assert.equal((call.content as Obj[])[4]!.text, '{"sum":3}');
        assert.deepEqual(promptTypes, ['text', 'text']);
        assert.equal((params as Obj).message, undefined);
      } else if (revision === '2025-03-26') {
        assert.deepEqual(types, ['text', 'audio', 'text', 'resource', 'text']);
        assert.deepEqual(promptTypes, ['audio', 'text']);
        assert.equal((params as Obj).message, 'half way');
      } else {
        assert.deepEqual(types, ['text', 'audio', 'resource_link', 'resource']);
        assert.deepEqual(call.structuredContent, { sum: 3 });
        assert.deepEqual(promptTypes, ['audio', 'resource_link']);
      }
      await client.close();
      await server.close();
    });
  });
}
