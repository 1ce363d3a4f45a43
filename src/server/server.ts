import { WireError } from '../jsonrpc/index.js';
import type { FrameInfo, JsonRpcRequest, Params, Transport } from '../jsonrpc/index.js';
import { isMrtrMethod } from '../protocol/methods.js';
import { ExchangeServer, Session, serverRole, sessionLoggerOf } from '../session/index.js';
import type { Implementation, RequestContext, RequestHandler, SessionLogger } from '../session/index.js';
import { InterceptorChain } from '../session/interceptors.js';
import { NotificationGate } from '../session/notification-gate.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { cacheHintsByMethod } from './cache-hints.js';
import type { CacheHint } from './cache-hints.js';
import { getPrompt, listPage, readResource, toolToCall } from './catalog-requests.js';
import { CatalogLists, audienceOf, exists } from './catalog-view.js';
import type { ListKey } from './catalog-view.js';
import { LocalChangeBus } from './change-bus.js';
import type { ChangeBus, ChangeEvent } from './change-bus.js';
import { ChangeFanout } from './change-fanout.js';
import { complete } from './completion.js';
import { declareInterceptors, serveInterceptors } from './interceptors-extension.js';
import { middlewareWrap } from './middleware.js';
import type { Middleware, MiddlewareRequest, ServerInterceptor } from './middleware.js';
import { DEFAULT_STATE_TTL_MS, INPUT_REQUIRED, inputRequiredResult, restoreState } from './mrtr.js';
import type { MrtrState } from './mrtr.js';
import { buildPrompt } from './prompts.js';
import type { PromptDefinition, PromptEntry, PromptHandler } from './prompts.js';
import { RateLimiter } from './rate-limit.js';
import { HmacRequestState } from './request-state.js';
import type { RequestStateCodec } from './request-state.js';
import { buildResource, buildTemplate, resolveResource } from './resources.js';
import type {
  ReadHandler,
  ResourceDefinition,
  ResourceEntry,
  ResourceTemplateDefinition,
  TemplateEntry,
  TemplateReadHandler,
} from './resources.js';
import type { SchemaInput } from './schema-adapter.js';
import { declaredCapabilities } from './server-capabilities.js';
import { ServerContext } from './server-context.js';
import type { Registration, ServerOptions } from './server-options.js';
import { loadServerTelemetry } from './server-telemetry.js';
import type { TaskRuntime } from './task-runtime.js';
import { loadTaskRuntime, loadedTaskRuntime } from './task-runtime-loader.js';
import type { TaskStore } from './task-store.js';
import { TASK_METHODS, taskSupportOf } from './task-wire.js';
import { buildTool, callTool, InputSchemas, SchemaTexts } from './tools.js';
import type { ToolDefinition, ToolEntry, ToolHandler } from './tools.js';
import type { VisibilityCheck, Visible } from './visibility.js';

export type { Registration, ServerOptions } from './server-options.js';

/** A handler run with its server context (see McpServer.serve). */
type Inner = (params: Params, ctx: ServerContext) => unknown;

/**
 * One MCP server definition that serves any number of connections, in both protocol eras.
 * Each connection gets its own session, so nothing of one connection can reach another.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * server.tool({ name: 'forecast', input: z.object({ city: z.string() }) },
 *   async ({ city }) => `Sunny in ${city}`);
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class McpServer {
  readonly info: Implementation;
  private readonly options: ServerOptions;
  private readonly tools = new Map<string, ToolEntry>();
  /**
   * Each tool's listed input schema: the HTTP layer checks `Mcp-Param-*` headers against it
   * with a map lookup, not a call into the server.
   */
  readonly toolInputSchemas: ReadonlyMap<string, Record<string, unknown>>;
  /** The tools' schema texts, each kept once however many tools declare it. */
  private readonly schemaTexts = new SchemaTexts();
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly templates = new Map<string, TemplateEntry>();
  private readonly prompts = new Map<string, PromptEntry>();
  private readonly middleware: ServerInterceptor[] = [];
  /** The interceptors as run, rebuilt when one is added. */
  private chain: InterceptorChain<MiddlewareRequest> | undefined;
  private readonly handlers = new Map<string, RequestHandler>();
  private readonly sessions = new Set<Session>();
  private readonly exchange: ExchangeServer;
  private readonly log: SessionLogger;
  private readonly cacheHints: ReadonlyMap<string, CacheHint>;
  private readonly limiter: RateLimiter | undefined;
  /**
   * Serves one modern request on its own transport (one HTTP POST) with a request context
   * alone, no session; false when it needs one (listen streams and tasks keep state there).
   */
  readonly serveRequest: (transport: Transport, request: JsonRpcRequest, info: FrameInfo) => boolean;
  private codec: RequestStateCodec;
  /** Who hears of changes (legacy sessions, listen streams), on which bus. */
  private readonly fanout: ChangeFanout;
  /** The wire form of each list, built once and dropped when its contents change, and its visible subsets. */
  private readonly catalog = new CatalogLists(
    {
      tools: this.tools,
      resources: this.resources,
      resourceTemplates: this.templates,
      prompts: this.prompts,
    },
    // A connection's caller, for its list_changed: known once it lists under rules.
    (rc) => this.fanout.noteCaller(rc as RequestContext),
  );
  /** What connect gives each session (modern HTTP connects once per request); reset on change. */
  private connectCapabilities: Record<string, unknown> | undefined;
  /** Extensions declared with {@link McpServer.declareExtension}. */
  private readonly extensions: Record<string, Record<string, unknown>> = {};
  private taskRuntime: TaskRuntime | undefined;
  /** Settles when the task runtime exists (tasks are on and its module is still loading). */
  private taskRuntimeLoad: Promise<void> | undefined;
  private telemetry: Telemetry | undefined;
  /** Settles when the telemetry is loaded (it is on and `@opentelemetry/api` is still loading). */
  private telemetryLoad: Promise<void> | undefined;
  /** The task store shared by the nodes of a cluster (see joinCluster). */
  private clusterTaskStore: TaskStore | undefined;

  constructor(info: Implementation, options: ServerOptions = {}) {
    this.info = info;
    this.options = options;
    this.toolInputSchemas = new InputSchemas(this.tools);
    this.codec = options.requestState ?? new HmacRequestState();
    this.fanout = new ChangeFanout(options.changeBus ?? new LocalChangeBus(), {
      sessions: this.sessions,
      capabilities: () => this.capabilities(),
      tasks: () => this.taskRuntime,
      resourceVisible: (uri, authInfo) => this.resourceVisible(uri, authInfo),
    });
    const h = this.handlers;
    this.log = sessionLoggerOf(options.logger);
    this.cacheHints = cacheHintsByMethod(options.cache);
    if (options.rateLimit) this.limiter = new RateLimiter(options.rateLimit, this.log);
    this.exchange = new ExchangeServer(info, { ...options, logger: this.log }, h, () => this.capabilities());
    this.exchange.gate = new NotificationGate(this.middleware, 'server', this.log);
    this.serveRequest = this.exchange.serve.bind(this.exchange);
    // Plain handlers answer synchronously when no middleware is installed: no promise, no context.
    const plain = (method: string, fn: (p: Params, rc: RequestContext) => unknown): void => {
      h.set(method, (p, rc) =>
        this.middleware.length === 0 && !this.limiter ? fn(p, rc) : this.serve(p, rc, () => fn(p, rc), false),
      );
    };
    // The others run with a context; `inner` is made here once, never per request.
    const full = (method: string, inner: Inner): void => {
      const mayAsk = isMrtrMethod(method);
      h.set(method, (p, rc) => this.serve(p, rc, inner, mayAsk));
    };
    const page = options.pageSize ?? 1000;
    // Pages go out as pre-serialized text unless an interceptor may read or change them.
    const list = (method: string, key: ListKey): void =>
      plain(method, (p, rc) =>
        listPage(this.catalog, key, p, rc, page, this.cacheHints, this.middleware.length === 0),
      );
    list('tools/list', 'tools');
    full('tools/call', (p, ctx) => this.callTool(p, ctx));
    list('resources/list', 'resources');
    list('resources/templates/list', 'resourceTemplates');
    full('resources/read', (p, ctx) => readResource(p, ctx, this.resources, this.templates, this.cacheHints));
    plain('resources/subscribe', (p, rc) => this.fanout.subscribe(p, rc, true));
    plain('resources/unsubscribe', (p, rc) => this.fanout.subscribe(p, rc, false));
    list('prompts/list', 'prompts');
    full('prompts/get', (p, ctx) => getPrompt(p, ctx, this.prompts));
    full('completion/complete', (p, ctx) =>
      complete(p, this.prompts, this.resources, this.templates, ctx.authInfo),
    );
    plain('subscriptions/listen', (p, rc) => this.fanout.listen(p, rc));
    if (options.tasks) this.enableTasks();
    if (options.interceptorsExtension) serveInterceptors(this, this.log);
    if (options.telemetry) {
      this.telemetryLoad = loadServerTelemetry(options.telemetry, this.exchange, (telemetry) => {
        this.telemetry = telemetry;
        if (this.taskRuntime) this.taskRuntime.observer = telemetry.taskObserver();
      }).finally(() => (this.telemetryLoad = undefined));
    }
  }

  /**
   * The task runtime, once tasks are on (a tool declared `taskSupport`, or `options.tasks`).
   * The first time in a process its module loads in the background: it is here by the time
   * {@link McpServer.connect} resolves.
   */
  get tasks(): TaskRuntime | undefined {
    return this.taskRuntime;
  }

  private enableTasks(): void {
    if (this.taskRuntime || this.taskRuntimeLoad) return;
    const loaded = loadedTaskRuntime();
    if (loaded) return this.startTasks(loaded);
    // Until the module is here, the task methods wait for it, then run the runtime's handler.
    for (const method of TASK_METHODS) {
      this.handlers.set(method, (p, rc) =>
        this.taskRuntimeLoad!.then(() => this.handlers.get(method)!(p, rc)),
      );
    }
    const load = loadTaskRuntime().then((ctor) => {
      this.taskRuntimeLoad = undefined;
      this.startTasks(ctor);
    });
    // Whoever needs the runtime awaits this and sees a failure; nobody may, meanwhile.
    load.catch(() => undefined);
    this.taskRuntimeLoad = load;
  }

  private startTasks(ctor: typeof TaskRuntime): void {
    const store = this.clusterTaskStore;
    const runtime = new ctor(store ? { ...this.options.tasks, store } : this.options.tasks);
    for (const [method, handler] of runtime.handlers()) this.handlers.set(method, handler);
    if (this.telemetry) runtime.observer = this.telemetry.taskObserver();
    this.taskRuntime = runtime;
  }

  // ------------------------------------------------------------ registration

  /**
   * Registers a tool: its definition is checked and its wire form and schemas are built now,
   * once; connections that asked are told the tool list changed. `remove()` undoes it.
   */
  tool<S extends SchemaInput>(definition: ToolDefinition<S>, handler: ToolHandler<S>): Registration {
    const entry = buildTool(
      definition as ToolDefinition,
      handler as ToolHandler<never>,
      this.options.jsonSchemaValidator,
      this.options.scopeFilteredDiscovery === true,
      this.schemaTexts,
    );
    if (taskSupportOf(definition.execution) !== 'forbidden') this.enableTasks();
    const name = entry.name;
    const replaced = this.tools.get(name);
    this.tools.set(name, entry);
    replaced?.release();
    this.changed({ kind: 'tools' }, audienceOf(replaced, entry));
    return {
      remove: () => {
        if (this.tools.get(name) !== entry) return;
        this.tools.delete(name);
        entry.release();
        this.changed({ kind: 'tools' }, audienceOf(entry));
      },
    };
  }

  /**
   * Registers a resource: its definition is checked and its wire form built now, once;
   * connections that asked are told the resource list changed. `remove()` undoes it.
   */
  resource(definition: ResourceDefinition, read: ReadHandler): Registration {
    const entry = buildResource(definition, read);
    const replaced = this.resources.get(definition.uri);
    this.resources.set(definition.uri, entry);
    this.changed({ kind: 'resources' }, audienceOf(replaced, entry));
    return this.remover(this.resources, definition.uri, entry, 'resources');
  }

  /**
   * Registers a resource template (RFC 6570): its definition is checked and its wire form
   * built now, once; connections that asked are told the resource list changed. `remove()`
   * undoes it.
   */
  resourceTemplate(definition: ResourceTemplateDefinition, read: TemplateReadHandler): Registration {
    const entry = buildTemplate(definition, read);
    const replaced = this.templates.get(definition.uriTemplate);
    this.templates.set(definition.uriTemplate, entry);
    this.changed({ kind: 'resources' }, audienceOf(replaced, entry));
    return this.remover(this.templates, definition.uriTemplate, entry, 'resources');
  }

  /**
   * Registers a prompt: its definition is checked and its wire form built now, once;
   * connections that asked are told the prompt list changed. `remove()` undoes it.
   */
  prompt(definition: PromptDefinition, handler: PromptHandler): Registration {
    const entry = buildPrompt(definition, handler);
    const replaced = this.prompts.get(definition.name);
    this.prompts.set(definition.name, entry);
    this.changed({ kind: 'prompts' }, audienceOf(replaced, entry));
    return this.remover(this.prompts, definition.name, entry, 'prompts');
  }

  /**
   * Adds an interceptor: a middleware function (a wrap; the first added is the outermost),
   * or a validator, mutator or wrap object (see {@link ServerInterceptor}).
   */
  use(interceptor: Middleware | ServerInterceptor): this {
    this.middleware.push(typeof interceptor === 'function' ? middlewareWrap(interceptor) : interceptor);
    this.chain = undefined;
    if (this.options.interceptorsExtension) declareInterceptors(this);
    return this;
  }

  /** The interceptors added with {@link McpServer.use}, in order. */
  get interceptors(): readonly ServerInterceptor[] {
    return this.middleware;
  }

  /**
   * A tool's listed input schema (the HTTP layer checks `Mcp-Param-*` headers against it),
   * when the caller with `authInfo` may see the tool.
   */
  toolInputSchema(name: string, authInfo?: unknown): Record<string, unknown> | undefined {
    const entry = this.tools.get(name);
    return exists(entry, authInfo) ? entry.inputSchema : undefined;
  }

  /**
   * The scopes a tool declares (the HTTP layer's authorizer answers 403 when a token lacks
   * them), when the caller with `authInfo` may see the tool: a hidden one is unknown there too.
   */
  toolScopes(name: string, authInfo?: unknown): readonly string[] | undefined {
    const entry = this.tools.get(name);
    return entry === undefined || entry.scopes.length === 0 || exists(entry, authInfo)
      ? entry?.scopes
      : undefined;
  }

  /**
   * Joins a cluster of nodes that serve this same server behind a load balancer (the HTTP
   * layer calls this when it is given shared stores): change events then travel on the
   * cluster's bus, and MRTR state is sealed with the key every node shares.
   */
  joinCluster(parts: { changeBus: ChangeBus; requestStateKey: Uint8Array; taskStore?: unknown }): void {
    this.fanout.useBus(parts.changeBus);
    if (!this.options.requestState) this.codec = new HmacRequestState(parts.requestStateKey);
    if (parts.taskStore !== undefined && !this.options.tasks?.store) {
      // Tasks move to the shared store; a runtime made before (by a task tool) is replaced.
      this.clusterTaskStore = parts.taskStore as TaskStore;
      const old = this.taskRuntime;
      if (old) {
        this.taskRuntime = undefined;
        this.enableTasks();
        void old.store.close();
      }
    }
  }

  /** Tells subscribers that a resource's content changed. */
  resourceUpdated(uri: string): void {
    this.fanout.publish({ kind: 'resource', uri });
  }

  private remover<T extends Visible>(
    map: Map<string, T>,
    key: string,
    entry: T,
    kind: 'resources' | 'prompts',
  ): Registration {
    return {
      remove: () => {
        if (map.get(key) !== entry) return;
        map.delete(key);
        this.changed({ kind }, audienceOf(entry));
      },
    };
  }

  /** Whether the caller with `authInfo` may read `uri` (its `resources/updated` go only to those who may). */
  private resourceVisible(uri: string, authInfo: unknown): boolean {
    if (!this.catalog.hasRules('resources') && !this.catalog.hasRules('resourceTemplates')) return true;
    return resolveResource(uri, this.resources, this.templates.values(), authInfo) !== undefined;
  }

  // ------------------------------------------------------------ connections

  /**
   * Serves a request method MCP's core does not define, such as an extension's (for
   * example `skills/list`). The handler gets the same context as a tool: middleware, the
   * era, the client's capabilities, auth.
   */
  method(name: string, handler: (params: Params, ctx: ServerContext) => unknown): Registration {
    if (this.handlers.has(name)) throw new TypeError(`The method ${name} is already served`);
    const mrtr = isMrtrMethod(name);
    this.handlers.set(name, (p, rc) => this.serve(p, rc, handler, mrtr));
    return { remove: () => void this.handlers.delete(name) };
  }

  /**
   * Declares an extension under `capabilities.extensions` (SEP-2133), with its settings
   * inline, for connections opened from now on.
   */
  declareExtension(id: string, settings: Record<string, unknown> = {}): void {
    this.extensions[id] = settings;
    this.connectCapabilities = this.exchange.capabilities = undefined;
  }

  /** The capabilities this server declares, from what is registered and the options. */
  capabilities(): Record<string, unknown> {
    return declaredCapabilities({
      tools: this.tools,
      resources: this.resources,
      templates: this.templates,
      prompts: this.prompts,
      tasks: this.taskRuntime !== undefined || this.taskRuntimeLoad !== undefined,
      extensions: this.extensions,
      own: this.options.capabilities,
    });
  }

  /**
   * Serves one connection. Returns its session, which closes when the transport does.
   *
   * @example
   * ```ts
   * const session = await server.connect(transport);
   * session.onclose = () => console.error('client left');
   * ```
   */
  async connect(transport: Transport): Promise<Session> {
    if (this.taskRuntimeLoad) await this.taskRuntimeLoad;
    if (this.telemetryLoad) await this.telemetryLoad;
    const session = new Session({
      role: serverRole,
      info: this.info,
      capabilities: (this.connectCapabilities ??= this.capabilities()),
      ...(this.options.instructions !== undefined ? { instructions: this.options.instructions } : {}),
      ...(this.options.versions ? { versions: this.options.versions } : {}),
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      logger: this.log,
      ...(this.telemetry ? { observer: this.telemetry.sessionObserver('server', transport) } : {}),
      requestHandlers: this.handlers,
      interceptors: this.middleware,
    });
    this.sessions.add(session);
    // Not onclose: that belongs to the caller, who may set it (see the example above).
    session.addCloseListener(() => {
      this.sessions.delete(session);
      this.fanout.forget(session);
    });
    await session.connect(transport);
    return session;
  }

  /** Live connections. */
  get connectionCount(): number {
    return this.sessions.size;
  }

  /** Ends every subscription gracefully and closes every connection. */
  async close(): Promise<void> {
    this.fanout.endAll();
    // Let the graceful subscription answers reach the transports first.
    await new Promise((r) => setTimeout(r, 0));
    await this.taskRuntimeLoad?.catch(() => undefined);
    await this.taskRuntime?.close();
    await Promise.all([...this.sessions].map((s) => s.close()));
    await this.exchange.closeAll();
    this.fanout.close();
    await this.limiter?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ------------------------------------------------------------ dispatch

  /**
   * Runs a handler with its context: middleware around it, and in the modern era the MRTR
   * replay state for the methods that may ask the client for input.
   */
  private async serve(params: Params, rc: RequestContext, inner: Inner, mayAsk: boolean): Promise<unknown> {
    if (this.limiter) {
      const refused = this.limiter.admit(params, rc);
      if (refused) await refused;
    }
    let mrtr: MrtrState | undefined;
    // Only the modern era replays input (its server era's `replaysInput`).
    if (mayAsk && rc.era === 'modern') {
      const restored = restoreState(this.codec, rc.method, params, rc.authInfo);
      mrtr = restored instanceof Promise ? await restored : restored;
    }
    const ctx = new ServerContext(rc, mrtr, this.options.timeoutMs);
    let result: unknown;
    try {
      result =
        this.middleware.length === 0
          ? await inner(params, ctx)
          : await (this.chain ??= new InterceptorChain(this.middleware, {
              side: 'server',
              reentrant: false,
              logger: this.log,
            })).run({ method: rc.method, params, ctx } as MiddlewareRequest, (r) => inner(r.params, ctx));
    } catch (e) {
      // A pending question wins over whatever the handler did while unwinding from it.
      if (!mrtr?.pending.size) throw e === INPUT_REQUIRED ? WireError.internal() : e;
    }
    if (mrtr?.pending.size) {
      return inputRequiredResult(
        this.codec,
        mrtr,
        rc.method,
        params,
        rc.authInfo,
        this.options.requestStateTtlMs ?? DEFAULT_STATE_TTL_MS,
      );
    }
    return result;
  }

  private callTool(params: Params, ctx: ServerContext): Promise<unknown> {
    const entry = toolToCall(this.tools, params, ctx.authInfo);
    // A task tool registered while connections are open: its runtime may still be loading.
    if (this.taskRuntimeLoad) return this.taskRuntimeLoad.then(() => this.callTool(params, ctx));
    if (this.taskRuntime) {
      const tool = { name: entry.name, support: taskSupportOf(entry.execution), deferred: entry.deferTask };
      return this.taskRuntime.callTool(tool, params, ctx, (c) => callTool(entry, params, c));
    }
    return callTool(entry, params, ctx);
  }

  // ------------------------------------------------------------ change delivery

  /** A list changed; `audience`, when given, are the only callers who could see the change. */
  private changed(event: ChangeEvent, audience?: readonly VisibilityCheck[]): void {
    if (event.kind !== 'resource') this.connectCapabilities = this.exchange.capabilities = undefined;
    if (event.kind === 'resources') this.catalog.invalidate('resourceTemplates');
    if (event.kind !== 'resource') this.catalog.invalidate(event.kind);
    if (this.sessions.size > 0 || this.fanout.listening) this.fanout.publish(event, audience);
  }
}
