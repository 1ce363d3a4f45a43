/**
 * The LLM seam of the host. Requests and answers use MCP's own sampling shapes
 * (`CreateMessageRequestParams` in, `CreateMessageResult` out), so a server's sampling
 * request passes through unchanged and the agent loop speaks the same language.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessageContentBlock,
} from '../../protocol/types/index.js';
import type { HostUi } from '../ui/ui.js';

/** Options of one completion. */
export interface CompleteOptions {
  signal?: AbortSignal;
}

/**
 * A model API. Implementations: {@link OpenAiProvider} (chat completions, which also
 * covers llama.cpp, vLLM and Ollama), {@link AnthropicProvider} (Messages), the
 * {@link InteractiveProvider} (a person types the answer) and {@link ScriptedProvider}.
 *
 * @example
 * ```ts
 * const echo: LlmProvider = {
 *   name: 'echo',
 *   async complete(model, params) {
 *     return { role: 'assistant', content: { type: 'text', text: 'ok' }, model, stopReason: 'endTurn' };
 *   },
 * };
 * ```
 */
export interface LlmProvider {
  readonly name: string;
  complete(
    model: string,
    params: CreateMessageRequestParams,
    options?: CompleteOptions,
  ): Promise<CreateMessageResult>;
}

/** The blocks of a message or result, as an array. */
export function blocksOf(
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[],
): SamplingMessageContentBlock[] {
  return Array.isArray(content) ? content : [content];
}

/** The text of a result's text blocks, joined. */
export function textOf(result: Pick<CreateMessageResult, 'content'>): string {
  return blocksOf(result.content)
    .filter((b): b is Extract<SamplingMessageContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

/** One block alone, several as an array: the shape `CreateMessageResult.content` prefers. */
export function contentOf(
  blocks: SamplingMessageContentBlock[],
): SamplingMessageContentBlock | SamplingMessageContentBlock[] {
  if (blocks.length === 1) return blocks[0]!;
  if (blocks.length === 0) return { type: 'text', text: '' };
  return blocks;
}

type Script =
  | CreateMessageResult
  | ((
      model: string,
      params: CreateMessageRequestParams,
    ) => CreateMessageResult | Promise<CreateMessageResult>);

/**
 * A provider that answers from a script, in order, and records every request. When the
 * script runs out it throws, so a test cannot silently loop.
 *
 * @example
 * ```ts
 * const llm = new ScriptedProvider([
 *   toolUse('files__read_file', { path: '/tmp/a.txt' }),
 *   (model, params) => textAnswer(`The file says: ${lastToolResultText(params)}`),
 * ]);
 * ```
 */
export class ScriptedProvider implements LlmProvider {
  readonly name = 'scripted';
  readonly requests: Array<{ model: string; params: CreateMessageRequestParams }> = [];
  private next = 0;
  constructor(private readonly script: Script[] = []) {}

  /** Adds answers at the end of the script. */
  push(...steps: Script[]): void {
    this.script.push(...steps);
  }

  async complete(model: string, params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    this.requests.push({ model, params: structuredClone(params) });
    const step = this.script[this.next++];
    if (step === undefined) throw new Error(`ScriptedProvider: no answer scripted for request ${this.next}`);
    const result = typeof step === 'function' ? await step(model, params) : step;
    return { ...result, model: result.model || model };
  }
}

/** A text answer (for scripts). */
export function textAnswer(text: string, model = ''): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
}

/** An answer that calls one tool (for scripts). */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  id = `call_${name}_${Math.random().toString(36).slice(2, 8)}`,
): CreateMessageResult {
  return {
    role: 'assistant',
    content: [{ type: 'tool_use', id, name, input }],
    model: '',
    stopReason: 'toolUse',
  };
}

/**
 * A person is the model: the request is shown through the UI and the typed answer comes
 * back as the completion. Demos need no network and no key.
 *
 * @example
 * ```ts
 * const host = new Host(config, { ui, llm: { provider: new InteractiveProvider(ui), model: 'you' } });
 * ```
 */
export class InteractiveProvider implements LlmProvider {
  readonly name = 'interactive';
  constructor(private readonly ui: Pick<HostUi, 'typeCompletion'>) {}

  async complete(
    model: string,
    params: CreateMessageRequestParams,
    options: CompleteOptions = {},
  ): Promise<CreateMessageResult> {
    const result = await this.ui.typeCompletion({ model, params }, options.signal);
    return { ...result, model: result.model || model };
  }
}

/** What the vendor-SDK providers share: where the API is and how to reach it. */
export interface SdkProviderOptions {
  /** The provider's name in the host (default: the vendor's). */
  name?: string;
  /** Default: the SDK's (its `*_BASE_URL` variable, then the vendor's API). */
  baseURL?: string;
  /** Default: the SDK's (its `*_API_KEY` variable). */
  apiKey?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Retries of failed HTTP requests (default 1). */
  maxRetries?: number;
  fetch?: typeof fetch;
}

/** The constructor options both vendor SDKs read the same way (the key is each vendor's call). */
export function sdkClientOptions(o: SdkProviderOptions): Record<string, unknown> {
  return {
    ...(o.baseURL !== undefined ? { baseURL: o.baseURL } : {}),
    ...(o.headers ? { defaultHeaders: o.headers } : {}),
    ...(o.timeoutMs !== undefined ? { timeout: o.timeoutMs } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    maxRetries: o.maxRetries ?? 1,
  };
}
