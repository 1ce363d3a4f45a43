/**
 * The Host: many servers from one config, one policy, one catalog, one audit log, and
 * the LLM. It is what an application embeds to be an MCP host.
 */
import type { Client } from '../client/client.js';
import { isModelVisible } from '../protocol/apps.js';
import type { Transport } from '../jsonrpc/index.js';
import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  Root,
  Tool,
} from '../protocol/types/index.js';
import type { SessionLogger } from '../session/index.js';
import type { AuditEntry, AuditSink } from './policy/audit.js';
import { Catalog } from './catalog/catalog.js';
import type { CatalogTool, PinningMode } from './catalog/catalog.js';
import { CatalogSync } from './catalog/catalog-sync.js';
import { decide } from './policy/decide.js';
import { HostError } from './errors.js';
import type { HostConfig, ServerConfig } from './config/config-types.js';
import { Emitter } from './events.js';
import type { HostEvents } from './events.js';
import * as calls from './host-calls.js';
import type { HostCallOptions, ToolRef } from './host-calls.js';
import { LlmRouter } from './llm/llm-router.js';
import type { LlmSetup } from './llm/llm-router.js';
import { MemoryApprovalStore } from './policy/pins.js';
import type { ApprovalStore } from './policy/pins.js';
import { Policy, RateLimiter } from './policy/policy.js';
import { isWithin, parseRoot, rootsFor } from './config/roots.js';
import { ServerConnection } from './supervision/server-connection.js';
import type { ServerHealth } from './supervision/server-connection.js';
import { handlersFor } from './supervision/server-requests.js';
import type { HostUi } from './ui/ui.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';

/** Options of {@link Host}. */
export interface HostOptions {
  /** Where questions go. Default: the terminal (`TerminalUi`, loaded on first use). */
  ui?: HostUi;
  /** How the host introduces itself to servers. */
  clientInfo?: { name: string; version: string };
  /**
   * OpenTelemetry for the host's clients (see `ClientOptions.telemetry`): a `CLIENT` span per
   * request to a server, a child of the active span (a gateway's `SERVER` span, an agent turn).
   */
  telemetry?: TelemetrySetting;
  /** Audit sinks (JSON lines to a file, a collector...); entries are also emitted as `audit` events. */
  audit?: AuditSink | AuditSink[];
  /** Where pins and consents are kept (default: in memory). */
  store?: ApprovalStore;
  /** Default `trust-on-first-use`. */
  pinning?: PinningMode;
  /** Models and providers (default: from `config.llm`). */
  llm?: LlmSetup;
  /** Builds transports (default: stdio child processes and HTTP clients, loaded on first use). */
  serverTransport?: (config: ServerConfig) => Transport;
  /** Opens an approved URL-mode elicitation (default: the system browser, without a shell). */
  openUrl?: (url: string) => Promise<void>;
  /** Sampling requests per server and minute (default 20). */
  samplingPerMinute?: number;
  /** Log messages per server and second passed on as `log` events (default 50; the rest are counted and dropped). */
  logsPerSecond?: number;
  /** Extra client capabilities declared to every server (e.g. `appsClientCapabilities()` for a host that renders MCP App views). */
  clientCapabilities?: Record<string, unknown>;
}

/**
 * An MCP host. Give it a validated config ({@link parseHostConfig} or `loadHostConfig`),
 * start it, then call tools through its policy, drive an agent, or serve its catalog as a
 * gateway.
 *
 * @example
 * ```ts
 * const config = await loadHostConfig('mcp.json');
 * await using host = new Host(config, { ui: new TerminalUi() });
 * host.on('health', (h) => console.error(`${h.name}: ${h.state}`));
 * await host.start();
 * for (const tool of host.catalog.usableTools()) console.log(tool.alias);
 * const result = await host.callTool('files__list_directory', { path: '/tmp' });
 * ```
 */
export class Host {
  readonly catalog: Catalog;
  readonly policy: Policy;
  readonly router: LlmRouter;
  private readonly events = new Emitter<HostEvents>();
  private readonly connections = new Map<string, ServerConnection>();
  private readonly syncs = new Map<string, CatalogSync>();
  private readonly listings = new Map<string, Promise<void>>();
  /** The first listings still running, by server (see {@link Host.firstListing}). */
  private readonly firstListings = new Map<string, Promise<void>>();
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly samplingLimiters = new Map<string, RateLimiter>();
  private readonly serverRoots = new Map<string, string[] | undefined>();
  private readonly sinks: AuditSink[];
  private readonly store: ApprovalStore;
  private uiPromise: Promise<HostUi> | undefined;
  private factory: ((config: ServerConfig) => Transport) | undefined;
  private logWindow = new Map<string, { second: number; count: number; dropped: number }>();
  private closed = false;

  constructor(
    readonly config: HostConfig,
    private readonly options: HostOptions = {},
  ) {
    this.factory = options.serverTransport;
    this.store = options.store ?? new MemoryApprovalStore();
    this.catalog = new Catalog(this.store, options.pinning);
    this.policy = Policy.fromConfig(config);
    this.sinks =
      options.audit === undefined ? [] : Array.isArray(options.audit) ? options.audit : [options.audit];
    this.router = new LlmRouter(
      options.llm ?? { config: config.llm },
      lazyUi(() => this.ui()),
    );
    this.catalog.onchange = (change) => {
      this.events.emit('catalog', change);
      for (const p of change.problems) this.events.emit('notice', { server: change.server, message: p });
    };
    for (const server of Object.values(config.servers)) this.register(server);
  }

  private register(server: ServerConfig): ServerConnection {
    const name = server.name;
    this.serverRoots.set(name, server.roots);
    if (server.rateLimit) this.limiters.set(name, new RateLimiter(server.rateLimit));
    this.samplingLimiters.set(
      name,
      new RateLimiter({ calls: this.options.samplingPerMinute ?? 20, perMs: 60_000 }),
    );
    const conn = this.connect(server);
    this.connections.set(name, conn);
    return conn;
  }

  /**
   * Adds a server to a running host (an inspector's connect form) and starts it; resolves
   * with its health once it has settled its first attempt. Its policy is its entry's.
   */
  async addServer(server: ServerConfig): Promise<ServerHealth> {
    if (this.closed) throw new HostError('ServerUnavailable', 'The host is closed');
    if (this.connections.has(server.name))
      throw new HostError('UnknownServer', `A server named ${JSON.stringify(server.name)} already exists`);
    // The policy reads the same map, so the new entry's rules apply at once.
    (this.config.servers as Record<string, ServerConfig>)[server.name] = server;
    const conn = this.register(server);
    this.factory ??= (await import('./supervision/node-transports.js')).serverTransport;
    await conn.start();
    await this.listings.get(server.name);
    return conn.health();
  }

  /**
   * Drops a server's connection and connects again from scratch (a stdio server gets a
   * new process, with the consent asked again); resolves as {@link Host.addServer}.
   */
  async restartServer(name: string): Promise<ServerHealth> {
    const old = this.connections.get(name);
    if (!old || this.closed) throw new HostError('UnknownServer', `No server named ${JSON.stringify(name)}`);
    await old.stop();
    // Nothing the old connection reports may touch the new one's state.
    old.onhealth = old.onready = old.ondown = undefined;
    this.syncs.get(name)?.stop();
    this.syncs.delete(name);
    this.listings.delete(name);
    this.catalog.clearServer(name);
    const conn = this.connect(old.config);
    this.connections.set(name, conn);
    await conn.start();
    await this.listings.get(name);
    return conn.health();
  }

  /** Listens to `health`, `catalog`, `audit`, `log` or `notice`; returns the unsubscribe function. */
  on<K extends keyof HostEvents>(event: K, listener: (value: HostEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Starts every server concurrently and resolves when each has settled its first attempt
   * (ready, refused, disabled, or failed and now restarting in the background). One
   * server's trouble never holds up the others.
   */
  async start(): Promise<ServerHealth[]> {
    this.factory ??= (await import('./supervision/node-transports.js')).serverTransport;
    await Promise.all([...this.connections.values()].map((c) => c.start()));
    // The first listing of every server that came up, so the catalog is complete on return.
    await Promise.all(this.listings.values());
    return this.health();
  }

  /** Every server's health. */
  health(): ServerHealth[] {
    return [...this.connections.values()].map((c) => c.health());
  }

  /**
   * The live client of a server while it is ready, for what the host does not wrap
   * (subscriptions, completions, ping, the log level). Calls made on it bypass the policy.
   */
  client(server: string): Client | undefined {
    return this.connections.get(server)?.current;
  }

  /** Stops every server (process groups get SIGTERM, then SIGKILL) and waits for them. */
  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.syncs.values()) s.stop();
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * The tools to offer a model: approved tools only, under their aliases, in the shape
   * LLM APIs accept (`name` matches `^[a-zA-Z0-9_-]{1,64}$`).
   */
  llmTools(): Tool[] {
    // MCP Apps: a tool whose visibility leaves out "model" is for its app's view only.
    return this.catalog
      .usableTools()
      .filter((t) => isModelVisible(t.definition))
      .map((t) => ({ ...t.definition, name: t.alias }));
  }

  /**
   * Calls a tool by alias (`files__read_file`) or exact pair (`{ server, tool }`), through
   * the policy: denied calls throw {@link HostError} `Denied`, unapproved ones `NotApproved`.
   */
  callTool(
    target: string | ToolRef,
    args?: Record<string, unknown>,
    options?: HostCallOptions,
  ): Promise<CallToolResult> {
    if (this.firstListings.size !== 0) {
      const known =
        typeof target === 'string'
          ? this.catalog.resolve(target)
          : this.catalog.find(target.server, target.tool);
      const listing = known
        ? undefined
        : this.firstListing(typeof target === 'string' ? undefined : target.server);
      if (listing) return listing.then(() => calls.callTool(this.callDeps, target, args, options));
    }
    return calls.callTool(this.callDeps, target, args, options);
  }

  readResource(server: string, uri: string, options?: HostCallOptions): Promise<ReadResourceResult> {
    return calls.readResource(this.callDeps, server, uri, options);
  }

  /** Gets a prompt by alias (`server__prompt`) or on a named server. */
  getPrompt(
    target: string | { server: string; prompt: string },
    args?: Record<string, string>,
    options?: HostCallOptions,
  ): Promise<GetPromptResult> {
    if (typeof target === 'string' && this.firstListings.size !== 0 && !this.catalog.resolvePrompt(target)) {
      const listing = this.firstListing(undefined);
      if (listing) return listing.then(() => this.getPrompt(target, args, options));
    }
    const ref =
      typeof target === 'string'
        ? this.catalog.resolvePrompt(target)
        : { server: target.server, name: target.prompt };
    if (!ref)
      return Promise.reject(new HostError('UnknownTool', `No prompt is called ${JSON.stringify(target)}`));
    return calls.getPrompt(this.callDeps, ref.server, ref.name, args, options);
  }

  /**
   * A server is `ready` a moment before its first listing lands in the catalog. A call made
   * in that moment (a script that waited for `ready`, an inspector's first click) for a name
   * the catalog does not know yet waits for that listing (a server's, or every running one
   * for an alias) instead of failing with `UnknownTool`.
   */
  private firstListing(server: string | undefined): Promise<void> | undefined {
    if (server !== undefined) return this.firstListings.get(server);
    return Promise.all(this.firstListings.values()).then(() => undefined);
  }

  /** Approves a tool's current definition (pins it), as a UI's "trust this tool" button would. */
  approveTool(target: string | ToolRef): CatalogTool {
    const entry =
      typeof target === 'string'
        ? this.catalog.resolve(target)
        : this.catalog.find(target.server, target.tool);
    if (!entry) throw new HostError('UnknownTool', `No tool ${JSON.stringify(target)}`);
    if (entry.status === 'conflict')
      throw new HostError(
        'ToolConflict',
        `${entry.alias} is listed twice by its server and cannot be approved`,
      );
    this.catalog.approve(entry);
    return entry;
  }

  /**
   * Changes what one server is told about roots. Paths outside the host's roots are
   * refused; the server hears `roots/list_changed` (legacy) or gets the new list next time
   * it asks (modern).
   *
   * @deprecated Roots are deprecated as of MCP 2026-07-28 (SEP-2577) and may be removed from
   * the first revision released on or after 2027-07-28; configure servers with paths in their
   * arguments, environment or tool parameters instead. Still works (docs/deprecations.md).
   */
  async setRoots(server: string, paths: readonly string[]): Promise<Root[]> {
    const conn = this.connections.get(server);
    if (!conn)
      throw new HostError('UnknownServer', `No server named ${JSON.stringify(server)} is configured`);
    const normalized: string[] = [];
    for (const p of paths) {
      const parsed = parseRoot(p, undefined);
      if ('error' in parsed) throw new HostError('Denied', `Root ${JSON.stringify(p)} ${parsed.error}`);
      if (this.config.roots.length > 0 && !this.config.roots.some((r) => isWithin(parsed.path, r))) {
        throw new HostError(
          'Denied',
          `Root ${parsed.path} is outside the host's roots (${this.config.roots.join(', ')})`,
        );
      }
      normalized.push(parsed.path);
    }
    this.serverRoots.set(server, normalized);
    const roots = rootsFor(normalized, this.config.roots);
    await conn.current?.setRoots(roots);
    return roots;
  }

  /** The UI, loading the terminal one when none was given. */
  ui(): Promise<HostUi> {
    this.uiPromise ??= this.options.ui
      ? Promise.resolve(this.options.ui)
      : import('./ui/terminal-ui.js').then(({ TerminalUi }) => new TerminalUi());
    return this.uiPromise;
  }

  /** Records an audit entry: to every sink and as an `audit` event. */
  audit(entry: AuditEntry): void {
    for (const sink of this.sinks) {
      try {
        sink(entry);
      } catch (e) {
        // A failing sink must not fail the call it records, but must not fail silently either.
        this.events.emit('notice', { server: undefined, message: (e as Error).message });
      }
    }
    this.events.emit('audit', entry);
  }

  /** What every call needs from the host: made once, not per call. */
  private deps: calls.CallDeps | undefined;
  private get callDeps(): calls.CallDeps {
    return (this.deps ??= {
      catalog: this.catalog,
      policy: this.policy,
      connection: (s) => this.connections.get(s),
      ui: () => this.ui(),
      audit: (e) => this.audit(e),
      // Nobody to tell: a call builds no audit entry (the time, the arguments' size) at all.
      auditing: () => this.sinks.length > 0 || this.events.has('audit'),
      limiter: (s) => this.limiters.get(s),
      store: this.store,
      pin: (tool) => this.catalog.approve(tool),
    });
  }

  private connect(server: ServerConfig): ServerConnection {
    const logger: SessionLogger = (level, message) => {
      if (level === 'error' || level === 'warning')
        this.events.emit('notice', { server: server.name, message });
    };
    const conn = new ServerConnection(server, {
      clientInfo: this.options.clientInfo ?? { name: 'mcpkit-host', version: '0.1.0' },
      ...(this.options.telemetry ? { telemetry: this.options.telemetry } : {}),
      ...(this.options.clientCapabilities ? { capabilities: this.options.clientCapabilities } : {}),
      handlers: handlersFor(server.name, {
        ui: () => this.ui(),
        router: this.router,
        audit: (e) => this.audit(e),
        rootsOf: (s) => rootsFor(this.serverRoots.get(s), this.config.roots),
        openUrl: (url) => this.openUrl(url),
        samplingLimiter: (s) => this.samplingLimiters.get(s)!,
      }),
      serverTransport: (c) => this.transport(c),
      consent: (c, signal) => this.consent(c, signal),
      logger,
    });
    conn.onhealth = (h) => this.events.emit('health', h);
    conn.onready = (client) => {
      if (this.closed) return;
      this.syncs.get(server.name)?.stop();
      const sync = new CatalogSync(
        server.name,
        client,
        this.catalog,
        (m) => this.events.emit('notice', { server: server.name, message: m }),
        { timeoutMs: server.timeouts.connectMs },
      );
      this.syncs.set(server.name, sync);
      const onnotification = client.onnotification;
      client.onnotification = (n) => {
        onnotification?.(n);
        if (n.method === 'notifications/message') this.serverLog(server.name, n.params ?? {});
      };
      const listing = sync.start().catch(() => undefined);
      this.listings.set(server.name, listing);
      this.firstListings.set(server.name, listing);
      void listing.then(() => {
        if (this.firstListings.get(server.name) === listing) this.firstListings.delete(server.name);
      });
    };
    conn.ondown = () => {
      this.syncs.get(server.name)?.stop();
      this.syncs.delete(server.name);
      this.catalog.clearServer(server.name);
    };
    return conn;
  }

  /** The default factory needs node: it is imported by `start()`, only when no factory was given. */
  private transport(config: ServerConfig): Transport {
    if (!this.factory) throw new Error('Host.start() loads the transports: call it first');
    return this.factory(config);
  }

  private async consent(config: ServerConfig, signal: AbortSignal): Promise<boolean> {
    const verdict = await decide(this.callDeps, { kind: 'command', server: config }, signal);
    const request = verdict.command;
    if (!request) return verdict.allowed;
    const ok = verdict.allowed;
    this.audit({
      time: new Date().toISOString(),
      kind: 'start',
      caller: 'host',
      server: config.name,
      target: request.commandLine,
      decision: ok ? 'approved' : 'denied',
      outcome: 'not-run',
      ...(request.warnings.length ? { reason: request.warnings.join('; ') } : {}),
    });
    if (!verdict.allowed) this.events.emit('notice', { server: config.name, message: verdict.error.message });
    return ok;
  }

  private async openUrl(url: string): Promise<void> {
    if (this.options.openUrl) return this.options.openUrl(url);
    const { openInBrowser } = await import('./supervision/node-transports.js');
    return openInBrowser(url);
  }

  private serverLog(server: string, params: Record<string, unknown>): void {
    const second = Math.floor(Date.now() / 1000);
    let w = this.logWindow.get(server);
    if (!w || w.second !== second) {
      if (w && w.dropped > 0)
        this.events.emit('notice', {
          server,
          message: `Dropped ${w.dropped} log messages from ${server} (flood)`,
        });
      w = { second, count: 0, dropped: 0 };
      this.logWindow.set(server, w);
    }
    if (++w.count > (this.options.logsPerSecond ?? 50)) {
      w.dropped++;
      return;
    }
    this.events.emit('log', {
      server,
      level: typeof params.level === 'string' ? params.level : 'info',
      logger: typeof params.logger === 'string' ? params.logger : undefined,
      data: params.data,
    });
  }
}

/** A UI whose methods wait for the real one (the router needs one before it is loaded). */
function lazyUi(get: () => Promise<HostUi>): HostUi {
  return {
    confirmCommand: async (r, s) => (await get()).confirmCommand(r, s),
    approveTool: async (r, s) => (await get()).approveTool(r, s),
    reviewSampling: async (r, s) => (await get()).reviewSampling(r, s),
    reviewSamplingResult: async (r, s) => (await get()).reviewSamplingResult(r, s),
    elicitForm: async (r, s) => (await get()).elicitForm(r, s),
    confirmUrl: async (r, s) => (await get()).confirmUrl(r, s),
    typeCompletion: async (r, s) => (await get()).typeCompletion(r, s),
  };
}
