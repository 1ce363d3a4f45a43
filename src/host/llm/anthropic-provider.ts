/**
 * Anthropic Messages through the official `@anthropic-ai/sdk`, loaded on first use.
 * MCP's sampling blocks map almost one to one: text, image, tool_use, tool_result.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessageContentBlock,
} from '../../protocol/types/index.js';
import { importOptionalPeer } from '../../jsonrpc/optional-peer.js';
import { blocksOf, contentOf, sdkClientOptions } from './llm.js';
import type { CompleteOptions, LlmProvider, SdkProviderOptions } from './llm.js';

/** Options of {@link AnthropicProvider}: `baseURL` defaults to `ANTHROPIC_BASE_URL`, the key to `ANTHROPIC_API_KEY`. */
export type AnthropicProviderOptions = SdkProviderOptions;

type Block =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: Block[]; is_error?: boolean };
type Message = { role: 'user' | 'assistant'; content: Block[] };

interface AnthropicMessage {
  model?: string;
  content?: Array<{ type: string; text?: string; id?: string; name?: string; input?: unknown }>;
  stop_reason?: string | null;
}

interface MessagesClient {
  messages: {
    create(body: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<AnthropicMessage>;
  };
}

function toBlock(b: SamplingMessageContentBlock): Block {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: b.mimeType, data: b.data } };
    case 'audio':
      return { type: 'text', text: `[audio (${b.mimeType}) omitted: this model API takes no audio]` };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input ?? {} };
    case 'tool_result': {
      const content: Block[] = b.content.map((c): Block => {
        if (c.type === 'text') return { type: 'text', text: c.text };
        if (c.type === 'image')
          return { type: 'image', source: { type: 'base64', media_type: c.mimeType, data: c.data } };
        if (c.type === 'resource')
          return {
            type: 'text',
            text: 'text' in c.resource ? c.resource.text : `[binary resource ${c.resource.uri}]`,
          };
        if (c.type === 'resource_link') return { type: 'text', text: `[resource ${c.uri}]` };
        return { type: 'text', text: `[${c.type} content omitted]` };
      });
      if (content.length === 0 && b.structuredContent !== undefined)
        content.push({ type: 'text', text: JSON.stringify(b.structuredContent) });
      return {
        type: 'tool_result',
        tool_use_id: b.toolUseId,
        content,
        ...(b.isError ? { is_error: true } : {}),
      };
    }
  }
}

/** The request body for the Messages API. */
export function toMessagesRequest(
  model: string,
  params: CreateMessageRequestParams,
): Record<string, unknown> {
  const messages: Message[] = params.messages.map((m) => ({
    role: m.role,
    content: blocksOf(m.content).map(toBlock),
  }));
  const body: Record<string, unknown> = { model, max_tokens: params.maxTokens, messages };
  if (params.systemPrompt) body.system = params.systemPrompt;
  if (params.temperature !== undefined) body.temperature = params.temperature;
  if (params.stopSequences?.length) body.stop_sequences = params.stopSequences;
  if (params.tools?.length) {
    body.tools = params.tools.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: t.inputSchema,
    }));
    const mode = params.toolChoice?.mode;
    if (mode) body.tool_choice = { type: mode === 'required' ? 'any' : mode };
  }
  return body;
}

const STOP: Record<string, string> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
};

/** A Messages API answer → an MCP sampling result. */
export function fromAnthropicMessage(message: AnthropicMessage, model: string): CreateMessageResult {
  const blocks: SamplingMessageContentBlock[] = [];
  for (const b of message.content ?? []) {
    if (b.type === 'text' && typeof b.text === 'string') blocks.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
      const input =
        typeof b.input === 'object' && b.input !== null ? (b.input as Record<string, unknown>) : {};
      blocks.push({ type: 'tool_use', id: b.id, name: b.name, input });
    }
  }
  const reason = message.stop_reason ?? 'end_turn';
  return {
    role: 'assistant',
    content: contentOf(blocks),
    model: message.model ?? model,
    stopReason: STOP[reason] ?? reason,
  };
}

/**
 * The Messages API as an {@link LlmProvider}.
 *
 * @example
 * ```ts
 * const claude = new AnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY });
 * const r = await claude.complete('claude-sonnet-4-5', {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }],
 *   maxTokens: 500,
 * });
 * ```
 */
export class AnthropicProvider implements LlmProvider {
  readonly name: string;
  private client: Promise<MessagesClient> | undefined;

  constructor(private readonly options: AnthropicProviderOptions = {}) {
    this.name = options.name ?? 'anthropic';
  }

  async complete(
    model: string,
    params: CreateMessageRequestParams,
    options: CompleteOptions = {},
  ): Promise<CreateMessageResult> {
    const client = await this.sdk();
    const message = await client.messages.create(
      toMessagesRequest(model, params),
      options.signal ? { signal: options.signal } : undefined,
    );
    return fromAnthropicMessage(message, model);
  }

  private sdk(): Promise<MessagesClient> {
    this.client ??= importOptionalPeer(
      '@anthropic-ai/sdk',
      'The anthropic LLM provider',
      () => import('@anthropic-ai/sdk'),
    ).then(({ default: Anthropic }) => {
      const o = this.options;
      return new Anthropic({
        ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
        ...sdkClientOptions(o),
      }) as unknown as MessagesClient;
    });
    return this.client;
  }
}
