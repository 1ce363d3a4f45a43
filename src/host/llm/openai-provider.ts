/**
 * OpenAI-compatible chat completions through the official `openai` SDK, loaded on first
 * use. The same wire format is served by llama.cpp's server, vLLM, Ollama, LM Studio and
 * most proxies: point `baseURL` at them.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessageContentBlock,
} from '../../protocol/types/index.js';
import { importOptionalPeer } from '../../jsonrpc/optional-peer.js';
import { blocksOf, contentOf, sdkClientOptions } from './llm.js';
import type { CompleteOptions, LlmProvider, SdkProviderOptions } from './llm.js';

/**
 * Options of {@link OpenAiProvider}: `baseURL` defaults to `OPENAI_BASE_URL`; a local server
 * (a `baseURL` without `apiKey`) is sent a placeholder key.
 */
export interface OpenAiProviderOptions extends SdkProviderOptions {
  /** Which field carries maxTokens: `max_tokens` (default, what local servers read) or `max_completion_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

type ChatPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } };
type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

interface ChatCompletion {
  model?: string;
  choices?: Array<{
    message?: { content?: string | null; tool_calls?: ToolCall[] | null; refusal?: string | null };
    finish_reason?: string | null;
  }>;
}

interface ChatClient {
  chat: {
    completions: {
      create(body: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ChatCompletion>;
    };
  };
}

/** The text of tool-result content, for the `tool` message (chat completions take text there). */
function toolResultText(block: Extract<SamplingMessageContentBlock, { type: 'tool_result' }>): string {
  const parts = block.content.map((c) => {
    if (c.type === 'text') return c.text;
    if (c.type === 'resource')
      return 'text' in c.resource ? c.resource.text : `[binary resource ${c.resource.uri}]`;
    if (c.type === 'resource_link') return `[resource ${c.uri}]`;
    return `[${c.type} content omitted]`;
  });
  if (block.structuredContent !== undefined && parts.length === 0)
    parts.push(JSON.stringify(block.structuredContent));
  const text = parts.join('\n');
  return block.isError ? `Error: ${text}` : text;
}

/** MCP sampling messages → chat completions messages. */
export function toChatMessages(params: CreateMessageRequestParams): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (params.systemPrompt) out.push({ role: 'system', content: params.systemPrompt });
  for (const m of params.messages) {
    const blocks = blocksOf(m.content);
    if (m.role === 'assistant') {
      const text = blocks
        .filter((b) => b.type === 'text')
        .map((b) => (b as { text: string }).text)
        .join('');
      const calls: ToolCall[] = blocks
        .filter((b): b is Extract<SamplingMessageContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
        .map((b) => ({
          id: b.id,
          type: 'function',
          function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
        }));
      out.push({
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      continue;
    }
    const parts: ChatPart[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_result')
        out.push({ role: 'tool', tool_call_id: b.toolUseId, content: toolResultText(b) });
      else if (b.type === 'text') parts.push({ type: 'text', text: b.text });
      else if (b.type === 'image')
        parts.push({ type: 'image_url', image_url: { url: `data:${b.mimeType};base64,${b.data}` } });
      else if (b.type === 'audio') {
        parts.push({
          type: 'input_audio',
          input_audio: {
            data: b.data,
            format: b.mimeType.includes('mp3') || b.mimeType.includes('mpeg') ? 'mp3' : 'wav',
          },
        });
      }
    }
    if (parts.length === 0) continue;
    const onlyText = parts.every((p) => p.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? parts.map((p) => (p as { text: string }).text).join('\n') : parts,
    });
  }
  return out;
}

/** The request body for chat completions. */
export function toChatRequest(
  model: string,
  params: CreateMessageRequestParams,
  maxTokensField = 'max_tokens',
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: toChatMessages(params),
    [maxTokensField]: params.maxTokens,
  };
  if (params.temperature !== undefined) body.temperature = params.temperature;
  if (params.stopSequences?.length) body.stop = params.stopSequences;
  if (params.tools?.length) {
    body.tools = params.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.inputSchema,
      },
    }));
    const mode = params.toolChoice?.mode;
    if (mode) body.tool_choice = mode;
  }
  return body;
}

const STOP: Record<string, string> = {
  stop: 'endTurn',
  length: 'maxTokens',
  tool_calls: 'toolUse',
  function_call: 'toolUse',
};

/** A chat completion → an MCP sampling result. */
export function fromChatCompletion(completion: ChatCompletion, model: string): CreateMessageResult {
  const choice = completion.choices?.[0];
  if (!choice?.message) throw new Error('The chat completion has no choices');
  const blocks: SamplingMessageContentBlock[] = [];
  const text = choice.message.content ?? choice.message.refusal ?? '';
  if (text) blocks.push({ type: 'text', text });
  for (const call of choice.message.tool_calls ?? []) {
    let input: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(call.function.arguments || '{}');
      input =
        typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : { value: parsed };
    } catch {
      input = { _unparsedArguments: call.function.arguments };
    }
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  const reason = choice.finish_reason ?? 'stop';
  return {
    role: 'assistant',
    content: contentOf(blocks),
    model: completion.model ?? model,
    stopReason: STOP[reason] ?? reason,
  };
}

/**
 * Chat completions as an {@link LlmProvider}.
 *
 * @example
 * ```ts
 * const llama = new OpenAiProvider({ baseURL: 'http://127.0.0.1:8080/v1' });
 * const r = await llama.complete('qwen2.5-7b-instruct', {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }],
 *   maxTokens: 200,
 * });
 * ```
 */
export class OpenAiProvider implements LlmProvider {
  readonly name: string;
  private client: Promise<ChatClient> | undefined;

  constructor(private readonly options: OpenAiProviderOptions = {}) {
    this.name = options.name ?? 'openai';
  }

  async complete(
    model: string,
    params: CreateMessageRequestParams,
    options: CompleteOptions = {},
  ): Promise<CreateMessageResult> {
    const client = await this.sdk();
    const body = toChatRequest(model, params, this.options.maxTokensField);
    const completion = await client.chat.completions.create(
      body,
      options.signal ? { signal: options.signal } : undefined,
    );
    return fromChatCompletion(completion, model);
  }

  private sdk(): Promise<ChatClient> {
    this.client ??= importOptionalPeer('openai', 'The openai LLM provider', () => import('openai')).then(
      ({ default: OpenAI }) => {
        const o = this.options;
        return new OpenAI({
          // A local server needs no key; api.openai.com falls back to OPENAI_API_KEY.
          ...(o.apiKey !== undefined
            ? { apiKey: o.apiKey }
            : o.baseURL !== undefined
              ? { apiKey: 'not-needed' }
              : {}),
          ...sdkClientOptions(o),
        }) as unknown as ChatClient;
      },
    );
    return this.client;
  }
}
