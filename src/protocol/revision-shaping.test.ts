/**
 * Per-revision shaping, unit level: results and notifications written with every field we
 * emit are shaped for each revision and then checked against that revision's official
 * schema, both by the validator and by the stricter "no field the revision lacks" walk.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateDefinition } from '../test-support/wire-schema.js';
import { undefinedFields } from '../test-support/wire-fields.js';
import { revisionNeedsShaping, shapeNotification, shapeResult } from './revision-shaping.js';

type Obj = Record<string, unknown>;

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
const MODERN = '2026-07-28';

const icons = [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }];
const annotations = { audience: ['user'], priority: 0.5, lastModified: '2026-01-01T00:00:00Z' };
const AUDIO = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const blocks = (): Obj[] => [
  { type: 'text', text: 'hello', annotations, _meta: { 'example.com/k': 1 } },
  { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  { type: 'audio', data: AUDIO, mimeType: 'audio/wav' },
  {
    type: 'resource_link',
    uri: 'file:///a.txt',
    name: 'a.txt',
    title: 'A',
    description: 'The A file',
    icons,
  },
  {
    type: 'resource',
    resource: { uri: 'file:///b.txt', mimeType: 'text/plain', text: 'B', _meta: { 'example.com/k': 2 } },
  },
];

/** For each method: the newest-revision value and the definition it is checked against. */
const RESULTS: Record<string, { definition: string; value: () => Obj }> = {
  initialize: {
    definition: 'InitializeResult',
    value: () => ({
      protocolVersion: '2025-11-25',
      capabilities: { logging: {}, completions: {}, tools: { listChanged: true }, tasks: { list: {} } },
      serverInfo: {
        name: 's',
        version: '1',
        title: 'S',
        description: 'A server',
        websiteUrl: 'https://example.com',
        icons,
      },
      instructions: 'Be kind',
    }),
  },
  'tools/list': {
    definition: 'ListToolsResult',
    value: () => ({
      tools: [
        {
          name: 'add',
          title: 'Add',
          description: 'Adds',
          inputSchema: { type: 'object', properties: { a: { type: 'number' } }, $defs: {} },
          outputSchema: { type: 'object', properties: { sum: { type: 'number' } } },
          annotations: { title: 'Add', readOnlyHint: true },
          icons,
          execution: { taskSupport: 'optional' },
          _meta: { 'example.com/k': true },
        },
      ],
    }),
  },
  'tools/call': {
    definition: 'CallToolResult',
    value: () => ({ content: blocks(), structuredContent: { sum: 3 }, isError: false }),
  },
  'resources/list': {
    definition: 'ListResourcesResult',
    value: () => ({
      resources: [
        {
          uri: 'file:///a',
          name: 'a',
          title: 'A',
          mimeType: 'text/plain',
          size: 3,
          annotations,
          icons,
          _meta: {},
        },
      ],
    }),
  },
  'resources/templates/list': {
    definition: 'ListResourceTemplatesResult',
    value: () => ({
      resourceTemplates: [
        { uriTemplate: 'file:///{x}', name: 'x', title: 'X', annotations, icons, _meta: {} },
      ],
    }),
  },
  'resources/read': {
    definition: 'ReadResourceResult',
    value: () => ({ contents: [{ uri: 'file:///a', text: 'A', _meta: { 'example.com/k': 1 } }] }),
  },
  'prompts/list': {
    definition: 'ListPromptsResult',
    value: () => ({
      prompts: [
        {
          name: 'p',
          title: 'P',
          icons,
          _meta: {},
          arguments: [{ name: 'x', title: 'X', description: 'd', required: true }],
        },
      ],
    }),
  },
  'prompts/get': {
    definition: 'GetPromptResult',
    value: () => ({ messages: blocks().map((content) => ({ role: 'user', content })) }),
  },
  'sampling/createMessage': {
    definition: 'CreateMessageResult',
    value: () => ({
      role: 'assistant',
      model: 'm',
      content: { type: 'audio', data: AUDIO, mimeType: 'audio/wav' },
    }),
  },
};

for (const revision of LEGACY) {
  describe(`shaping for ${revision}`, () => {
    for (const [method, { definition, value }] of Object.entries(RESULTS)) {
      test(`${method}: valid and nothing the revision lacks`, () => {
        const shaped = shapeResult(method, revision, value());
        assert.deepEqual(validateDefinition(revision, definition, shaped), []);
        assert.deepEqual(undefinedFields(revision, definition, shaped), []);
      });
    }

    test('notifications/progress: valid and nothing the revision lacks', () => {
      const params = shapeNotification('notifications/progress', revision, {
        progressToken: 1,
        progress: 1,
        total: 2,
        message: 'half way',
      });
      const notification = { jsonrpc: '2.0', method: 'notifications/progress', params };
      assert.deepEqual(validateDefinition(revision, 'ProgressNotification', notification), []);
      // The envelope's `jsonrpc` is outside the older definitions: check what the method carries.
      assert.deepEqual(
        undefinedFields(revision, 'ProgressNotification', { method: notification.method, params }),
        [],
      );
      assert.equal('message' in params, revision !== '2024-11-05');
    });
  });
}

describe('what shaping keeps', () => {
  test('the newest legacy revision passes through untouched, the same objects', () => {
    for (const revision of ['2025-11-25', undefined]) {
      assert.equal(revisionNeedsShaping(revision), false);
      for (const [method, { value }] of Object.entries(RESULTS)) {
        const v = value();
        assert.equal(shapeResult(method, revision, v), v, `${method} ${String(revision)}`);
      }
    }
  });

  test('2026-07-28: tools lose the execution field and capabilities the tasks key; the rest is untouched', () => {
    assert.equal(revisionNeedsShaping(MODERN), true);
    const tools = shapeResult('tools/list', MODERN, RESULTS['tools/list']!.value());
    assert.deepEqual(undefinedFields(MODERN, 'ListToolsResult', tools), []);
    assert.equal('execution' in (tools.tools as Obj[])[0]!, false);
    assert.deepEqual((tools.tools as Obj[])[0]!.icons, icons);
    const discover = shapeResult('server/discover', MODERN, {
      supportedVersions: [MODERN],
      capabilities: { tools: {}, tasks: { list: {} }, extensions: {} },
    });
    assert.deepEqual(discover.capabilities, { tools: {}, extensions: {} });
    for (const method of ['tools/call', 'resources/list', 'resources/read', 'prompts/list', 'prompts/get']) {
      const v = RESULTS[method]!.value();
      assert.equal(shapeResult(method, MODERN, v), v, method);
      assert.deepEqual(undefinedFields(MODERN, RESULTS[method]!.definition, v), [], method);
    }
  });

  test('a result with nothing to change is not copied', () => {
    const plain = {
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
      ],
    };
    assert.equal(shapeResult('tools/call', '2024-11-05', plain), plain);
    const tools = { tools: [{ name: 'a', inputSchema: { type: 'object' } }] };
    assert.equal(shapeResult('tools/list', '2024-11-05', tools), tools);
  });

  test('without shaping, 2024-11-05 would see fields it lacks (the check can fail)', () => {
    assert.deepEqual(
      undefinedFields('2024-11-05', 'ListToolsResult', RESULTS['tools/list']!.value()).sort(),
      [
        'tools[0]._meta',
        'tools[0].annotations',
        'tools[0].execution',
        'tools[0].icons',
        'tools[0].outputSchema',
        'tools[0].title',
      ],
    );
    const call = undefinedFields('2024-11-05', 'CallToolResult', RESULTS['tools/call']!.value());
    assert.ok(call.includes('structuredContent'), call.join());
    assert.ok(
      call.some((p) => p.startsWith('content[2]')),
      call.join(),
    );
  });

  test('2024-11-05: audio and resource links become text; structured content is kept as JSON text', () => {
    const shaped = shapeResult('tools/call', '2024-11-05', RESULTS['tools/call']!.value());
    const content = shaped.content as Obj[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'image', 'text', 'text', 'resource', 'text'],
    );
    assert.match(String(content[2]!.text), /audio content \(audio\/wav, \d+ bytes\) omitted/);
    assert.equal(content[3]!.text, '[resource a.txt at file:///a.txt: The A file]');
    assert.equal(content[5]!.text, '{"sum":3}');
    assert.equal('structuredContent' in shaped, false);
    // Annotations exist in 2024-11-05, lastModified does not.
    assert.deepEqual(content[0]!.annotations, { audience: ['user'], priority: 0.5 });
  });

  test('structured content already present as text is not repeated', () => {
    const shaped = shapeResult('tools/call', '2025-03-26', {
      content: [{ type: 'text', text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    assert.deepEqual(shaped, { content: [{ type: 'text', text: '{"sum":3}' }] });
  });

  test('2025-06-18 keeps structured content, titles and links, and drops icons and execution', () => {
    const call = shapeResult('tools/call', '2025-06-18', RESULTS['tools/call']!.value());
    assert.deepEqual(call.structuredContent, { sum: 3 });
    assert.equal((call.content as Obj[])[3]!.type, 'resource_link');
    const tool = (shapeResult('tools/list', '2025-06-18', RESULTS['tools/list']!.value()).tools as Obj[])[0]!;
    assert.deepEqual(Object.keys(tool).sort(), [
      '_meta',
      'annotations',
      'description',
      'inputSchema',
      'name',
      'outputSchema',
      'title',
    ]);
  });

  test('a handler result is never modified in place', () => {
    const value = RESULTS['tools/list']!.value();
    const before = JSON.stringify(value);
    shapeResult('tools/list', '2024-11-05', value);
    assert.equal(JSON.stringify(value), before);
  });
});
