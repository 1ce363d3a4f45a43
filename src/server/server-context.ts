import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import { hasCapability } from '../protocol/methods.js';
import type { Era } from '../protocol/versions.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/types/sampling.js';
import type { ElicitRequestParams, ElicitResult } from '../protocol/types/elicitation.js';
import type { ListRootsResult } from '../protocol/types/roots.js';
import type { LogLevel, PeerInfo, RequestContext, RequestOptions } from '../session/index.js';
import type { InputRequest, MrtrState } from './mrtr.js';

/** Options for a question asked of the client. */
export interface AskOptions {
  /** How long to wait for the client's answer in the legacy era (default 5 minutes). */
  timeoutMs?: number;
  /**
   * The question's key in the modern era's `inputRequests` (default `q0`, `q1`, … in the
   * order asked). A handler that names its questions can read them in any order.
   */
  key?: string;
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

/** `{ sampling: { tools: {} } }` for `sampling.tools`. */
function capabilityObject(path: string): Record<string, unknown> {
  return path.split('.').reduceRight<Record<string, unknown>>((inner, part) => ({ [part]: inner }), {});
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
  constructor(
    /** The engine-level context of this request. */
    readonly request: RequestContext,
    private readonly mrtr: MrtrState | undefined,
  ) {}

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
    if (typeof close === 'function') (close as () => void)();
  }

  /** Reports progress, when the client asked for it. */
  progress(progress: number, total?: number, message?: string): void {
    this.request.progress(progress, total, message);
  }

  /** Sends a log message tied to this request, if the client's level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void {
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
    return this.mrtr?.round ?? 1;
  }

  /** Asks the user something through the client (form or URL mode). */
  async elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult> {
    const url = (params as { mode?: string }).mode === 'url';
    let wire = params as unknown as Params;
    if (url) {
      // elicitationId is required in 2025-11-25 and gone in 2026-07-28.
      const { elicitationId, ...rest } = wire as Params & { elicitationId?: string };
      wire = this.era === 'legacy' ? { ...rest, elicitationId: elicitationId ?? crypto.randomUUID() } : rest;
    }
    const request = { method: 'elicitation/create', params: wire } as InputRequest;
    return (await this.askOne(request, options)) as unknown as ElicitResult;
  }

  /** Asks the client's LLM for a completion (with tools, when the client supports them). */
  async sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult> {
    const request = { method: 'sampling/createMessage', params: params as unknown as Params } as InputRequest;
    return (await this.askOne(request, options)) as unknown as CreateMessageResult;
  }

  /** Asks the client for its roots. */
  async listRoots(options?: AskOptions): Promise<ListRootsResult> {
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
   * const { user_name, greeting } = await ctx.ask({
   *   user_name: { method: 'elicitation/create', params: { message: 'Your name?', requestedSchema } },
   *   greeting: { method: 'sampling/createMessage', params: { messages, maxTokens: 50 } },
   * });
   * ```
   */
  async ask<Q extends Record<string, InputRequest>>(
    questions: Q,
    options?: Omit<AskOptions, 'key'>,
  ): Promise<{ [K in keyof Q]: AnswerTo<Q[K]> }> {
    for (const request of Object.values(questions)) this.checkCapability(request);
    if (this.era === 'modern') {
      const answers = await this.modernState().askAll(questions);
      return answers as unknown as { [K in keyof Q]: AnswerTo<Q[K]> };
    }
    const keys = Object.keys(questions);
    const answers = await Promise.all(keys.map((k) => this.legacyAsk(questions[k]!, options)));
    return Object.fromEntries(keys.map((k, i) => [k, answers[i]])) as { [K in keyof Q]: AnswerTo<Q[K]> };
  }

  /**
   * Refuses a question the client cannot answer: in the modern era with
   * MissingRequiredClientCapability (-32021, HTTP 400), as the spec requires; in the legacy
   * era with a local error, which a tool turns into an `isError` result.
   */
  private checkCapability(request: InputRequest): void {
    const need = capabilityFor(request);
    if (!need || hasCapability(this.request.peerCapabilities, need.path)) return;
    if (this.era === 'modern') {
      throw new WireError(ErrorCode.MissingRequiredClientCapability, need.missing, {
        requiredCapabilities: capabilityObject(need.path),
      });
    }
    throw new LocalError('CapabilityNotSupported', need.missing);
  }

  private modernState(): MrtrState {
    if (!this.mrtr) {
      throw new LocalError(
        'CapabilityNotSupported',
        `${this.method} cannot ask the client for input (only tools/call, prompts/get and resources/read can)`,
      );
    }
    return this.mrtr;
  }

  private async askOne(request: InputRequest, options?: AskOptions): Promise<Record<string, unknown>> {
    this.checkCapability(request);
    if (this.era === 'modern') return this.modernState().ask(request, options?.key);
    return this.legacyAsk(request, options);
  }

  private legacyAsk(request: InputRequest, options?: AskOptions): Promise<Record<string, unknown>> {
    const opts: RequestOptions = { timeoutMs: options?.timeoutMs ?? ASK_TIMEOUT_MS };
    return this.request.request(request.method, request.params, opts);
  }
}
