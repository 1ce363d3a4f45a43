import { LocalError } from '../jsonrpc/index.js';
import type { JsonRpcNotification, Params, Transport } from '../jsonrpc/index.js';
import { Method } from '../protocol/methods.js';
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
import type { Session } from '../session/session.js';
import type { ClientInterceptor } from './interceptors.js';
import type { Implementation } from '../session/index.js';
import { clientConfig } from './client-config.js';
import type { ClientConfig } from './client-config.js';
import type { ClientEra } from './client-era.js';
import {
  clientSession,
  connectionClosed,
  connectionParts,
  loadClientTelemetry,
  sessionExpired,
} from './client-connection.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { selectEra } from './era-selection.js';
import type { HandlerSet } from './handlers.js';
import { listAll } from './list-iterators.js';
import type { OutputValidator } from './output-validation.js';
import { RequestPipeline } from './request-pipeline.js';
import type { Subscription } from './subscription.js';
import type { SubscriptionHub } from './subscriptions.js';
import { TaskClient } from './tasks.js';
import { ToolRefresh } from './tool-refresh.js';
import { ToolTaskSupport } from './tool-task-support.js';
import { TransportTap } from './transport-tap.js';
import { warnDeprecated } from '../protocol/deprecation.js';
import { LOGGING_DEPRECATED, ROOTS_DEPRECATED } from '../protocol/deprecated-features.js';
import type { CallOptions, ClientOptions, SubscribeOptions } from './types.js';

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

  /** What the options came to, once. */
  private readonly config: ClientConfig;
  private readonly handlers: HandlerSet;
  private readonly capabilities: Record<string, unknown>;
  /** Loaded with the first connection when `telemetry` is on. */
  private telemetry: Telemetry | undefined;
  private readonly outputs: OutputValidator | undefined;
  /** How requests go out: `_meta`, input rounds, shape checks, the result cache. */
  private readonly pipeline: RequestPipeline;
  private readonly toolTasks: ToolTaskSupport;
  private readonly toolRefresh: ToolRefresh;
  private session: Session | undefined;
  /** What this connection's era does differently; chosen once era selection is done. */
  private clientEra: ClientEra | undefined;
  /** Set once the opening exchange is done; calls before that are refused. */
  private ready = false;
  private hub: SubscriptionHub | undefined;
  private closing = new AbortController();
  /**
   * Tasks, explicitly: start a tool call as a task, follow it, resume it by id after a
   * restart, list (2025-11-25) and cancel. `callTool` uses the same machinery by itself.
   */
  readonly tasks: TaskClient;

  constructor(
    readonly info: Implementation,
    options: ClientOptions = {},
  ) {
    const config = (this.config = clientConfig(options));
    this.handlers = config.handlers;
    this.capabilities = config.capabilities;
    this.outputs = config.outputs;
    this.ontoolschanged = options.ontoolschanged;
    this.pipeline = new RequestPipeline(
      {
        connected: () => this.connected(),
        connectedEra: () => this.connectedEra(),
        chosenEra: () => this.clientEra,
        closing: () => this.closing.signal,
        isTask: (result) => this.tasks.isTask(result),
      },
      config.pipeline,
    );
    this.toolTasks = new ToolTaskSupport({
      connected: () => this.connected(),
      connectedEra: () => this.connectedEra(),
      capabilities: this.capabilities,
      send: (method, params, options) => this.pipeline.send(method, params, options),
      listFirstPage: (options) => this.listTools(undefined, options),
      listAll: async (options) => {
        for await (const _tool of this.tools(options)) void _tool;
      },
    });
    this.toolRefresh = new ToolRefresh({
      tools: () => this.tools(),
      isConnected: () => this.isConnected,
      changed: (tools) => this.call(this.ontoolschanged, tools),
      failed: (e) => this.call(this.onerror, e),
    });
    this.tasks = new TaskClient({
      era: () => this.strategy(),
      protocolVersion: () => this.session?.protocolVersion ?? '',
      answerer: this.handlers,
      request: (method, params, options) =>
        this.pipeline.taskRequest(method, params, this.capabilities, options),
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
    const loading = connectionParts(this.config.taskRequests !== undefined);
    const parts = loading instanceof Promise ? await loading : loading;
    const { SubscriptionHub, TaskReceiver } = parts;
    if (this.config.telemetry !== undefined && this.telemetry === undefined) {
      this.telemetry = await loadClientTelemetry(this.config.telemetry);
    }
    this.userClosed = false;
    if (this.session?.isOpen)
      throw new LocalError('AlreadyConnected', 'This client is already connected; close it first');
    const session = clientSession(
      this.info,
      this.config,
      this.telemetry?.sessionObserver('client', transport),
      this.pipeline.interceptors,
    );
    const tap = new TransportTap(transport);
    const closing = new AbortController();
    const hub = new SubscriptionHub({
      session,
      tap,
      timeoutMs: this.config.timeoutMs ?? 60_000,
      resubscribe: { ...parts.defaultResubscribe, ...this.config.resubscribe },
      era: () => this.connectedEra(),
      withMeta: (p) => this.pipeline.withMeta(p),
    });
    this.handlers.register(session);
    if (TaskReceiver) new TaskReceiver(this.handlers, this.config.taskRequests).register(session);
    session.onnotification = (n) => this.handleNotification(hub, n);
    session.onclose = (error) => {
      closing.abort();
      hub.closeAll(connectionClosed(error));
      this.call(this.onclose, error);
      // A Streamable HTTP server that ended our session answers 404: start a new one.
      if (!this.userClosed && sessionExpired(error)) {
        void this.connect(transport).catch((e: unknown) =>
          this.config.logger?.('warning', 'Re-initializing failed', e),
        );
      }
    };
    this.session = session;
    this.ready = false;
    this.clientEra = undefined;
    this.hub = hub;
    this.closing = closing;
    this.pipeline.logLevel = undefined;
    this.pipeline.forgetPrivate();
    this.outputs?.clear();
    await session.connect(tap);
    try {
      this.clientEra = await selectEra(session, {
        preference: this.config.era,
        probeTimeoutMs: this.config.probeTimeoutMs,
        timeoutMs: options.timeoutMs ?? this.config.timeoutMs ?? 60_000,
      });
    } catch (e) {
      await session.close();
      throw e;
    }
    this.ready = true;
    if (this.config.autoRefreshTools && this.clientEra.listChangedNeedsStream)
      await this.toolRefresh.watch(hub, this.serverCapabilities);
  }

  /**
   * Adds an interceptor around every request the client sends (see {@link ClientInterceptor});
   * the first added wrap is the outermost. Interceptors run inside the result cache: a fresh
   * cached answer is served without them, a new one passes through them before it is cached.
   *
   * @example
   * ```ts
   * client.use(retry()).use(logging((entry) => console.error(entry.method, entry.durationMs)));
   * ```
   */
  use(interceptor: ClientInterceptor): this {
    this.pipeline.use(interceptor);
    return this;
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
    const result = await this.pipeline.cached(Method['tools/list'], params, options);
    this.pipeline.learnTools(result.tools);
    this.outputs?.learn(result.tools);
    this.toolTasks.learn(result.tools);
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
    let { result } = this.config.tasks
      ? await this.toolTasks.send(params, options)
      : await this.pipeline.send('tools/call', params as unknown as Params, options);
    if (this.config.tasks && this.tasks.isTask(result)) result = await this.tasks.finishCall(result, options);
    await this.outputs?.check(params.name, result);
    return result as CallToolResult;
  }

  async listResources(
    params?: ListResourcesRequestParams,
    options?: CallOptions,
  ): Promise<ListResourcesResult> {
    return this.pipeline.cached(Method['resources/list'], params, options);
  }

  async listResourceTemplates(
    params?: ListResourceTemplatesRequestParams,
    options?: CallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.pipeline.cached(Method['resources/templates/list'], params, options);
  }

  /** Reads a resource (cached while fresh in the modern era; MRTR-aware). */
  async readResource(params: ReadResourceRequestParams, options?: CallOptions): Promise<ReadResourceResult> {
    return this.pipeline.cached(Method['resources/read'], params, options);
  }

  async listPrompts(params?: ListPromptsRequestParams, options?: CallOptions): Promise<ListPromptsResult> {
    return this.pipeline.cached(Method['prompts/list'], params, options);
  }

  /** Renders a prompt (MRTR-aware). */
  async getPrompt(params: GetPromptRequestParams, options?: CallOptions): Promise<GetPromptResult> {
    return this.pipeline.typed(Method['prompts/get'], params, options);
  }

  /** Asks for argument completions. */
  async complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.pipeline.typed(Method['completion/complete'], params, options);
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
   *
   * @deprecated Logging is deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed from
   * the first revision released on or after 2027-07-28; servers should log to `stderr` or
   * OpenTelemetry. Still sent to servers that declare `logging`; warns once per process.
   */
  async setLoggingLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    warnDeprecated('logging', LOGGING_DEPRECATED);
    if (!isLogLevel(level)) throw new TypeError(`Unknown log level: ${JSON.stringify(level)}`);
    const session = this.connected();
    const kept = await this.connectedEra().setLogLevel(session, level, options);
    if (kept !== undefined) this.pipeline.logLevel = kept;
  }

  /**
   * The server's versions, capabilities and identity. Modern: `server/discover` (cached
   * while fresh), which also refreshes `serverCapabilities`. Legacy: built from the
   * `initialize` answer without a round trip.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const session = this.connected();
    return this.connectedEra().discover(session, () =>
      this.pipeline.cached(Method['server/discover'], undefined, options),
    );
  }

  /**
   * Sends a request of a method MCP's core does not define, an extension's such as
   * `skills/list`, with the same `_meta`, input rounds and timeouts as every other request.
   */
  async request(method: string, params?: Params, options?: CallOptions): Promise<Record<string, unknown>> {
    return (await this.pipeline.send(method, params, options)).result;
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
    return listAll('tools', 'tools', (p) => this.listTools(p, options));
  }

  resources(options?: CallOptions): AsyncGenerator<Resource, void, undefined> {
    return listAll('resources', 'resources', (p) => this.listResources(p, options));
  }

  resourceTemplates(options?: CallOptions): AsyncGenerator<ResourceTemplate, void, undefined> {
    return listAll('resource templates', 'resourceTemplates', (p) => this.listResourceTemplates(p, options));
  }

  prompts(options?: CallOptions): AsyncGenerator<Prompt, void, undefined> {
    return listAll('prompts', 'prompts', (p) => this.listPrompts(p, options));
  }

  // ------------------------------------------------------------------ roots, subscriptions, cache

  /**
   * Replaces the roots offered to the server (needs `handlers.roots`). In the legacy
   * era the server is told with `notifications/roots/list_changed`; in the modern era
   * the server asks for roots when it needs them, so the new list is simply used then.
   *
   * @deprecated Roots are deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed from
   * the first revision released on or after 2027-07-28; give servers directories or files as
   * tool parameters, resource URIs or server configuration. Still works; warns once per process.
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    warnDeprecated('roots', ROOTS_DEPRECATED);
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
    this.pipeline.clear();
  }

  /**
   * Says the user behind this client changed (signed in as someone else, or out): the
   * private results cached for the previous one are dropped, and new ones are kept under
   * `authContext`. Public results stay.
   *
   * @example
   * ```ts
   * const client = new Client({ name: 'app', version: '1.0.0' }, { authContext: 'alice' });
   * client.setAuthContext('bob');
   * ```
   */
  setAuthContext(authContext: string): void {
    this.pipeline.forgetPrivate(authContext);
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

  private handleNotification(hub: SubscriptionHub, n: JsonRpcNotification): void {
    const event = this.pipeline.invalidate(n);
    if (event?.kind === 'tools') {
      this.outputs?.clear();
      if (this.config.autoRefreshTools) this.toolRefresh.refresh();
    }
    hub.dispatch(n);
    this.call(this.onnotification, n);
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
