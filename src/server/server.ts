import { WireError } from '../jsonrpc/index.js';
import type { FrameInfo, JsonRpcRequest, Params, Transport } from '../jsonrpc/index.js';
import { isMrtrMethod } from '../protocol/methods.js';
import { ExchangeServer, Session, serverRole } from '../session/index.js';
import type { Implementation, RequestContext, RequestHandler, SessionLogger } from '../session/index.js';
import { LocalChangeBus } from './change-bus.js';
import type { ChangeBus, ChangeEvent } from './change-bus.js';
import { ChangeFanout } from './change-fanout.js';
import { paginate } from './cursor.js';
import { runMiddleware } from './middleware.js';
import type { Middleware, MiddlewareRequest } from './middleware.js';
import { DEFAULT_STATE_TTL_MS, INPUT_REQUIRED, inputRequiredResult, restoreState } from './mrtr.js';
import type { MrtrState } from './mrtr.js';
import { buildPrompt, checkPromptArguments, normalizePrompt } from './prompts.js';
import type { PromptDefinition, PromptEntry, PromptHandler } from './prompts.js';
import { HmacRequestState } from './request-state.js';
import type { RequestStateCodec } from './request-state.js';
import {
  buildResource,
  buildTemplate,
  normalizeRead,
  resolveResource,
  resourceNotFound,
} from './resources.js';
import type {
  ReadHandler,
  ResourceDefinition,
  ResourceEntry,
  ResourceTemplateDefinition,
  TemplateEntry,
  TemplateReadHandler,
} from './resources.js';
import { complete } from './completion.js';
import { ServerContext } from './server-context.js';
import type { TaskOptions, TaskRuntime } from './task-runtime.js';
import type { TaskStore } from './task-store.js';
import { TASK_METHODS, taskSupportOf, tasksCapabilities } from './task-wire.js';
import { buildTool, callTool, checkToolScopes } from './tools.js';
import type { ToolDefinition, ToolEntry, ToolHandler } from './tools.js';
import type { SchemaInput } from './schema-adapter.js';
import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';

export interface ServerOptions {
  /** Guidance for the model about how to use this server. */
  instructions?: string;
  /** Protocol versions to speak, oldest first (default: every revision). */
  versions?: readonly string[];
  /** Extra capabilities (`experimental`, `extensions`), merged over the computed ones. */
  capabilities?: Record<string, unknown>;
  /** Items per page on every list (default 100). */
  pageSize?: number;
  /** Seals MRTR requestState (default: HMAC-SHA-256 with a random per-process key). */
  requestState?: RequestStateCodec;
  requestStateTtlMs?: number;
  /** Cache hints on modern list and read results (default ttlMs 0, scope private). */
  cache?: { ttlMs: number; scope: 'public' | 'private' };
  /** Where change events travel between nodes (default: in process). */
  changeBus?: ChangeBus;
  /**
   * How long the server waits for the client to answer its own requests in the legacy era:
   * `ctx.elicit`, `ctx.sample` and `ctx.listRoots` (default 5 minutes, since a person may be
   * answering; `AskOptions.timeoutMs` overrides it per question) and any other
   * server-to-client request such as `ping` (default 60 s). The modern era has no
   * server-to-client requests: there the client's retry carries the answer.
   */
  timeoutMs?: number;
  /** Receives handler failures and protocol warnings (default: stderr). */
  logger?: SessionLogger;
  /**
   * Tasks (2025-11-25 and the `io.modelcontextprotocol/tasks` extension). They switch on
   * by themselves when a tool declares `execution.taskSupport`; options tune them.
   */
  tasks?: TaskOptions;
  /** Validates raw JSON Schema tool schemas (default: Ajv, or an interpreter where `new Function` is refused). */
  jsonSchemaValidator?: JsonSchemaValidator;
  /**
   * OpenTelemetry spans, metrics and trace context for every request served (default off):
   * `true` reports to the globally registered providers; see docs/observability.md. Needs the
   * optional peer `@opentelemetry/api`, loaded in the background from construction; it is
   * ready by the time {@link McpServer.connect} resolves.
   */
  telemetry?: TelemetrySetting;
}

/** A handle to something registered, to take it away again. */
export interface Registration {
  remove(): void;
}

type ListKey = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** A handler run with its server context (see McpServer.serve). */
type Inner = (params: Params, ctx: ServerContext) => unknown;

/**
 * The task runtime's class, once loaded. Most servers run no tasks, so its module (with the
 * task store) loads when a server first switches tasks on, not with `mcpkit`.
 */
let TaskRuntimeClass: typeof TaskRuntime | undefined;
let taskRuntimeModule: Promise<typeof TaskRuntime> | undefined;

function loadTaskRuntime(): Promise<typeof TaskRuntime> {
  return (taskRuntimeModule ??= import('./task-runtime.js').then(
    (m) => (TaskRuntimeClass = m.TaskRuntime),
    (e: unknown) => {
      taskRuntimeModule = undefined;
      throw e;
    },
  ));
}

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
  private readonly inputSchemas = new Map<string, Record<string, unknown>>();
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly templates = new Map<string, TemplateEntry>();
  private readonly prompts = new Map<string, PromptEntry>();
  private readonly middleware: Middleware[] = [];
  private readonly handlers = new Map<string, RequestHandler>();
  private readonly sessions = new Set<Session>();
  private readonly exchange: ExchangeServer;
  /**
   * Serves one modern request on its own transport (one HTTP POST) with a request context
   * alone, no session; false when it needs one (listen streams and tasks keep state there).
   */
  readonly serveRequest: (transport: Transport, request: JsonRpcRequest, info: FrameInfo) => boolean;
  private codec: RequestStateCodec;
  /** Who hears of changes (legacy sessions, listen streams), on which bus. */
  private readonly fanout: ChangeFanout;
  /** The wire form of each list, built once and dropped when its contents change. */
  private readonly wireLists = new Map<ListKey, readonly unknown[]>();
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
    this.toolInputSchemas = this.inputSchemas;
    this.codec = options.requestState ?? new HmacRequestState();
    this.fanout = new ChangeFanout(options.changeBus ?? new LocalChangeBus(), {
      sessions: this.sessions,
      capabilities: () => this.capabilities(),
      tasks: () => this.taskRuntime,
    });
    const h = this.handlers;
    this.exchange = new ExchangeServer(info, options, h, () => this.capabilities());
    this.serveRequest = this.exchange.serve.bind(this.exchange);
    // Plain handlers answer synchronously when no middleware is installed: no promise, no context.
    const plain = (method: string, fn: (p: Params, rc: RequestContext) => unknown): void => {
      h.set(method, (p, rc) =>
        this.middleware.length === 0 ? fn(p, rc) : this.serve(p, rc, () => fn(p, rc), false),
      );
    };
    // The others run with a context; `inner` is made here once, never per request.
    const full = (method: string, inner: Inner): void => {
      const mayAsk = isMrtrMethod(method);
      h.set(method, (p, rc) => this.serve(p, rc, inner, mayAsk));
    };
    plain('tools/list', (p) => this.listTools(p));
    full('tools/call', (p, ctx) => this.callTool(p, ctx));
    plain('resources/list', (p) => this.listPage(p, 'resources', this.wireList('resources')));
    plain('resources/templates/list', (p) =>
      this.listPage(p, 'resourceTemplates', this.wireList('resourceTemplates')),
    );
    full('resources/read', (p, ctx) => this.readResource(p, ctx));
    plain('resources/subscribe', (p, rc) => this.fanout.subscribe(p, rc, true));
    plain('resources/unsubscribe', (p, rc) => this.fanout.subscribe(p, rc, false));
    plain('prompts/list', (p) => this.listPage(p, 'prompts', this.wireList('prompts')));
    full('prompts/get', (p, ctx) => this.getPrompt(p, ctx));
    full('completion/complete', (p) => complete(p, this.prompts, this.resources, this.templates));
    plain('subscriptions/listen', (p, rc) => this.fanout.listen(p, rc));
    if (options.tasks) this.enableTasks();
    if (options.telemetry) this.loadTelemetry(options.telemetry);
  }

  /**
   * Loads the telemetry in the background. Meanwhile session-less requests are declined, so
   * each is served by a session, whose connect waits for it: no request goes untraced.
   */
  private loadTelemetry(setting: TelemetrySetting): void {
    this.exchange.deferred = true;
    this.telemetryLoad = import('../telemetry/telemetry.js')
      .then(({ createTelemetry }) => createTelemetry(setting))
      .then(
        (telemetry) => {
          this.telemetry = telemetry;
          this.exchange.observer = telemetry.exchangeObserver();
          if (this.taskRuntime) this.taskRuntime.observer = telemetry.taskObserver();
        },
        (e: unknown) => this.exchange.logger('error', 'Telemetry could not load', e),
      )
      .finally(() => {
        this.exchange.deferred = false;
        this.telemetryLoad = undefined;
      });
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
    if (TaskRuntimeClass) return this.startTasks(TaskRuntimeClass);
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
    );
    if (taskSupportOf(definition.execution) !== 'forbidden') this.enableTasks();
    this.tools.set(entry.wire.name, entry);
    this.inputSchemas.set(entry.wire.name, entry.wire.inputSchema as Record<string, unknown>);
    this.changed({ kind: 'tools' });
    return {
      remove: () => {
        if (this.tools.get(entry.wire.name) !== entry) return;
        this.tools.delete(entry.wire.name);
        this.inputSchemas.delete(entry.wire.name);
        this.changed({ kind: 'tools' });
      },
    };
  }

  /**
   * Registers a resource: its definition is checked and its wire form built now, once;
   * connections that asked are told the resource list changed. `remove()` undoes it.
   */
  resource(definition: ResourceDefinition, read: ReadHandler): Registration {
    const entry = buildResource(definition, read);
    this.resources.set(definition.uri, entry);
    this.changed({ kind: 'resources' });
    return this.remover(this.resources, definition.uri, entry, 'resources');
  }

  /**
   * Registers a resource template (RFC 6570): its definition is checked and its wire form
   * built now, once; connections that asked are told the resource list changed. `remove()`
   * undoes it.
   */
  resourceTemplate(definition: ResourceTemplateDefinition, read: TemplateReadHandler): Registration {
    const entry = buildTemplate(definition, read);
    this.templates.set(definition.uriTemplate, entry);
    this.changed({ kind: 'resources' });
    return this.remover(this.templates, definition.uriTemplate, entry, 'resources');
  }

  /**
   * Registers a prompt: its definition is checked and its wire form built now, once;
   * connections that asked are told the prompt list changed. `remove()` undoes it.
   */
  prompt(definition: PromptDefinition, handler: PromptHandler): Registration {
    const entry = buildPrompt(definition, handler);
    this.prompts.set(definition.name, entry);
    this.changed({ kind: 'prompts' });
    return this.remover(this.prompts, definition.name, entry, 'prompts');
  }

  /** Adds a middleware layer; the first added is the outermost. */
  use(middleware: Middleware): this {
    this.middleware.push(middleware);
    return this;
  }

  /** A tool's listed input schema (the HTTP layer checks `Mcp-Param-*` headers against it). */
  toolInputSchema(name: string): Record<string, unknown> | undefined {
    return this.inputSchemas.get(name);
  }

  /** The scopes a tool declares (the HTTP layer's authorizer answers 403 when a token lacks them). */
  toolScopes(name: string): readonly string[] | undefined {
    return this.tools.get(name)?.scopes;
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

  private remover<T>(
    map: Map<string, T>,
    key: string,
    entry: T,
    kind: 'resources' | 'prompts',
  ): Registration {
    return {
      remove: () => {
        if (map.get(key) !== entry) return;
        map.delete(key);
        this.changed({ kind });
      },
    };
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
    const caps: Record<string, unknown> = { logging: {} };
    if (this.tools.size > 0) caps.tools = { listChanged: true };
    if (this.resources.size > 0 || this.templates.size > 0)
      caps.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) caps.prompts = { listChanged: true };
    if (this.prompts.size > 0 || this.templates.size > 0) caps.completions = {};
    const own = this.options.capabilities;
    const declared = Object.keys(this.extensions).length > 0 ? this.extensions : undefined;
    if (this.taskRuntime || this.taskRuntimeLoad) {
      const t = tasksCapabilities();
      const extensions = {
        ...(t.extensions as object),
        ...declared,
        ...(own?.extensions as object | undefined),
      };
      return { ...caps, tasks: t.tasks, ...own, extensions };
    }
    if (declared) {
      return { ...caps, ...own, extensions: { ...declared, ...(own?.extensions as object | undefined) } };
    }
    return { ...caps, ...own };
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
      ...(this.options.logger ? { logger: this.options.logger } : {}),
      ...(this.telemetry ? { observer: this.telemetry.sessionObserver('server', transport) } : {}),
      requestHandlers: this.handlers,
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
          : await runMiddleware(
              this.middleware,
              { method: rc.method, params, ctx } as MiddlewareRequest,
              () => inner(params, ctx),
            );
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

  private withCache(result: Record<string, unknown>): Record<string, unknown> {
    const c = this.options.cache;
    if (c) {
      result.ttlMs = c.ttlMs;
      result.cacheScope = c.scope;
    }
    return result;
  }

  private listTools(params: Params): unknown {
    return this.listPage(params, 'tools', this.wireList('tools'));
  }

  private wireList(key: ListKey): readonly unknown[] {
    let list = this.wireLists.get(key);
    if (!list) {
      const source =
        key === 'tools'
          ? this.tools
          : key === 'resources'
            ? this.resources
            : key === 'resourceTemplates'
              ? this.templates
              : this.prompts;
      list = [...source.values()].map((e) => e.wire);
      this.wireLists.set(key, list);
    }
    return list;
  }

  private listPage(params: Params, key: string, items: readonly unknown[]): Record<string, unknown> {
    const { page, nextCursor } = paginate(items, params.cursor, this.options.pageSize ?? 100);
    const result: Record<string, unknown> = { [key]: page };
    if (nextCursor !== undefined) result.nextCursor = nextCursor;
    return this.withCache(result);
  }

  private callTool(params: Params, ctx: ServerContext): Promise<unknown> {
    const name = params.name;
    if (typeof name !== 'string') throw WireError.invalidParams('tools/call needs a tool name');
    const entry = this.tools.get(name);
    if (!entry)
      throw WireError.invalidParams(`Unknown tool: ${name.length > 100 ? name.slice(0, 100) + '…' : name}`);
    const forbidden = entry.scopes.length === 0 ? undefined : checkToolScopes(entry, ctx.authInfo);
    if (forbidden) throw forbidden;
    // A task tool registered while connections are open: its runtime may still be loading.
    if (this.taskRuntimeLoad) return this.taskRuntimeLoad.then(() => this.callTool(params, ctx));
    if (this.taskRuntime) {
      const tool = { name, support: taskSupportOf(entry.wire.execution), deferred: entry.deferTask };
      return this.taskRuntime.callTool(tool, params, ctx, (c) => callTool(entry, params, c));
    }
    return callTool(entry, params, ctx);
  }

  private async readResource(params: Params, ctx: ServerContext): Promise<unknown> {
    const uri = params.uri;
    if (typeof uri !== 'string' || uri.length === 0)
      throw WireError.invalidParams('resources/read needs a uri');
    if (uri.length > 65_536) throw WireError.invalidParams('The uri is longer than 64 KiB');
    const found = resolveResource(uri, this.resources, this.templates.values());
    if (!found) throw resourceNotFound(uri, ctx.era);
    const value =
      'resource' in found
        ? await found.resource.read(uri, ctx)
        : await found.template.read(uri, found.variables, ctx);
    return this.withCache({ ...normalizeRead(value, uri) });
  }

  private async getPrompt(params: Params, ctx: ServerContext): Promise<unknown> {
    const name = params.name;
    if (typeof name !== 'string') throw WireError.invalidParams('prompts/get needs a prompt name');
    const entry = this.prompts.get(name);
    if (!entry)
      throw WireError.invalidParams(`Unknown prompt: ${name.length > 100 ? name.slice(0, 100) + '…' : name}`);
    const args = checkPromptArguments(entry, params.arguments);
    return normalizePrompt(await entry.handler(args, ctx), name);
  }

  // ------------------------------------------------------------ change delivery

  private changed(event: ChangeEvent): void {
    if (event.kind !== 'resource') this.connectCapabilities = this.exchange.capabilities = undefined;
    if (event.kind === 'resources') this.wireLists.delete('resourceTemplates');
    if (event.kind !== 'resource') this.wireLists.delete(event.kind);
    if (this.sessions.size > 0 || this.fanout.listening) this.fanout.publish(event);
  }
}
