/**
 * The host's own agent loop: a user message goes to the LLM with the catalog's tools; the
 * tools it picks are called through the policy; their results go back to it; until it
 * answers without calling anything (or the turn limit is reached).
 */
import type {
  CallToolResult,
  CreateMessageResult,
  ModelPreferences,
  SamplingMessage,
  ToolResultContent,
  ToolUseContent,
} from '../../protocol/types/index.js';
import { HostError, errorText } from '../errors.js';
import type { Host } from '../host.js';
import { blocksOf, textOf } from './llm.js';
import type { LlmProvider } from './llm.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import type { TelemetrySetting } from '../../telemetry/telemetry-options.js';

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** The model id; default: what `modelPreferences` (or the default model) lead to. */
  model?: string;
  /** Use this provider instead of the host's configured ones (with `model`, or its own name). */
  provider?: LlmProvider;
  modelPreferences?: ModelPreferences;
  system?: string;
  /** Model calls per `run` before giving up (default 8). */
  maxTurns?: number;
  /** Per model call (default 1024). */
  maxTokens?: number;
  /** Shown in approvals and the audit log (default `agent`). */
  caller?: string;
  /** Told about every step, for transcripts and UIs. */
  onStep?: (step: AgentStep) => void;
  /**
   * OpenTelemetry (needs `@opentelemetry/api`): each `run` is an `INTERNAL` span
   * `invoke_agent {caller}`, each model call a `CLIENT` span `chat {model}` and each tool call
   * the host's MCP `CLIENT` span (give the host `telemetry` too), all children of the run's.
   */
  telemetry?: TelemetrySetting;
}

/** One step of a run. */
export type AgentStep =
  | { type: 'user'; text: string }
  | {
      type: 'assistant';
      model: string;
      text: string;
      /** `id` is the model's id of the call, which the matching `tool` step carries as `toolUseId`. */
      toolCalls: Array<{ name: string; input: Record<string, unknown>; id?: string }>;
    }
  | {
      type: 'tool';
      name: string;
      server: string | undefined;
      tool: string | undefined;
      ok: boolean;
      text: string;
      toolUseId?: string;
      /** The whole result, when the call returned one (a UI renders it, or its MCP App view). */
      result?: CallToolResult;
    }
  /** A tool call running as a task on its server changed state (status, message). */
  | { type: 'task'; name: string; taskId: string; status: string; statusMessage?: string }
  | { type: 'final'; text: string; stopReason: string };

/** What a run ended with. */
export interface AgentResult {
  text: string;
  /** `endTurn` (or the model's own reason), or `maxTurns` when the limit cut it off. */
  stopReason: string;
  turns: number;
}

const MAX_RESULT_TEXT = 2000;

/**
 * A conversation with the LLM over the host's catalog. The history carries over between
 * `run` calls.
 *
 * @example
 * ```ts
 * const agent = new Agent(host, { system: 'You are a helpful assistant.', onStep: console.log });
 * const { text } = await agent.run('What files are in /tmp?');
 * ```
 */
export class Agent {
  readonly messages: SamplingMessage[] = [];
  private telemetryLoad: Promise<Telemetry> | undefined;

  constructor(
    private readonly host: Host,
    private readonly options: AgentOptions = {},
  ) {}

  async run(userText: string, signal?: AbortSignal): Promise<AgentResult> {
    const setting = this.options.telemetry;
    if (!setting) return this.loop(userText, signal, undefined);
    this.telemetryLoad ??= import('../../telemetry/load.js').then((m) => m.loadTelemetry(setting));
    const telemetry = await this.telemetryLoad;
    const name = this.options.caller ?? 'agent';
    return telemetry.withSpan(`invoke_agent ${name}`, () => this.loop(userText, signal, telemetry), {
      kind: telemetry.api.SpanKind.INTERNAL,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name },
    });
  }

  private async loop(
    userText: string,
    signal: AbortSignal | undefined,
    telemetry: Telemetry | undefined,
  ): Promise<AgentResult> {
    const o = this.options;
    const { model, provider } = o.provider
      ? { model: o.model ?? o.provider.name, provider: o.provider }
      : await this.host.router.choose(o.modelPreferences, o.model);
    this.messages.push({ role: 'user', content: { type: 'text', text: userText } });
    this.step({ type: 'user', text: userText });
    const maxTurns = o.maxTurns ?? 8;
    for (let turn = 1; turn <= maxTurns; turn++) {
      signal?.throwIfAborted();
      const tools = this.host.llmTools();
      const offered = new Set(tools.map((t) => t.name));
      const maxTokens = o.maxTokens ?? 1024;
      const complete = (): Promise<CreateMessageResult> =>
        provider.complete(
          model,
          {
            messages: this.messages,
            maxTokens,
            ...(o.system ? { systemPrompt: o.system } : {}),
            ...(tools.length ? { tools, toolChoice: { mode: 'auto' as const } } : {}),
          },
          signal ? { signal } : {},
        );
      // The GenAI conventions' model-call span: `chat {model}`, a child of the run's.
      const result = telemetry
        ? await telemetry.withSpan(
            `chat ${model}`,
            async (span) => {
              const r = await complete();
              span.setAttribute('gen_ai.response.model', r.model);
              span.setAttribute('gen_ai.response.finish_reasons', [r.stopReason ?? 'endTurn']);
              return r;
            },
            {
              kind: telemetry.api.SpanKind.CLIENT,
              attributes: {
                'gen_ai.operation.name': 'chat',
                'gen_ai.request.model': model,
                'gen_ai.provider.name': provider.name,
                'gen_ai.request.max_tokens': maxTokens,
              },
            },
          )
        : await complete();
      const blocks = blocksOf(result.content);
      const uses = blocks.filter((b): b is ToolUseContent => b.type === 'tool_use');
      this.messages.push({ role: 'assistant', content: blocks });
      this.step({
        type: 'assistant',
        model: result.model,
        text: textOf(result),
        toolCalls: uses.map((u) => ({ name: u.name, input: u.input, id: u.id })),
      });
      if (uses.length === 0) {
        const text = textOf(result);
        const stopReason = result.stopReason ?? 'endTurn';
        this.step({ type: 'final', text, stopReason });
        return { text, stopReason, turns: turn };
      }
      const results: ToolResultContent[] = [];
      for (const use of uses) results.push(await this.callOne(use, offered, signal));
      this.messages.push({ role: 'user', content: results });
    }
    const text = `Stopped after ${maxTurns} model calls without a final answer`;
    this.step({ type: 'final', text, stopReason: 'maxTurns' });
    return { text, stopReason: 'maxTurns', turns: maxTurns };
  }

  private async callOne(
    use: ToolUseContent,
    offered: Set<string>,
    signal: AbortSignal | undefined,
  ): Promise<ToolResultContent> {
    const entry = this.host.catalog.resolve(use.name);
    const fail = (text: string): ToolResultContent => {
      this.step({
        type: 'tool',
        name: use.name,
        server: entry?.server,
        tool: entry?.name,
        ok: false,
        text,
        toolUseId: use.id,
      });
      return { type: 'tool_result', toolUseId: use.id, content: [{ type: 'text', text }], isError: true };
    };
    // Only what was offered this turn may run: a model cannot reach a held-back tool by name.
    if (!offered.has(use.name)) return fail(`The tool ${use.name} is not available`);
    try {
      const r = await this.host.callTool(use.name, use.input ?? {}, {
        caller: this.options.caller ?? 'agent',
        ...(signal ? { signal } : {}),
        onTaskStatus: (t) =>
          this.step({
            type: 'task',
            name: use.name,
            taskId: t.taskId,
            status: t.status,
            ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
          }),
      });
      const text = r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      const shown = text.length > MAX_RESULT_TEXT ? text.slice(0, MAX_RESULT_TEXT) + '…' : text;
      this.step({
        type: 'tool',
        name: use.name,
        server: entry?.server,
        tool: entry?.name,
        ok: !r.isError,
        text: shown,
        toolUseId: use.id,
        result: r,
      });
      return {
        type: 'tool_result',
        toolUseId: use.id,
        content: r.content,
        ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}),
        ...(r.isError ? { isError: true } : {}),
      };
    } catch (e) {
      return fail(
        e instanceof HostError ? `The host refused: ${e.message}` : `The call failed: ${errorText(e)}`,
      );
    }
  }

  private step(step: AgentStep): void {
    try {
      this.options.onStep?.(step);
    } catch {
      // A transcript printer must not break the loop.
    }
  }
}
