import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { JsonRpcNotification, Params, Transport } from '../jsonrpc/index.js';
import { Method } from '../protocol/methods.js';
import type { ParamsOf, RequestType, ResultOf } from '../protocol/methods.js';
import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  DiscoverResult,
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ListToolsRequestParams,
  ListToolsResult,
  Prompt,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from '../protocol/types/index.js';
import type { Era } from '../protocol/versions.js';
import { isLogLevel } from '../session/logging-levels.js';
import type { LogLevel } from '../session/logging-levels.js';
import type { PeerInfo } from '../session/request-context.js';
import { Session, clientRole } from '../session/index.js';
import type { Implementation, SessionLogger } from '../session/index.js';
import type { ClientEra } from './client-era.js';
import { DEFAULT_PROBE_TIMEOUT_MS, selectEra } from './era-selection.js';
import { HandlerSet, mergeCapabilities } from './handlers.js';
import { paginate } from './list-iterators.js';
import { DEFAULT_MAX_INPUT_ROUNDS, requestWithInput } from './mrtr.js';
import type { MrtrOutcome } from './mrtr.js';
import { OutputValidator } from './output-validation.js';
import { ResultCache } from './result-cache.js';
import type { CachePartition } from './result-cache.js';
import { checkResultShape } from './result-checks.js';
import { eventOf } from './subscription.js';
import type { Subscription } from './subscription.js';
import type { SubscriptionHub } from './subscriptions.js';
import type { ClientTaskReceiver, TaskRequestOptions } from './task-receiver.js';
import { TaskClient, readTask } from './tasks.js';
import { TransportTap } from './transport-tap.js';
import type {
  CallOptions,
  ClientOptions,
  EraPreference,
  ResubscribeOptions,
  SubscribeOptions,
} from './types.js';

let clientCount = 0;

/**
 * The receiver of task-augmented server requests, once loaded: only clients that set
 * `taskRequests` need it, so it loads with the first such connection, not with `mcpkit`.
 */
let TaskReceiverClass: typeof ClientTaskReceiver | undefined;

async function loadTaskReceiver(): Promise<typeof ClientTaskReceiver> {
  return (TaskReceiverClass = (await import('./task-receiver.js')).ClientTaskReceiver);
}

/**
 * The subscriptions module, once loaded: with the first connection rather than with
 * `mcpkit`, and before the connection opens, so that subscribing sends at once as before.
 */
let subscriptionsModule: typeof import('./subscriptions.js') | undefined;

/** The list methods whose cached pages a change notification makes stale. */
const STALE_ON: Readonly<Record<string, readonly string[]>> = {
  tools: ['tools/list'],
  prompts: ['prompts/list'],
  resources: ['resources/list', 'resources/templates/list'],
};

/** Whether the server's capabilities say it runs `tools/call` as a (legacy) task. */
function hasToolTasks(caps: Record<string, unknown> | undefined): boolean {
  const tasks = caps?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return tasks?.requests?.tools?.call !== undefined;
}

/** Whether an error (or its cause chain) says the server ended our HTTP session. */
function sessionExpired(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if ((e as { sessionExpired?: unknown }).sessionExpired === true) return true;
  }
  return false;
}

/**
 * An MCP client for one server connection, in either protocol era.
 *
 * The default era is `auto`: the client probes with `server/discover` (modern `_meta`,
 * a 3 s timeout by default) and falls back to the legacy `initialize` handshake on any
 * answer that is not a modern one. It works with servers of both eras. The probe costs
 * nothing extra on a modern server (discover is its opening call anyway), one quick
 * error round trip on a typical legacy server, and up to `probeTimeoutMs` on a legacy
 * server that stays silent on unknown methods; pass `era: 'legacy'` or `'modern'` when
 * the server's era is known, to skip it.
 *
 * Server needs (sampling, elicitation, roots) are answered by the `handlers` in both
 * eras: as server-to-client requests in the legacy era, as MRTR input requests in the
 * modern era. Their capabilities are declared from the handlers registered.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, {
 *   handlers: { elicitation: async (req) => ({ action: 'accept', content: await ask(req) }) },
 * });
 * await client.connect(new StdioClientTransport({ command: 'my-server' }));
 * for await (const tool of client.tools()) console.log(tool.name);
 * const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, { timeoutMs: 5000 });
 * await client.close();
 * ```
 */
export class Client {
  /** Receives every notification from the server (after the client has used it). */
  onnotification: ((notification: JsonRpcNotification) => void) | undefined;
  /** Called with the new tool list after an automatic refresh (`autoRefreshTools`). */
  ontoolschanged: ((tools: Tool[]) => void) | undefined;
  private userClosed = false;
  /** Called once per connection when it closes; `error` says why when it was not `close()`. */
  onclose: ((error?: Error) => void) | undefined;
  /** Receives failures of background work (automatic refresh, callbacks that throw). */
  onerror: ((error: unknown) => void) | undefined;

  private readonly handlers: HandlerSet;
  private readonly capabilities: Record<string, unknown>;
  private readonly era_: EraPreference;
  private readonly probeTimeoutMs: number;
  private readonly timeoutMs: number | undefined;
  private readonly maxTotalTimeoutMs: number | undefined;
  private readonly maxInputRounds: number;
  private readonly versions: readonly string[] | undefined;
  private readonly autoRefreshTools: boolean;
  private readonly logger: SessionLogger | undefined;
  private readonly resubscribeOptions: ResubscribeOptions | undefined;
  private readonly outputs: OutputValidator | undefined;
  private readonly cache: ResultCache | undefined;
  private readonly partition: CachePartition;
  private session: Session | undefined;
  /** What this connection's era does differently; chosen once era selection is done. */
  private clientEra: ClientEra | undefined;
  /** Set once the opening exchange is done; calls before that are refused. */
  private ready = false;
  private hub: SubscriptionHub | undefined;
  private closing = new AbortController();
  private logLevel: LogLevel | undefined;
  /** Bumped by every invalidation, so a result fetched across one is not cached. */
  private generation = 0;
  private refreshing = false;
  private refreshAgain = false;
  private readonly tasksOn: boolean;
  /** Set when the server may task-augment elicitation and sampling (2025-11-25). */
  private readonly taskRequests: TaskRequestOptions | undefined;
  /** Each tool's `execution.taskSupport`, from the last `tools/list`. */
  private readonly taskSupport = new Map<string, unknown>();
  private listedForTasks = false;
  /**
   * Tasks, explicitly: start a tool call as a task, follow it, resume it by id after a
   * restart, list (2025-11-25) and cancel. `callTool` uses the same machinery by itself.
   */
  readonly tasks: TaskClient;

  constructor(
    readonly info: Implementation,
    options: ClientOptions = {},
  ) {
    this.handlers = new HandlerSet(options.handlers);
    const taskCap = options.taskRequests ? this.handlers.taskCapability() : undefined;
    this.taskRequests = !taskCap
      ? undefined
      : options.taskRequests === true
        ? {}
        : options.taskRequests || {};
    const derived = taskCap ? { ...this.handlers.capabilities, tasks: taskCap } : this.handlers.capabilities;
    this.capabilities = mergeCapabilities(derived, options.capabilities);
    this.era_ = options.era ?? 'auto';
    this.probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    this.timeoutMs = options.timeoutMs;
    this.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
    this.maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    this.versions = options.versions;
    this.autoRefreshTools = options.autoRefreshTools ?? false;
    this.logger = options.logger;
    this.resubscribeOptions = options.resubscribe;
    this.ontoolschanged = options.ontoolschanged;
    this.outputs = options.validateOutput === false ? undefined : new OutputValidator();
    const cache = options.cache ?? true;
    this.cache = cache === false ? undefined : cache === true ? new ResultCache() : cache;
    this.partition = {
      namespace: options.cacheNamespace ?? `client-${++clientCount}`,
      authContext: options.authContext ?? '',
    };
    this.tasksOn = options.tasks !== false;
    this.tasks = new TaskClient({
      era: () => this.strategy(),
      protocolVersion: () => this.session?.protocolVersion ?? '',
      answerer: this.handlers,
      request: (method, params, options) => this.taskRequest(method, params, options),
    });
  }

  // ------------------------------------------------------------------ connection

  /** The protocol version in use; undefined before `connect`. */
  get protocolVersion(): string | undefined {
    return this.session?.protocolVersion;
  }

  /** The era in use: `legacy` (initialize) or `modern` (per-request `_meta`). */
  get era(): Era | undefined {
    return this.session?.era;
  }

  /** The server's name and version, as it reported them. */
  get serverInfo(): PeerInfo | undefined {
    return this.session?.peerInfo;
  }

  /** What the server declared it supports. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.session?.peerCapabilities as ServerCapabilities | undefined;
  }

  /** The server's guidance for the model, if it gave any. */
  get instructions(): string | undefined {
    return this.session?.peerInstructions;
  }

  /** What this client declares (derived from its handlers, merged with `capabilities`). */
  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return this.capabilities;
  }

  get isConnected(): boolean {
    return this.session?.isOpen ?? false;
  }

  /** Requests waiting for an answer, including open `subscriptions/listen` streams. */
  get pendingCount(): number {
    return this.session?.pendingCount ?? 0;
  }

  /**
   * Connects over `transport` and runs the opening exchange of the chosen era. A client
   * can connect again after `close()`; subscriptions do not carry over.
   * `options.timeoutMs` bounds each request of the opening exchange (default: the client's
   * `timeoutMs`), for a client whose per-call timeout is shorter than a server's start.
   */
  async connect(transport: Transport, options: { timeoutMs?: number } = {}): Promise<void> {
    // Before anything else, so that connect stays one step from its checks to its session.
    const Receiver = this.taskRequests ? (TaskReceiverClass ?? (await loadTaskReceiver())) : undefined;
    const { SubscriptionHub } = (subscriptionsModule ??= await import('./subscriptions.js'));
    this.userClosed = false;
    if (this.session?.isOpen)
      throw new LocalError('AlreadyConnected', 'This client is already connected; close it first');
    const session = new Session({
      role: clientRole,
      info: this.info,
      capabilities: this.capabilities,
      ...(this.versions ? { versions: this.versions } : {}),
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
      ...(this.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: this.maxTotalTimeoutMs } : {}),
      ...(this.logger ? { logger: this.logger } : {}),
    });
    const tap = new TransportTap(transport);
    const closing = new AbortController();
    const hub = new SubscriptionHub({
      session,
      tap,
      timeoutMs: this.timeoutMs ?? 60_000,
      resubscribe: this.resubscribe,
      era: () => this.connectedEra(),
      withMeta: (p) => this.withMeta(p),
    });
    this.handlers.register(session);
    if (Receiver) new Receiver(this.handlers, this.taskRequests).register(session);
    session.onnotification = (n) => this.handleNotification(hub, n);
    session.onclose = (error) => {
      closing.abort();
      hub.closeAll(
        error
          ? new LocalError('ConnectionClosed', `The connection closed: ${error.message}`, {
              cause: error,
            })
          : undefined,
      );
      this.call(this.onclose, error);
      // A Streamable HTTP server that ended our session answers 404: start a new one.
      if (!this.userClosed && sessionExpired(error)) {
        void this.connect(transport).catch((e: unknown) =>
          this.logger?.('warning', 'Re-initializing failed', e),
        );
      }
    };
    this.session = session;
    this.ready = false;
    this.clientEra = undefined;
    this.hub = hub;
    this.closing = closing;
    this.logLevel = undefined;
    this.outputs?.clear();
    await session.connect(tap);
    try {
      this.clientEra = await selectEra(session, {
        preference: this.era_,
        probeTimeoutMs: this.probeTimeoutMs,
        timeoutMs: options.timeoutMs ?? this.timeoutMs ?? 60_000,
      });
    } catch (e) {
      await session.close();
      throw e;
    }
    this.ready = true;
    if (this.autoRefreshTools && this.clientEra.listChangedNeedsStream) await this.watchToolsModern(hub);
  }

  /** Closes the connection; everything pending is rejected at once with `ConnectionClosed`. */
  async close(): Promise<void> {
    this.userClosed = true;
    await this.session?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ------------------------------------------------------------------ typed calls

  /** One page of tools. See {@link Client.tools} to walk every page. */
  async listTools(params?: ListToolsRequestParams, options?: CallOptions): Promise<ListToolsResult> {
    const result = await this.cached(Method['tools/list'], params, options);
    this.outputs?.learn(result.tools);
    for (const tool of result.tools) this.taskSupport.set(tool.name, tool.execution?.taskSupport);
    return result;
  }

  /**
   * Calls a tool. In the modern era, `input_required` answers are handled with the
   * registered handlers and the call is retried (see `maxInputRounds`). When the last
   * `tools/list` gave the tool an `outputSchema`, `structuredContent` is validated
   * against it (unless `isError`), failing with `InvalidResult` on a mismatch.
   *
   * @example
   * ```ts
   * const r = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }, { signal });
   * ```
   */
  async callTool(params: CallToolRequestParams, options?: CallOptions): Promise<CallToolResult> {
    let { result } = await this.sendToolCall(params, options);
    if (this.tasksOn && this.tasks.isTask(result)) {
      const first = readTask(this.connectedEra().taskOf(result));
      const wait: Parameters<TaskClient['wait']>[1] = {};
      if (options?.signal) wait.signal = options.signal;
      if (options?.onTaskStatus) wait.onStatus = options.onTaskStatus;
      if (options?.maxTotalTimeoutMs !== undefined) wait.timeoutMs = options.maxTotalTimeoutMs;
      result = (await this.tasks.wait(first, wait)) as unknown as Record<string, unknown>;
      checkResultShape('tools/call', result);
    }
    await this.outputs?.check(params.name, result);
    return result as CallToolResult;
  }

  /**
   * `tools/call` with task augmentation where a 2025-11-25 tool requires it (learned from
   * `tools/list`, or once from a -32601 refusal), and the tasks extension declared on
   * modern requests.
   */
  private async sendToolCall(params: CallToolRequestParams, options?: CallOptions): Promise<MrtrOutcome> {
    let p = params as unknown as Params;
    const session = this.connected();
    if (!this.tasksOn) return this.send('tools/call', p, options);
    const era = this.connectedEra();
    if (!era.tasksByAugmentation)
      return this.send('tools/call', era.taskParams(p, this.capabilities), options);
    const serverTasks = hasToolTasks(session.peerCapabilities);
    if (serverTasks && !this.taskSupport.has(params.name) && !this.listedForTasks) {
      // Whether a tool requires a task is in tools/list: learn it once, before the first call.
      this.listedForTasks = true;
      for await (const _tool of this.tools(options)) void _tool;
    }
    const support = this.taskSupport.get(params.name);
    if (
      serverTasks &&
      p.task === undefined &&
      (support === 'required' || (options?.task && support === 'optional'))
    )
      p = {
        ...p,
        task: typeof options?.task === 'object' && options.task.ttlMs ? { ttl: options.task.ttlMs } : {},
      };
    try {
      return await this.send('tools/call', p, options);
    } catch (e) {
      if (
        !serverTasks ||
        p.task !== undefined ||
        !(e instanceof WireError) ||
        e.code !== ErrorCode.MethodNotFound
      ) {
        throw e;
      }
      // The tool list may be stale or never fetched: look the tool up once, then retry.
      await this.listTools(undefined, options);
      if (this.taskSupport.get(params.name) !== 'required') throw e;
      return this.send('tools/call', { ...p, task: {} }, options);
    }
  }

  /** The task client's requests: tools/call through the MRTR loop, the rest as they are. */
  private async taskRequest(
    method: string,
    params: Params,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    const session = this.connected();
    const p = this.connectedEra().taskParams(params, this.capabilities);
    if (method === 'tools/call') return (await this.send(method, p, options)).result;
    return session.request(method, this.withMeta(p), options);
  }

  async listResources(
    params?: ListResourcesRequestParams,
    options?: CallOptions,
  ): Promise<ListResourcesResult> {
    return this.cached(Method['resources/list'], params, options);
  }

  async listResourceTemplates(
    params?: ListResourceTemplatesRequestParams,
    options?: CallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.cached(Method['resources/templates/list'], params, options);
  }

  /** Reads a resource (cached while fresh in the modern era; MRTR-aware). */
  async readResource(params: ReadResourceRequestParams, options?: CallOptions): Promise<ReadResourceResult> {
    return this.cached(Method['resources/read'], params, options);
  }

  async listPrompts(params?: ListPromptsRequestParams, options?: CallOptions): Promise<ListPromptsResult> {
    return this.cached(Method['prompts/list'], params, options);
  }

  /** Renders a prompt (MRTR-aware). */
  async getPrompt(params: GetPromptRequestParams, options?: CallOptions): Promise<GetPromptResult> {
    return this.typedRequest(Method['prompts/get'], params, options);
  }

  /** Asks for argument completions. */
  async complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.typedRequest(Method['completion/complete'], params, options);
  }

  /**
   * Checks the server is alive (legacy era). The modern era has no `ping`; there this
   * rejects with `CapabilityNotSupported` rather than pretend: use {@link Client.discover}
   * as a liveness check instead.
   */
  async ping(options?: CallOptions): Promise<void> {
    const session = this.connected();
    await this.connectedEra().ping(session, options);
  }

  /**
   * Sets the lowest level of log messages the server sends. Legacy: `logging/setLevel`.
   * Modern: stored and sent as `_meta['io.modelcontextprotocol/logLevel']` on every
   * following request (no round trip).
   */
  async setLoggingLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    if (!isLogLevel(level)) throw new TypeError(`Unknown log level: ${JSON.stringify(level)}`);
    const session = this.connected();
    const kept = await this.connectedEra().setLogLevel(session, level, options);
    if (kept !== undefined) this.logLevel = kept;
  }

  /**
   * The server's versions, capabilities and identity. Modern: `server/discover` (cached
   * while fresh), which also refreshes `serverCapabilities`. Legacy: built from the
   * `initialize` answer without a round trip.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const session = this.connected();
    return this.connectedEra().discover(session, () =>
      this.cached(Method['server/discover'], undefined, options),
    );
  }

  /**
   * Sends a request of a method MCP's core does not define, an extension's such as
   * `skills/list`, with the same `_meta`, input rounds and timeouts as every other request.
   */
  async request(method: string, params?: Params, options?: CallOptions): Promise<Record<string, unknown>> {
    return (await this.send(method, params, options)).result;
  }

  // ------------------------------------------------------------------ iterators

  /**
   * Every tool, following `nextCursor` page by page.
   *
   * @example
   * ```ts
   * for await (const tool of client.tools()) console.log(tool.name);
   * ```
   */
  tools(options?: CallOptions): AsyncGenerator<Tool, void, undefined> {
    return paginate('tools', async (cursor) => {
      const r = await this.listTools(cursor === undefined ? undefined : { cursor }, options);
      return { items: r.tools, nextCursor: r.nextCursor };
    });
  }

  resources(options?: CallOptions): AsyncGenerator<Resource, void, undefined> {
    return paginate('resources', async (cursor) => {
      const r = await this.listResources(cursor === undefined ? undefined : { cursor }, options);
      return { items: r.resources, nextCursor: r.nextCursor };
    });
  }

  resourceTemplates(options?: CallOptions): AsyncGenerator<ResourceTemplate, void, undefined> {
    return paginate('resource templates', async (cursor) => {
      const r = await this.listResourceTemplates(cursor === undefined ? undefined : { cursor }, options);
      return { items: r.resourceTemplates, nextCursor: r.nextCursor };
    });
  }

  prompts(options?: CallOptions): AsyncGenerator<Prompt, void, undefined> {
    return paginate('prompts', async (cursor) => {
      const r = await this.listPrompts(cursor === undefined ? undefined : { cursor }, options);
      return { items: r.prompts, nextCursor: r.nextCursor };
    });
  }

  // ------------------------------------------------------------------ roots, subscriptions, cache

  /**
   * Replaces the roots offered to the server (needs `handlers.roots`). In the legacy
   * era the server is told with `notifications/roots/list_changed`; in the modern era
   * the server asks for roots when it needs them, so the new list is simply used then.
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    if (!this.handlers.hasRoots) {
      throw new LocalError('CapabilityNotSupported', 'setRoots needs roots registered in handlers.roots');
    }
    this.handlers.replaceRoots(roots);
    const session = this.session;
    const declared = this.capabilities.roots as { listChanged?: unknown } | undefined;
    if (session?.isOpen && this.ready && this.clientEra) {
      await this.clientEra.rootsChanged(session, declared?.listChanged === true);
    }
  }

  /**
   * Subscribes to change notifications, in either era; see {@link Subscription}.
   * Resolves once the server has acknowledged (modern) or accepted every
   * `resources/subscribe` (legacy).
   */
  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.connected();
    return this.hub!.subscribe(options);
  }

  /** Forgets every cached result of this client's server. */
  clearCache(): void {
    this.generation++;
    this.cache?.clear(this.partition.namespace);
  }

  // ------------------------------------------------------------------ internals

  private connected(): Session {
    const s = this.session;
    if (!s) throw new LocalError('NotConnected', 'The client is not connected; call connect() first');
    if (!s.isOpen) throw new LocalError('ConnectionClosed', 'The client connection is closed');
    if (!this.ready) throw new LocalError('NotConnected', 'The client is still connecting');
    return s;
  }

  /** The era strategy of a connected client (set before `ready`). */
  private connectedEra(): ClientEra {
    return this.clientEra!;
  }

  /** The era strategy once one is chosen (it outlives the connection); `NotConnected` before. */
  private strategy(): ClientEra {
    if (!this.clientEra)
      throw new LocalError('NotConnected', 'The client is not connected; call connect() first');
    return this.clientEra;
  }

  /** Adds the modern log level to a request's `_meta`. */
  private withMeta(params: Params): Params {
    const era = this.clientEra;
    return era ? era.withLogLevel(params, this.logLevel) : params;
  }

  /** Sends a request through the MRTR loop and checks the result's shape. */
  private async send(
    method: string,
    params: Params | undefined,
    options: CallOptions | undefined,
  ): Promise<MrtrOutcome> {
    const session = this.connected();
    const outcome = await requestWithInput(
      {
        session,
        era: this.connectedEra(),
        answerer: this.handlers,
        maxRounds: this.maxInputRounds,
        closing: this.closing.signal,
      },
      method,
      this.withMeta(params ?? {}),
      options,
    );
    if (!(method === 'tools/call' && this.tasks.isTask(outcome.result)))
      checkResultShape(method, outcome.result);
    return outcome;
  }

  /**
   * A typed request through `send`. The one place a wire result becomes its method's type:
   * `send` has checked its shape, and the descriptor says which type that is.
   */
  private async typedRequest<D extends RequestType>(
    type: D,
    params: ParamsOf<D>,
    options: CallOptions | undefined,
  ): Promise<ResultOf<D>> {
    return (await this.send(type.method, params as Params | undefined, options)).result as ResultOf<D>;
  }

  /** A typed `send`, served from the cache while a previous result is fresh. */
  private async cached<D extends RequestType>(
    type: D,
    typedParams: ParamsOf<D>,
    options: CallOptions | undefined,
  ): Promise<ResultOf<D>> {
    const method = type.method;
    const params = typedParams as Params | undefined;
    // Cache hints exist only in the modern era.
    this.connected();
    const cache = this.connectedEra().cachesResults ? this.cache : undefined;
    if (cache) {
      const hit = cache.get(this.partition, method, params);
      if (hit) return hit as ResultOf<D>;
    }
    const generation = this.generation;
    const { result, rounds } = await this.send(method, params, options);
    // Results that needed input, or that crossed an invalidation, are not cached.
    if (cache && rounds === 0 && generation === this.generation)
      cache.set(this.partition, method, params, result);
    return result as ResultOf<D>;
  }

  private handleNotification(hub: SubscriptionHub, n: JsonRpcNotification): void {
    const event = eventOf(n);
    if (event) {
      this.generation++;
      if (event.kind === 'resource') this.cache?.invalidateResource(this.partition.namespace, event.uri);
      else this.cache?.invalidateMethods(this.partition.namespace, STALE_ON[event.kind]!);
      if (event.kind === 'tools') {
        this.outputs?.clear();
        if (this.autoRefreshTools) this.refreshTools();
      }
    }
    hub.dispatch(n);
    this.call(this.onnotification, n);
  }

  /** Refetches every tool page; notifications arriving meanwhile cause one more pass. */
  private refreshTools(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    void (async () => {
      try {
        do {
          this.refreshAgain = false;
          const tools: Tool[] = [];
          for await (const tool of this.tools()) tools.push(tool);
          if (!this.refreshAgain) this.call(this.ontoolschanged, tools);
        } while (this.refreshAgain && this.isConnected);
      } catch (e) {
        if (this.isConnected) this.call(this.onerror, e);
      } finally {
        this.refreshing = false;
      }
    })();
  }

  /** Modern era: list_changed only arrives on a subscription stream, so open one. */
  private async watchToolsModern(hub: SubscriptionHub): Promise<void> {
    const tools = this.serverCapabilities?.tools;
    if (!tools || tools.listChanged !== true) return;
    try {
      await hub.subscribe({ toolsListChanged: true });
    } catch (e) {
      this.call(this.onerror, e);
    }
  }

  /** Re-listen policy: the options given, over the defaults (read once the module is loaded). */
  private get resubscribe(): Required<ResubscribeOptions> {
    return { ...subscriptionsModule!.DEFAULT_RESUBSCRIBE, ...this.resubscribeOptions };
  }

  /** Calls a user callback; a throwing callback is reported, never propagated. */
  private call<A>(fn: ((arg: A) => void) | undefined, arg: A): void {
    if (!fn) return;
    try {
      fn(arg);
    } catch (e) {
      if (fn !== this.onerror) this.call(this.onerror, e);
    }
  }
}
