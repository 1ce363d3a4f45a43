/**
 * The demo "everything" server in process, over the memory transport: every tool,
 * resource, template, prompt and completion the conformance suite calls, in the latest
 * legacy revision and in the modern era, plus version negotiation for every legacy
 * revision. Every message either side emits is checked against the official schema.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, inflateSync } from 'node:zlib';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { McpServer } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, OpenClientOptions, TestClient } from '../test-support/mcp-harness.js';
import { createEverythingServer } from './everything-server.js';
import { SKILL_URIS } from '../test-support/demo-cases.js';

const MODERN = '2026-07-28';

async function connect(
  server: McpServer,
  revision: string,
  options?: OpenClientOptions,
): Promise<TestClient> {
  const [clientSide, serverSide] = memoryPair();
  await server.connect(serverSide);
  return openClient(clientSide, revision, options);
}

/** Checks a PNG for real: signature, every chunk's CRC, and image data that inflates. */
function assertRealPng(base64: string): void {
  const png = Buffer.from(base64, 'base64');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const types: string[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    assert.equal(crc32(typeAndData), png.readUInt32BE(at + 8 + length), 'chunk CRC');
    types.push(typeAndData.toString('latin1', 0, 4));
    if (types.at(-1) === 'IDAT') assert.ok(inflateSync(typeAndData.subarray(4)).length > 0);
    at += 12 + length;
  }
  assert.deepEqual(types, ['IHDR', 'IDAT', 'IEND']);
}

const isWire = (code: number) => (e: unknown) => e instanceof WireError && e.code === code;
const content = (r: Obj) => r.content as Obj[];
const firstText = (r: Obj) => String(content(r)[0]?.text);

const CONFORMANCE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_error_handling',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'json_schema_2020_12_tool',
];

for (const revision of ['2025-11-25', MODERN]) {
  describe(`everything server in process, ${revision}`, () => {
    let server: McpServer;
    let client: TestClient;
    before(async () => {
      server = createEverythingServer({ stepMs: 5 });
      client = await connect(server, revision);
    });
    afterEach(() => client.tap.assertValid());
    after(async () => {
      await client.close();
      await server.close();
    });

    test('lists every conformance tool with a description and an object inputSchema', async () => {
      const { tools } = (await client.request('tools/list')) as { tools: Obj[] };
      const names = tools.map((t) => t.name);
      // test_reconnection is listed on every transport; its closeStream() only acts on legacy HTTP.
      for (const name of [...CONFORMANCE_TOOLS, 'add', 'echo', 'slow_count', 'test_reconnection']) {
        assert.ok(names.includes(name), `${name} is listed`);
      }
      for (const t of tools) {
        assert.equal(typeof t.description, 'string', `${String(t.name)} has a description`);
        assert.equal((t.inputSchema as Obj).type, 'object');
      }
      const json = tools.find((t) => t.name === 'json_schema_2020_12_tool');
      assert.deepEqual(json?.inputSchema, {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      });
      const add = tools.find((t) => t.name === 'add');
      assert.deepEqual(add?.outputSchema, {
        type: 'object',
        properties: { sum: { type: 'number' } },
        required: ['sum'],
      });
    });

    test('content tools: text, PNG image, WAV audio, embedded resource, mixed', async () => {
      assert.equal(
        firstText(await client.callTool('test_simple_text')),
        'This is a simple text response for testing.',
      );
      const [image] = content(await client.callTool('test_image_content'));
      assert.equal(image?.type, 'image');
      assert.equal(image?.mimeType, 'image/png');
      assertRealPng(String(image?.data));
      const [audio] = content(await client.callTool('test_audio_content'));
      assert.equal(audio?.type, 'audio');
      assert.equal(audio?.mimeType, 'audio/wav');
      const wav = Buffer.from(String(audio?.data), 'base64');
      assert.equal(wav.toString('latin1', 0, 4), 'RIFF');
      assert.equal(wav.toString('latin1', 8, 12), 'WAVE');
      assert.equal(wav.readUInt32LE(4), wav.length - 8, 'RIFF size matches');
      const [embedded] = content(await client.callTool('test_embedded_resource'));
      assert.deepEqual(embedded, {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      });
      const mixed = content(await client.callTool('test_multiple_content_types'));
      assert.deepEqual(
        mixed.map((c) => c.type),
        ['text', 'image', 'resource'],
      );
    });

    test('test_error_handling answers with an isError result, not a JSON-RPC error', async () => {
      const r = await client.callTool('test_error_handling');
      assert.equal(r.isError, true);
      assert.equal(firstText(r), 'This tool intentionally returns an error for testing');
    });

    test('test_sampling asks the client LLM with the prompt as user text, maxTokens 100', async () => {
      const r = await client.callTool('test_sampling', { prompt: 'What is 2+2?' });
      assert.equal(firstText(r), 'LLM response: Echo: What is 2+2?');
      const asked = client.script.questions('sampling/createMessage').at(-1);
      assert.deepEqual(asked?.messages, [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }]);
      assert.equal(asked?.maxTokens, 100);
      if (client.modern) assert.equal(client.rounds, 1, 'one input_required round');
      else assert.equal(client.tap.requestsFrom('server', 'sampling/createMessage').length, 1);
    });

    test('test_elicitation asks for username and email, both required', async () => {
      const r = await client.callTool('test_elicitation', { message: 'Who are you?' });
      const asked = client.script.questions('elicitation/create').at(-1);
      assert.equal(asked?.message, 'Who are you?');
      const schema = asked?.requestedSchema as Obj;
      assert.deepEqual(schema.required, ['username', 'email']);
      assert.deepEqual(Object.keys(schema.properties as Obj), ['username', 'email']);
      assert.match(firstText(r), /^User response: action=accept, content=\{"username":/);
    });

    test('a declined elicitation reaches the tool', async () => {
      client.script.elicitAction = 'decline';
      try {
        const r = await client.callTool('test_elicitation', { message: 'Again?' });
        assert.equal(firstText(r), 'User response: action=decline, content={}');
      } finally {
        client.script.elicitAction = 'accept';
      }
    });

    test('test_elicitation_sep1034_defaults sends a default for every field', async () => {
      const r = await client.callTool('test_elicitation_sep1034_defaults');
      const schema = client.script.questions('elicitation/create').at(-1)?.requestedSchema as Obj;
      const props = schema.properties as Record<string, Obj>;
      assert.deepEqual(Object.fromEntries(Object.entries(props).map(([k, p]) => [k, [p.type, p.default]])), {
        name: ['string', 'John Doe'],
        age: ['integer', 30],
        score: ['number', 95.5],
        status: ['string', 'active'],
        verified: ['boolean', true],
      });
      assert.deepEqual(props.status?.enum, ['active', 'inactive', 'pending']);
      assert.match(firstText(r), /^Elicitation completed: action=accept, content=\{"name":"John Doe"/);
    });

    test('test_elicitation_sep1330_enums sends all five enum shapes', async () => {
      await client.callTool('test_elicitation_sep1330_enums');
      const schema = client.script.questions('elicitation/create').at(-1)?.requestedSchema as Obj;
      const p = schema.properties as Record<string, Obj>;
      assert.deepEqual(p.untitledSingle?.enum, ['option1', 'option2', 'option3']);
      assert.equal(p.untitledSingle?.oneOf, undefined);
      assert.deepEqual((p.titledSingle?.oneOf as Obj[])[0], {
        const: 'value1',
        title: 'First Option',
      });
      assert.deepEqual(p.legacyEnum?.enumNames, ['Option One', 'Option Two', 'Option Three']);
      assert.deepEqual((p.untitledMulti?.items as Obj).enum, ['option1', 'option2', 'option3']);
      assert.equal(p.titledMulti?.type, 'array');
      assert.equal(((p.titledMulti?.items as Obj).anyOf as Obj[]).length, 3);
    });

    test('extras: add (structuredContent), echo, list_roots', async () => {
      const sum = await client.callTool('add', { a: 2, b: 3 });
      assert.deepEqual(sum.structuredContent, { sum: 5 });
      assert.equal(firstText(sum), '5');
      assert.equal(firstText(await client.callTool('echo', { text: 'héllo' })), 'héllo');
      const roots = await client.callTool('list_roots');
      assert.equal(firstText(roots), 'project: file:///home/user/project');
    });

    test('plan_trip asks the user, then the LLM, carrying the first answer along', async () => {
      const r = await client.callTool('plan_trip', { destination: 'Lisbon' });
      assert.equal(firstText(r), '3 days in Lisbon: Echo: Plan a 3-day trip to Lisbon.');
      assert.deepEqual(
        client.script.asked.slice(-2).map((a) => a.method),
        ['elicitation/create', 'sampling/createMessage'],
      );
      if (client.modern) assert.equal(client.rounds, 2, 'one round per question');
    });

    test('json_schema_2020_12_tool validates with its own schema', async () => {
      const ok = await client.callTool('json_schema_2020_12_tool', {
        name: 'Ada',
        address: { city: 'London' },
        email: 'ada@example.com',
      });
      assert.equal(ok.isError, undefined);
      // if/then/else: choosing the phone means giving one.
      const noPhone = await client.callTool('json_schema_2020_12_tool', {
        name: 'Ada',
        contactMethod: 'phone',
        email: 'ada@example.com',
      });
      assert.equal(noPhone.isError, true);
      const bad = await client.callTool('json_schema_2020_12_tool', { nickname: 'x' });
      assert.equal(bad.isError, true);
      assert.match(firstText(bad), /Invalid arguments/);
    });

    test('invalid arguments give an isError result; an unknown tool gives -32602', async () => {
      const r = await client.callTool('add', { a: 'two', b: 3 });
      assert.equal(r.isError, true);
      assert.match(firstText(r), /^Invalid arguments for tool add/);
      await assert.rejects(client.callTool('no_such_tool'), isWire(ErrorCode.InvalidParams));
    });

    test('resources: list, templates, static text, static binary, template, watched', async () => {
      const { resources } = (await client.request('resources/list')) as { resources: Obj[] };
      assert.deepEqual(resources.map((r) => r.uri).sort(), [
        ...SKILL_URIS,
        'test://static-binary',
        'test://static-text',
        'test://watched-resource',
        'ui://mcpkit-demo/counter.html',
      ]);
      for (const r of resources) assert.equal(typeof r.description, 'string');
      const { resourceTemplates } = (await client.request('resources/templates/list')) as {
        resourceTemplates: Obj[];
      };
      assert.deepEqual(
        resourceTemplates.map((t) => t.uriTemplate),
        ['test://template/{id}/data'],
      );
      const read = async (uri: string) =>
        ((await client.request('resources/read', { uri })).contents as Obj[])[0];
      assert.deepEqual(await read('test://static-text'), {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      });
      const bin = await read('test://static-binary');
      assert.equal(bin?.mimeType, 'image/png');
      assertRealPng(String(bin?.blob));
      const templated = await read('test://template/123/data');
      assert.equal(templated?.uri, 'test://template/123/data');
      assert.deepEqual(JSON.parse(String(templated?.text)), {
        id: '123',
        templateTest: true,
        data: 'Data for ID: 123',
      });
      assert.match(String((await read('test://watched-resource'))?.text), /Watched resource/);
    });

    test(`an unknown resource is ${revision === MODERN ? '-32602' : '-32002'}`, async () => {
      const code = client.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
      await assert.rejects(client.request('resources/read', { uri: 'test://nope' }), isWire(code));
    });

    test('prompts: list and get all four', async () => {
      const { prompts } = (await client.request('prompts/list')) as { prompts: Obj[] };
      assert.deepEqual(prompts.map((p) => p.name).sort(), [
        'release_notes',
        'test_input_required_result_prompt',
        'test_prompt_with_arguments',
        'test_prompt_with_embedded_resource',
        'test_prompt_with_image',
        'test_simple_prompt',
      ]);
      const get = async (name: string, args?: Obj) =>
        (await client.request('prompts/get', { name, ...(args ? { arguments: args } : {}) }))
          .messages as Obj[];
      assert.deepEqual(await get('test_simple_prompt'), [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ]);
      const withArgs = await get('test_prompt_with_arguments', { arg1: 'hello', arg2: 'world' });
      assert.equal((withArgs[0]?.content as Obj).text, "Prompt with arguments: arg1='hello', arg2='world'");
      const embedded = await get('test_prompt_with_embedded_resource', { resourceUri: 'test://x' });
      assert.deepEqual((embedded[0]?.content as Obj).resource, {
        uri: 'test://x',
        mimeType: 'text/plain',
        text: 'Embedded resource content for testing.',
      });
      const image = await get('test_prompt_with_image');
      assert.deepEqual(
        image.map((m) => (m.content as Obj).type),
        ['image', 'text'],
      );
      await assert.rejects(
        client.request('prompts/get', {
          name: 'test_prompt_with_arguments',
          arguments: { arg1: 'x' },
        }),
        isWire(ErrorCode.InvalidParams),
      );
    });

    test('completion: prompt argument arg1 and template variable id', async () => {
      const complete = async (ref: Obj, name: string, value: string) =>
        ((await client.request('completion/complete', { ref, argument: { name, value } })).completion as Obj)
          .values;
      const prompt = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
      assert.deepEqual(await complete(prompt, 'arg1', 'pa'), ['paris', 'park', 'party', 'pasta']);
      assert.deepEqual(await complete(prompt, 'arg2', 'pa'), []);
      const template = { type: 'ref/resource', uri: 'test://template/{id}/data' };
      assert.deepEqual(await complete(template, 'id', '4'), ['42']);
    });

    test('a cursor the server never made is -32602', async () => {
      for (const method of ['tools/list', 'resources/list', 'prompts/list']) {
        await assert.rejects(
          client.request(method, { cursor: 'not-a-cursor' }),
          isWire(ErrorCode.InvalidParams),
          method,
        );
      }
    });
  });
}
