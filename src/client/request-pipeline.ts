/**
 * How the client's requests go out and come back: the log level the modern era carries in
 * `_meta`, the MRTR input rounds, the check of each result's shape, and the result cache
 * with its invalidation by change notifications. One per client; it outlives connections.
 * Internal.
 */
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { JsonRpcNotification, Params } from '../jsonrpc/index.js';
import type { Tool, ToolAnnotations } from '../protocol/types/index.js';
import { InterceptorChain } from '../session/interceptors.js';
import type { SessionLogger } from '../session/session-types.js';
import type { ParamsOf, RequestType, ResultOf } from '../protocol/methods.js';
import type { LogLevel } from '../session/logging-levels.js';
import type { Session } from '../session/session.js';
import type { ClientEra } from './client-era.js';
import type { ClientInterceptContext, ClientInterceptor, ClientRequest } from './interceptors.js';
import type { InputAnswerer, MrtrOutcome } from './mrtr.js';
import { requestWithInput } from './mrtr.js';
import type { CachePartition, ResultCache } from './result-cache.js';
import { checkResultShape } from './result-checks.js';
import { eventOf } from './subscription.js';
import type { CallOptions, ChangeEvent } from './types.js';

/** The list methods whose cached pages a change notification makes stale. */
const STALE_ON: Readonly<Record<string, readonly string[]>> = {
  tools: ['tools/list'],
  prompts: ['prompts/list'],
  resources: ['resources/list', 'resources/templates/list'],
};

/** What the pipeline needs of the client's connection. */
export interface PipelineHost {
  /** The open session of a client done connecting; throws `NotConnected` or `ConnectionClosed`. */
  connected(): Session;
  /** The era strategy of a connected client. */
  connectedEra(): ClientEra;
  /** The era strategy once chosen, `undefined` before (subscriptions ask while connecting). */
  chosenEra(): ClientEra | undefined;
  /** Aborted when the connection closes; ends the handlers of pending input rounds. */
  closing(): AbortSignal;
  /** Whether a `tools/call` answer is a task handle, whose shape the task client checks. */
  isTask(result: Record<string, unknown>): boolean;
}

export interface PipelineOptions {
  answerer: InputAnswerer;
  maxInputRounds: number;
  cache: ResultCache | undefined;
  partition: CachePartition;
  interceptors: readonly ClientInterceptor[] | undefined;
  logger: SessionLogger;
}

export class RequestPipeline {
  /** The level a modern client sends on every request, after `setLoggingLevel`. */
  logLevel: LogLevel | undefined;
  /** Bumped by every invalidation, so a result fetched across one is not cached. */
  private generation = 0;
  /** Added with `Client.use` or the `interceptors` option; the chain is rebuilt on change. */
  readonly interceptors: ClientInterceptor[];
  private chain: InterceptorChain<ClientRequest> | undefined;
  /** Tool annotations as last listed, for interceptors (the retry decides by `idempotentHint`). */
  private readonly annotations = new Map<string, ToolAnnotations>();
  private readonly ctx: ClientInterceptContext = { toolAnnotations: (name) => this.annotations.get(name) };
  /** The input rounds of results that went through interceptors (cacheable only without). */
  private readonly rounds = new WeakMap<object, number>();

  constructor(
    private readonly host: PipelineHost,
    private readonly options: PipelineOptions,
  ) {
    this.interceptors = options.interceptors ? [...options.interceptors] : [];
  }

  /** Adds an interceptor; the first added wrap is the outermost. */
  use(interceptor: ClientInterceptor): void {
    this.interceptors.push(interceptor);
    this.chain = undefined;
  }

  /** Remembers the annotations of listed tools. */
  learnTools(tools: readonly Tool[]): void {
    for (const t of tools) {
      if (t.annotations) this.annotations.set(t.name, t.annotations);
      else this.annotations.delete(t.name);
    }
  }

  /** Adds the modern log level to a request's `_meta`. */
  withMeta(params: Params): Params {
    const era = this.host.chosenEra();
    return era ? era.withLogLevel(params, this.logLevel) : params;
  }

  /** A task client's request: `tools/call` through the interceptors and input rounds, the rest as they are. */
  async taskRequest(
    method: string,
    params: Params,
    capabilities: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    const session = this.host.connected();
    const p = this.host.connectedEra().taskParams(params, capabilities, session);
    if (method === 'tools/call') return (await this.send(method, p, options)).result;
    return session.request(method, this.withMeta(p), options);
  }

  /** Sends a request through the interceptors and the MRTR loop, and checks the result's shape. */
  async send(
    method: string,
    params: Params | undefined,
    options: CallOptions | undefined,
  ): Promise<MrtrOutcome> {
    if (this.interceptors.length === 0) return this.sendNow(method, params, options);
    const chain = (this.chain ??= new InterceptorChain(this.interceptors, {
      side: 'client',
      reentrant: true,
      logger: this.options.logger,
    }));
    const result = await chain.run({ method, params: params ?? {}, options, ctx: this.ctx }, this.inner);
    if (typeof result !== 'object' || result === null || Array.isArray(result))
      throw new LocalError(
        'InvalidResult',
        `An interceptor made the ${method} result something other than an object`,
      );
    const r = result as Record<string, unknown>;
    if (!(method === 'tools/call' && this.host.isTask(r))) checkResultShape(method, r);
    return { result: r, rounds: this.rounds.get(r) ?? 0 };
  }

  /** The innermost step of the chain: one request through the MRTR loop. */
  private readonly inner = async (r: ClientRequest): Promise<unknown> => {
    // The shape is checked once, on what the interceptors leave (see send).
    const outcome = await this.sendNow(r.method, r.params, r.options, false);
    if (outcome.rounds > 0) this.rounds.set(outcome.result, outcome.rounds);
    return outcome.result;
  };

  private async sendNow(
    method: string,
    params: Params | undefined,
    options: CallOptions | undefined,
    check = true,
  ): Promise<MrtrOutcome> {
    const host = this.host;
    const session = host.connected();
    const outcome = await requestWithInput(
      {
        session,
        era: host.connectedEra(),
        answerer: this.options.answerer,
        maxRounds: this.options.maxInputRounds,
        closing: host.closing(),
      },
      method,
      this.withMeta(params ?? {}),
      options,
    );
    if (check && !(method === 'tools/call' && host.isTask(outcome.result)))
      checkResultShape(method, outcome.result);
    return outcome;
  }

  /**
   * A typed request through `send`. The one place a wire result becomes its method's type:
   * `send` has checked its shape, and the descriptor says which type that is.
   */
  async typed<D extends RequestType>(
    type: D,
    params: ParamsOf<D>,
    options: CallOptions | undefined,
  ): Promise<ResultOf<D>> {
    return (await this.send(type.method, params as Params | undefined, options)).result as ResultOf<D>;
  }

  /** A typed `send`, served from the cache while a previous result is fresh. */
  async cached<D extends RequestType>(
    type: D,
    typedParams: ParamsOf<D>,
    options: CallOptions | undefined,
  ): Promise<ResultOf<D>> {
    const method = type.method;
    const params = typedParams as Params | undefined;
    const { partition } = this.options;
    // Cache hints exist only in the modern era.
    this.host.connected();
    const cache = this.host.connectedEra().cachesResults ? this.options.cache : undefined;
    if (cache) {
      const hit = cache.get(partition, method, params);
      if (hit) return hit as ResultOf<D>;
    }
    const generation = this.generation;
    let outcome: MrtrOutcome;
    try {
      outcome = await this.send(method, params, options);
    } catch (e) {
      // SEP-2549: a cursor the server no longer takes means every cached page may be stale.
      if (
        cache &&
        params?.cursor !== undefined &&
        e instanceof WireError &&
        e.code === ErrorCode.InvalidParams
      ) {
        cache.invalidateMethods(partition.namespace, [method]);
      }
      throw e;
    }
    const { result, rounds } = outcome;
    // Results that needed input, or that crossed an invalidation, are not cached.
    if (cache && rounds === 0 && generation === this.generation) cache.set(partition, method, params, result);
    return result as ResultOf<D>;
  }

  /** Forgets every cached result of this client's server. */
  clear(): void {
    this.generation++;
    this.options.cache?.clear(this.options.partition.namespace);
  }

  /**
   * Forgets this client's private results: on every (re)connection, since the server or who
   * we are to it may have changed, and when the authorization context changes (then to `next`).
   */
  forgetPrivate(nextAuthContext?: string): void {
    this.generation++;
    this.options.cache?.clearPrivate(this.options.partition);
    if (nextAuthContext !== undefined) this.options.partition.authContext = nextAuthContext;
  }

  /** Drops what a change notification makes stale; returns the change it stands for. */
  invalidate(n: JsonRpcNotification): ChangeEvent | undefined {
    const event = eventOf(n);
    if (!event) return undefined;
    this.generation++;
    const cache = this.options.cache;
    const namespace = this.options.partition.namespace;
    if (event.kind === 'resource') cache?.invalidateResource(namespace, event.uri);
    else cache?.invalidateMethods(namespace, STALE_ON[event.kind]!);
    return event;
  }
}
