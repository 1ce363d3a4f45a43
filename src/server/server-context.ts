import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import { hasCapability } from '../protocol/methods.js';
import { warnDeprecated } from '../protocol/deprecation.js';
import {
  LOGGING_DEPRECATED,
  ROOTS_DEPRECATED,
  SAMPLING_DEPRECATED,
} from '../protocol/deprecated-features.js';
import type { Era } from '../protocol/versions.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/types/sampling.js';
import type { ElicitRequestParams, ElicitResult } from '../protocol/types/elicitation.js';
import type { ListRootsResult } from '../protocol/types/roots.js';
import type { LogLevel, PeerInfo, RequestContext, RequestOptions } from '../session/index.js';
import type { InputRequest } from './mrtr.js';
import { serverEraOf } from './server-era.js';

/**
 * Something that can put a question to the client and wait for the answer: the MRTR
 * replay state of a modern request, or a task waiting in `input_required`.
 */
export interface InputAsker {
  ask(request: InputRequest, key?: string): Promise<Record<string, unknown>>;
  /** Several questions in one round, by key (MRTR); askers without it get them one by one. */
  askAll?(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, Record<string, unknown>>>;
  /** Records a status message (tasks). */
  status?(message: string): void;
}

/** Options for a question asked of the client. */
export interface AskOptions {
  /**
   * How long to wait for the client's answer in the legacy era (default: the server's
   * `timeoutMs` when set, otherwise 5 minutes, since a person may be answering).
   */
  timeoutMs?: number;
  /**
   * The question's key in the modern era's `inputRequests` (default `q0`, `q1`, … in the
   * order asked). A handler that names its questions can read them in any order.
   */
  key?: string;
  /**
   * Legacy era (2025-11-25): send the question task-augmented when the client declared
   * `tasks.requests` for it, and poll for the answer, so a slow answer (a person on a URL
   * flow, a long completion) holds no request open. `ttlMs` asks for the task's lifetime.
   * Ignored when the client cannot take it as a task, in the modern era, and inside a
   * task of this server (whose questions travel through the task).
   */
  task?: boolean | { ttlMs?: number };
}

/** The answer type of each kind of question. */
export type AnswerTo<R extends InputRequest> = R['method'] extends 'elicitation/create'
  ? ElicitResult
  : R['method'] extends 'sampling/createMessage'
    ? CreateMessageResult
    : ListRootsResult;

/** The capability a question needs, by method (`elicitation.url` for URL-mode elicitation). */
function capabilityFor(request: InputRequest): { path: string; missing: string } | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return (request.params as { mode?: string } | undefined)?.mode === 'url'
        ? { path: 'elicitation.url', missing: 'The client does not support URL-mode elicitation' }
        : {
            path: 'elicitation',
            missing: 'The client did not declare the elicitation capability, so the user cannot be asked',
          };
    case 'sampling/createMessage': {
      const p = request.params as { tools?: unknown; toolChoice?: unknown } | undefined;
      return p?.tools !== undefined || p?.toolChoice !== undefined
        ? { path: 'sampling.tools', missing: 'The client does not support tools in sampling' }
        : { path: 'sampling', missing: 'The client did not declare the sampling capability' };
    }
    case 'roots/list':
      return { path: 'roots', missing: 'The client did not declare the roots capability' };
    default:
      return undefined;
  }
}

const ASK_TIMEOUT_MS = 5 * 60_000;

/**
 * What every server handler receives: the request's signal, progress, logging, `_meta`,
 * authentication, who the client is, and a way to ask the client for input. Asking works
 * the same in both eras: a server-to-client request on a legacy connection, an
 * `input_required` round trip on a modern one.
 *
 * @example
 * ```ts
 * server.tool({ name: 'greet', input: z.object({}) }, async (_args, ctx) => {
 *   const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: {
 *     type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
 *   return answer.action === 'accept' ? `Hello ${answer.content?.name}` : 'Maybe later';
 * });
 * ```
 */
export class ServerContext {
  private taskId_: string | undefined;
  private taskStarter: (() => Promise<void>) | undefined;
  private statusCount = 0;

  constructor(
    /** The engine-level context of this request (the task's, once the call became a task). */
    public request: RequestContext,
    /** Where questions go: MRTR replay state (modern requests) or a task; undefined for a legacy request. */
    private asker: InputAsker | undefined,
    /** The server's `timeoutMs`, when its author set one: the default for every question. */
    private readonly askTimeoutMs?: number,
  ) {}

  /** The task this call runs as, when it runs as one. */
  get taskId(): string | undefined {
    return this.taskId_;
  }

  /**
   * Moves the call into a task (used by the task runtime): the signal, progress and logs
   * become the task's, and questions go through the task's `input_required` state.
   * @internal
   */
  enterTask(request: RequestContext, asker: InputAsker, taskId: string): void {
    this.request = request;
    this.asker = asker;
    this.taskId_ = taskId;
  }

  /** @internal Set by the task runtime for tools that start their task themselves. */
  setTaskStarter(start: () => Promise<void>): void {
    this.taskStarter = start;
  }

  /**
   * Turns this call into a task now, for tools declared with `deferTask`: questions asked
   * before it are settled synchronously (MRTR rounds in the modern era), the client gets
   * its `CreateTaskResult`, and the rest of the handler runs as the task. Elsewhere (a
   * plain call, or a task already) it does nothing.
   */
  async startTask(): Promise<void> {
    const start = this.taskStarter;
    this.taskStarter = undefined;
    if (start) await start();
  }

  /**
   * Reports a human-readable status: a task's `statusMessage`, or a progress message on a
   * plain call whose client asked for progress.
   */
  status(message: string): void {
    if (this.asker?.status) this.asker.status(message);
    else this.request.progress(++this.statusCount, undefined, message);
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }
  get requestId(): RequestId {
    return this.request.requestId;
  }
  get method(): string {
    return this.request.method;
  }
  get protocolVersion(): string {
    return this.request.protocolVersion;
  }
  get era(): Era {
    return this.request.era;
  }
  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.request.meta;
  }
  /** What the HTTP auth layer verified about the caller, when auth is on. */
  get authInfo(): unknown {
    return this.request.authInfo;
  }
  /** The client's info and its capabilities (for this request, in the modern era). */
  get client(): { info: PeerInfo | undefined; capabilities: Readonly<Record<string, unknown>> } {
    return { info: this.request.peerInfo, capabilities: this.request.peerCapabilities };
  }

  /**
   * Closes this request's response stream without ending the request (legacy Streamable
   * HTTP with resumability: SSE polling). The client reconnects with Last-Event-ID and the
   * answer arrives on the resumed stream. Elsewhere it does nothing.
   */
  closeStream(): void {
    const close = this.request.transportMeta?.closeStream;
    if (typeof close === 'function') (close as (requestId: RequestId) => void)(this.request.requestId);
  }

  /** Reports progress, when the client asked for it. */
  progress(progress: number, total?: number, message?: string): void {
    if (message !== undefined) this.asker?.status?.(message);
    this.request.progress(progress, total, message);
  }

  /**
   * Sends a log message tied to this request, if the client's level lets it through.
   *
   * @deprecated Logging is deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed from
   * the first revision released on or after 2027-07-28. Log to `stderr` (stdio servers) or
   * use OpenTelemetry; report progress with {@link ServerContext.progress}. Still sent while a
   * client asks for it; the first call warns once per process (docs/deprecations.md).
   */
  log(level: LogLevel, data: unknown, logger?: string): void {
    warnDeprecated('logging', LOGGING_DEPRECATED);
    this.request.log(level, data, logger);
  }

  /** Whether the client declared a capability (`'sampling'`, `'elicitation.url'`, …) for this request. */
  clientSupports(capability: string): boolean {
    return hasCapability(this.request.peerCapabilities, capability);
  }

  /**
   * Which round of a modern multi-round request this is: 1 on the first call, 2 after one
   * `input_required` answer, and so on. Always 1 in the legacy era, where questions are
   * answered in place.
   */
  get inputRound(): number {
    return (this.asker as { round?: number } | undefined)?.round ?? 1;
  }

  /** Asks the user something through the client (form or URL mode). */
  async elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult> {
    const url = (params as { mode?: string }).mode === 'url';
    let wire = params as unknown as Params;
    if (url) {
      // elicitationId is required in 2025-11-25 and gone in 2026-07-28.
      const { elicitationId, ...rest } = wire as Params & { elicitationId?: string };
      wire = serverEraOf(this.era).urlElicitation(rest, elicitationId);
    }
    const request = { method: 'elicitation/create', params: wire } as InputRequest;
    return (await this.askOne(request, options)) as unknown as ElicitResult;
  }

  /**
   * Asks the client's LLM for a completion (with tools, when the client supports them).
   *
   * @deprecated Sampling is deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed
   * from the first revision released on or after 2027-07-28. Call an LLM provider's API from
   * the server instead; to ask the user, use {@link ServerContext.elicit}. Still answered by
   * clients that declare `sampling`; the first call warns once per process.
   */
  async sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult> {
    warnDeprecated('sampling', SAMPLING_DEPRECATED);
    const request = { method: 'sampling/createMessage', params: params as unknown as Params } as InputRequest;
    return (await this.askOne(request, options)) as unknown as CreateMessageResult;
  }

  /**
   * Asks the client for its roots.
   *
   * @deprecated Roots are deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed from
   * the first revision released on or after 2027-07-28. Take directories or files as tool
   * parameters, resource URIs or server configuration instead. Still answered by clients
   * that declare `roots`; the first call warns once per process.
   */
  async listRoots(options?: AskOptions): Promise<ListRootsResult> {
    warnDeprecated('roots', ROOTS_DEPRECATED);
    return (await this.askOne({ method: 'roots/list' }, options)) as unknown as ListRootsResult;
  }

  /**
   * Asks several questions at once, under keys the handler chooses, and resolves with every
   * answer by key. In the modern era they travel together in one `input_required` round
   * (the keys are the `inputRequests` keys); in the legacy era they are sent to the client
   * concurrently.
   *
   * @example
   * ```ts
   * server.tool({ name: 'welcome', input: z.object({}) }, async (_args, ctx) => {
   *   const { user_name, greeting } = await ctx.ask({
   *     user_name: {
   *       method: 'elicitation/create',
   *       params: {
   *         message: 'Your name?',
   *         requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
   *       },
   *     },
   *     greeting: {
   *       method: 'sampling/createMessage',
   *       params: { messages: [{ role: 'user', content: { type: 'text', text: 'A greeting' } }], maxTokens: 50 },
   *     },
   *   });
   *   return `${JSON.stringify(greeting.content)}, ${String(user_name.content?.name)}`;
   * });
   * ```
   */
  async ask<Q extends Record<string, InputRequest>>(
    questions: Q,
    options?: Omit<AskOptions, 'key'>,
  ): Promise<{ [K in keyof Q]: AnswerTo<Q[K]> }> {
    for (const request of Object.values(questions)) this.checkCapability(request);
    type Answers = { [K in keyof Q]: AnswerTo<Q[K]> };
    const asker = this.asker ?? (serverEraOf(this.era).asksByRequest ? undefined : this.noAsker());
    if (asker?.askAll) return (await asker.askAll(questions)) as unknown as Answers;
    const keys = Object.keys(questions);
    const answers = await Promise.all(
      keys.map((k) => (asker ? asker.ask(questions[k]!, k) : this.legacyAsk(questions[k]!, options))),
    );
    return Object.fromEntries(keys.map((k, i) => [k, answers[i]])) as Answers;
  }

  /** Refuses a question the client cannot answer, with the error the era prescribes. */
  private checkCapability(request: InputRequest): void {
    const need = capabilityFor(request);
    if (!need || hasCapability(this.request.peerCapabilities, need.path)) return;
    throw serverEraOf(this.era).questionRefused(need.missing, need.path);
  }

  /** A modern request whose method cannot carry `input_required` has nobody to ask. */
  private noAsker(): never {
    throw new LocalError(
      'CapabilityNotSupported',
      `${this.method} cannot ask the client for input (only tools/call, prompts/get and resources/read can)`,
    );
  }

  private async askOne(request: InputRequest, options?: AskOptions): Promise<Record<string, unknown>> {
    this.checkCapability(request);
    if (this.asker) return this.asker.ask(request, options?.key);
    if (!serverEraOf(this.era).asksByRequest) this.noAsker();
    return this.legacyAsk(request, options);
  }

  private legacyAsk(request: InputRequest, options?: AskOptions): Promise<Record<string, unknown>> {
    return this.legacyRequest(request, options).catch((e: unknown) => {
      // The client answered the question with an error: that is its answer, not a failure of
      // the call. The handler may catch it; uncaught, the tool's result is a tool error
      // naming it (the client's error stays in `cause`), not a JSON-RPC error of the call.
      if (e instanceof WireError)
        throw new LocalError(
          'QuestionRefused',
          `The client answered ${request.method} with an error: ${e.message} (code ${e.code})`,
          { cause: e },
        );
      throw e;
    });
  }

  private legacyRequest(request: InputRequest, options?: AskOptions): Promise<Record<string, unknown>> {
    const opts: RequestOptions = { timeoutMs: options?.timeoutMs ?? this.askTimeoutMs ?? ASK_TIMEOUT_MS };
    const task = options?.task;
    if (task) {
      // Asking as a task is rare: its module loads on first use.
      return import('./client-task-request.js').then(({ clientTakesTask, requestAsClientTask }) => {
        if (!clientTakesTask(this.request, request.method))
          return this.request.request(request.method, request.params, opts);
        const ttl = task === true ? undefined : task.ttlMs;
        return requestAsClientTask(this.request, request.method, request.params, opts.timeoutMs!, ttl);
      });
    }
    return this.request.request(request.method, request.params, opts);
  }
}
