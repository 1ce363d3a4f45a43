/**
 * The inspector's playground: a chat with the connected servers' tools through a model of
 * the host configuration (or `--model`), run by the host's own {@link Agent} loop. Each
 * step (the person's message, the model's tool calls, their results, the answer) goes to
 * the page as it happens; one turn runs at a time, with a timeout and a Stop. Without a
 * model, the person at the page types the model's answers (the interactive provider).
 */
import { Agent, InteractiveProvider, PROVIDER_TYPES } from '../host/index.js';
import type { AgentStep, CompletionRequest, Host, LlmConfig, LlmProvider } from '../host/index.js';
import type { CreateMessageResult, SamplingMessageContentBlock } from '../protocol/types/index.js';
import type { SamplingResultReviewRequest } from '../host/index.js';

/** One step of the conversation. */
export type PlaygroundStep =
  | Exclude<AgentStep, { type: 'task' }>
  | { type: 'error'; text: string }
  /** The model answered a server's sampling request (approved in the page). */
  | { type: 'sampled'; server: string; model: string; text: string };

/** One entry of the conversation, as the page shows it. */
export type PlaygroundEntry = PlaygroundStep & { seq: number; time: number };

/** What the page is told: a new entry, the turn's state, a typed answer wanted, or a new chat. */
export type PlaygroundEvent =
  | { entry: PlaygroundEntry }
  | { running: boolean; deadline?: number; timeoutMs?: number }
  | { typing: { params: unknown } | undefined }
  | { cleared: true };

/** The playground as the page loads it. */
export interface PlaygroundView {
  /** The model the chat uses; undefined: the person types its answers. */
  model: string | undefined;
  provider: string | undefined;
  transcript: PlaygroundEntry[];
  running: boolean;
  deadline: number | undefined;
  typing: { params: unknown } | undefined;
  /** The default turn timeout. */
  timeoutMs: number;
}

/** The inspector's LLM setup: the config's models, the one `--model` names added when needed. */
export interface PlaygroundLlm {
  llm: LlmConfig;
  /** The playground's model id; undefined when none is configured (the interactive provider). */
  model: string | undefined;
}

/**
 * Resolves `--model`: a configured model id, or `provider:model` where `provider` is a
 * configured provider or a provider type (`openai`, `anthropic`: its SDK reads the key and
 * base URL from the environment, `OPENAI_API_KEY`/`OPENAI_BASE_URL` and the like). Without
 * `--model`: the config's default model, or its first.
 */
export function playgroundLlm(llm: LlmConfig, spec: string | undefined): PlaygroundLlm {
  if (spec === undefined) return { llm, model: llm.defaultModel ?? llm.models[0]?.id };
  if (llm.models.some((m) => m.id === spec)) return { llm, model: spec };
  const colon = spec.indexOf(':');
  const provider = colon > 0 ? spec.slice(0, colon) : '';
  const id = colon > 0 ? spec.slice(colon + 1) : '';
  const isType = (PROVIDER_TYPES as readonly string[]).includes(provider) && provider !== 'interactive';
  if (!id || (!Object.hasOwn(llm.providers, provider) && !isType)) {
    const known = llm.models.map((m) => m.id).join(', ') || 'none';
    throw new Error(
      `--model ${JSON.stringify(spec)} is neither a configured model (${known}) nor PROVIDER:MODEL ` +
        `with a configured provider or one of ${PROVIDER_TYPES.filter((t) => t !== 'interactive').join(', ')}`,
    );
  }
  const providers = Object.hasOwn(llm.providers, provider)
    ? llm.providers
    : {
        ...llm.providers,
        [provider]: {
          type: provider as 'openai',
          headers: {},
          baseURL: undefined,
          apiKey: undefined,
          timeoutMs: undefined,
        },
      };
  // First, so the router finds this model under its id even if another provider serves one so named.
  const model = { id, provider, aliases: [], cost: 0.5, speed: 0.5, intelligence: 0.5 };
  return { llm: { ...llm, providers, models: [model, ...llm.models] }, model: id };
}

const DEFAULT_TIMEOUT_MS = 120_000;
const TRANSCRIPT_KEEP = 500;

/** Options of one turn. */
export interface TurnOptions {
  /** The whole turn's bound, model calls and tool calls included (default 120 s). */
  timeoutMs?: number;
}

/**
 * One chat per inspector session over its {@link Host}.
 *
 * @example
 * ```ts
 * const setup = playgroundLlm(config.llm, 'openai:gpt-4.1-mini');
 * const playground = new Playground(host, setup, (e) => console.log(e));
 * const { text } = await playground.send('What is 2 + 40?', AbortSignal.timeout(60_000));
 * ```
 */
export class Playground {
  private agent: Agent | undefined;
  private readonly transcript: PlaygroundEntry[] = [];
  private seq = 0;
  private turn: { stop: AbortController; deadline: number } | undefined;
  private typing: { params: unknown; resolve(r: CreateMessageResult | undefined): void } | undefined;

  private readonly model: string | undefined;
  private readonly provider: string | undefined;

  constructor(
    private readonly host: Host,
    setup: PlaygroundLlm,
    private readonly emit: (event: PlaygroundEvent) => void,
  ) {
    this.model = setup.model;
    this.provider = setup.llm.models.find((m) => m.id === setup.model)?.provider;
  }

  view(): PlaygroundView {
    return {
      model: this.model,
      provider: this.provider,
      transcript: [...this.transcript],
      running: this.turn !== undefined,
      deadline: this.turn?.deadline,
      typing: this.typing ? { params: this.typing.params } : undefined,
      timeoutMs: DEFAULT_TIMEOUT_MS,
    };
  }

  /**
   * Runs one turn: the message, the model's tool calls and their results, until it answers.
   * A failed or stopped turn is left out of what the model sees next (the page keeps it).
   */
  async send(
    text: string,
    signal: AbortSignal,
    options: TurnOptions = {},
  ): Promise<{ text: string; stopReason: string }> {
    if (this.turn) throw new Error('A turn is already running: wait for it, or stop it');
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const stop = new AbortController();
    const timeout = AbortSignal.timeout(timeoutMs);
    const turn = { stop, deadline: Date.now() + timeoutMs };
    this.turn = turn;
    this.emit({ running: true, deadline: turn.deadline, timeoutMs });
    const agent = await this.agentFor().catch((e: unknown) => e as Error);
    if (agent instanceof Error) {
      this.finish(turn);
      this.add({ type: 'user', text });
      this.add({ type: 'error', text: agent.message });
      throw agent;
    }
    const kept = agent.messages.length;
    try {
      return await agent.run(text, AbortSignal.any([signal, stop.signal, timeout]));
    } catch (e) {
      agent.messages.length = kept;
      const message = timeout.aborted
        ? `No answer within ${Math.round(timeoutMs / 1000)} s: the turn timed out and was stopped`
        : stop.signal.aborted
          ? 'Stopped'
          : signal.aborted
            ? 'The page went away: the turn was stopped'
            : modelError(e);
      this.add({ type: 'error', text: message });
      throw new Error(message, { cause: e });
    } finally {
      this.finish(turn);
    }
  }

  /** Stops the running turn; false when none runs. */
  stop(): boolean {
    if (!this.turn) return false;
    this.turn.stop.abort();
    return true;
  }

  /** A new chat: the transcript and the model's history go (a running turn is stopped). */
  clear(): void {
    this.stop();
    this.agent = undefined;
    this.transcript.length = 0;
    this.emit({ cleared: true });
  }

  /** The person's answer as the model (the interactive provider); false when none is wanted. */
  type(answer: { text: string } | undefined): boolean {
    const t = this.typing;
    if (!t) return false;
    this.typing = undefined;
    this.emit({ typing: undefined });
    t.resolve(
      answer && {
        role: 'assistant',
        content: { type: 'text', text: answer.text },
        model: 'you (typed in the inspector)',
        stopReason: 'endTurn',
      },
    );
    return true;
  }

  /** Shows a model's answer to a server's sampling request in the chat. */
  sampled(review: SamplingResultReviewRequest): void {
    const blocks: SamplingMessageContentBlock[] = Array.isArray(review.result.content)
      ? review.result.content
      : [review.result.content];
    const text = blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');
    this.add({ type: 'sampled', server: review.server, model: review.result.model, text });
  }

  private async agentFor(): Promise<Agent> {
    if (this.agent) return this.agent;
    let provider: LlmProvider;
    let model: string;
    if (this.model === undefined) {
      provider = new InteractiveProvider({ typeCompletion: (r, s) => this.awaitTyped(r, s) });
      model = 'you (typed in the inspector)';
    } else ({ provider, model } = await this.host.router.choose(undefined, this.model));
    this.agent = new Agent(this.host, {
      provider,
      model,
      caller: 'playground',
      onStep: (step) => {
        if (step.type !== 'task') this.add(step);
      },
    });
    return this.agent;
  }

  private awaitTyped(request: CompletionRequest, signal?: AbortSignal): Promise<CreateMessageResult> {
    return new Promise((resolve, reject) => {
      const done = (r: CreateMessageResult | undefined): void => {
        signal?.removeEventListener('abort', onabort);
        if (r) resolve(r);
        else reject(new Error('No answer was typed'));
      };
      const onabort = (): void => void this.type(undefined);
      signal?.addEventListener('abort', onabort, { once: true });
      this.typing = { params: request.params, resolve: done };
      this.emit({ typing: { params: request.params } });
    });
  }

  private finish(turn: NonNullable<Playground['turn']>): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    this.type(undefined);
    this.emit({ running: false });
  }

  private add(step: PlaygroundStep): void {
    const entry: PlaygroundEntry = { ...step, seq: ++this.seq, time: Date.now() };
    this.transcript.push(entry);
    if (this.transcript.length > TRANSCRIPT_KEEP)
      this.transcript.splice(0, this.transcript.length - TRANSCRIPT_KEEP);
    this.emit({ entry });
  }
}

/** A model API's failure, said plainly (the SDKs' messages name the status but not the cause). */
function modelError(e: unknown): string {
  const err = e as { status?: unknown; message?: unknown; name?: unknown };
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (typeof err?.status === 'number') return `The model API answered HTTP ${err.status}: ${message}`;
  if (err?.name === 'SyntaxError') return `The model API answered something that is not JSON: ${message}`;
  return `The model call failed: ${message}`;
}

/** The page's API of the playground, as operations of the inspector server (`/api/playground-*`). */
export function playgroundOperations(
  playground: Playground,
): Record<string, (b: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>> {
  return {
    playground: async () => playground.view(),
    'playground-send': async (b, signal) => {
      if (typeof b.text !== 'string' || b.text.trim() === '')
        throw new Error('"text" must be a non-empty string');
      const t = b.timeoutMs;
      if (t !== undefined && (typeof t !== 'number' || !Number.isInteger(t) || t < 1000 || t > 3_600_000))
        throw new Error('"timeoutMs" must be a whole number of milliseconds from 1000 to 3600000');
      return playground.send(b.text, signal, t === undefined ? {} : { timeoutMs: t });
    },
    'playground-stop': async () => ({ stopped: playground.stop() }),
    'playground-clear': async () => {
      playground.clear();
      return { ok: true };
    },
    'playground-type': async (b) => {
      if (b.text !== undefined && typeof b.text !== 'string') throw new Error('"text" must be a string');
      return { ok: playground.type(typeof b.text === 'string' ? { text: b.text } : undefined) };
    },
  };
}
