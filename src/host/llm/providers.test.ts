/**
 * The OpenAI-compatible and Anthropic providers, through the vendors' official SDKs,
 * against a local HTTP server that speaks both wire formats (started by the test).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CreateMessageRequestParams } from '../../protocol/types/index.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { OpenAiProvider } from './openai-provider.js';

type Obj = Record<string, unknown>;
const seen: Array<{ path: string; headers: Obj; body: Obj }> = [];
let base = '';

/** Answers like the real APIs do: a tool call when tools are offered and none was answered yet, else text. */
function reply(path: string, body: Obj): Obj {
  const messages = body.messages as Obj[];
  if (path === '/v1/chat/completions') {
    const answered = messages.some((m) => m.role === 'tool');
    if (body.tools && !answered) {
      return {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'local-model',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
                },
              ],
            },
          },
        ],
      };
    }
    return {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      model: 'local-model',
      choices: [
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'It is sunny in Oslo.' } },
      ],
    };
  }
  const answered = messages.some(
    (m) => Array.isArray(m.content) && (m.content as Obj[]).some((b) => b.type === 'tool_result'),
  );
  if (body.tools && !answered) {
    return {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  }
  return {
    id: 'msg_2',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    stop_reason: 'end_turn',
    content: [{ type: 'text', text: 'It is sunny in Oslo.' }],
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

const server = createServer((req, res) => {
  let data = '';
  req.on('data', (c: Buffer) => (data += c.toString()));
  req.on('end', () => {
    const body = JSON.parse(data || '{}') as Obj;
    const path = req.url ?? '';
    seen.push({ path, headers: req.headers as Obj, body });
    if (path !== '/v1/chat/completions' && path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply(path, body)));
  });
});

const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

function conversation(): CreateMessageRequestParams {
  return {
    systemPrompt: 'Be brief.',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Oslo?' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_0', name: 'get_weather', input: { city: 'Bergen' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'call_0', content: [{ type: 'text', text: 'Rain' }] }],
      },
    ],
    tools: [WEATHER],
    toolChoice: { mode: 'required' },
    maxTokens: 64,
    temperature: 0.2,
    stopSequences: ['END'],
  };
}

describe('LLM providers over their real SDKs, against a local server', () => {
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('OpenAI-compatible chat completions: messages, images, tool calls and results, stop reasons', async () => {
    const llm = new OpenAiProvider({ baseURL: `${base}/v1`, apiKey: 'local-key', maxRetries: 0 });
    const first = await llm.complete('local-model', {
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }],
      tools: [WEATHER],
      maxTokens: 50,
    });
    assert.deepEqual(first, {
      role: 'assistant',
      content: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
      model: 'local-model',
      stopReason: 'toolUse',
    });
    const second = await llm.complete('local-model', conversation());
    assert.deepEqual(second.content, { type: 'text', text: 'It is sunny in Oslo.' });
    assert.equal(second.stopReason, 'endTurn');
    const req = seen.at(-1)!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, 'Bearer local-key');
    assert.deepEqual(req.body.messages, [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Oslo?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Bergen"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: 'Rain' },
    ]);
    assert.deepEqual(req.body.tools, [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: WEATHER.inputSchema,
        },
      },
    ]);
    assert.equal(req.body.tool_choice, 'required');
    assert.equal(req.body.max_tokens, 64);
    assert.equal(req.body.temperature, 0.2);
    assert.deepEqual(req.body.stop, ['END']);
  });

  test('Anthropic Messages: system, blocks, tool_use and tool_result, tool_choice, stop reasons', async () => {
    const llm = new AnthropicProvider({ baseURL: base, apiKey: 'sk-ant-test', maxRetries: 0 });
    const first = await llm.complete('claude-test', {
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }],
      tools: [WEATHER],
      maxTokens: 50,
    });
    assert.deepEqual(first, {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
      model: 'claude-test',
      stopReason: 'toolUse',
    });
    const second = await llm.complete('claude-test', conversation());
    assert.deepEqual(second.content, { type: 'text', text: 'It is sunny in Oslo.' });
    assert.equal(second.stopReason, 'endTurn');
    const req = seen.at(-1)!;
    assert.equal(req.path, '/v1/messages');
    // Older SDKs send x-api-key, newer ones a bearer token: either carries our key.
    assert.ok(
      req.headers['x-api-key'] === 'sk-ant-test' || req.headers.authorization === 'Bearer sk-ant-test',
    );
    assert.ok(typeof req.headers['anthropic-version'] === 'string');
    assert.equal(req.body.system, 'Be brief.');
    assert.deepEqual(req.body.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Oslo?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_0', name: 'get_weather', input: { city: 'Bergen' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_0', content: [{ type: 'text', text: 'Rain' }] }],
      },
    ]);
    assert.deepEqual(req.body.tools, [
      { name: 'get_weather', description: 'The weather in a city', input_schema: WEATHER.inputSchema },
    ]);
    assert.deepEqual(req.body.tool_choice, { type: 'any' });
    assert.deepEqual(req.body.stop_sequences, ['END']);
  });

  test('an API error reaches the caller with its message', async () => {
    const llm = new OpenAiProvider({ baseURL: `${base}/nope`, apiKey: 'k', maxRetries: 0 });
    await assert.rejects(llm.complete('m', { messages: [], maxTokens: 1 }), /404/);
  });
});
