/**
 * What the inspector page sees and does, on top of the {@link Host}: the host supervises
 * the servers, keeps the catalog and applies the policy; this adds the page's view of
 * it (health, catalog, the wire history, logs, notices, pending questions) as a bounded
 * history plus a live event feed, and the operations the API exposes.
 */
import { Host, InteractiveProvider, parseHostConfig } from '../host/index.js';
import { serverTransport } from '../host/node.js';
import { appsClientCapabilities } from '../protocol/apps.js';
import type { HostConfig, ServerConfig, ServerHealth } from '../host/index.js';
import type { Transport } from '../jsonrpc/index.js';
import type { Subscription, TaskInfo } from '../client/index.js';
import { Playground, playgroundLlm } from './playground.js';
import type { PlaygroundEvent } from './playground.js';
import { TYPED_MODEL, WebUi } from './web-ui.js';
import type { LoadBucket, LoadReport } from '../host/load/load-run.js';
import type { Question } from './web-ui.js';
import { WireRecorder } from './wire-recorder.js';
import type { WireDirection } from './wire-recorder.js';

/** One entry of the wire history. */
export interface WireEntry {
  seq: number;
  time: number;
  server: string;
  dir: WireDirection;
  message: unknown;
  invalid?: string;
}

/** An event sent to the page. */
export type InspectorEvent =
  | { type: 'health'; health: ServerView }
  | { type: 'catalog'; catalog: CatalogView }
  | { type: 'wire'; entry: WireEntry }
  | { type: 'log'; entry: LogEntry }
  | { type: 'notice'; entry: NoticeEntry }
  | { type: 'question'; added?: Question; removed?: string }
  | { type: 'progress'; callId: string; progress: unknown }
  | { type: 'task'; callId: string; task: TaskInfo }
  | { type: 'targets'; targets: InspectorSnapshot['targets'] }
  | { type: 'subscription'; id: string; event: unknown }
  | { type: 'playground'; event: PlaygroundEvent }
  | { type: 'load'; runId: string; started?: number; bucket?: LoadBucket; report?: LoadReport };

export interface LogEntry {
  time: number;
  server: string;
  level: string;
  logger: string | undefined;
  data: unknown;
}

export interface NoticeEntry {
  time: number;
  server: string | undefined;
  message: string;
}

/** A server's health, with what it said about itself once connected. */
export interface ServerView extends ServerHealth {
  capabilities: Record<string, unknown> | undefined;
  instructions: string | undefined;
}

/** The catalog as the page shows it, per server. */
export interface CatalogView {
  tools: Array<{ server: string; name: string; alias: string; definition: unknown; warnings: unknown }>;
  resources: Array<{ server: string; definition: unknown }>;
  templates: Array<{ server: string; definition: unknown }>;
  prompts: Array<{ server: string; name: string; definition: unknown }>;
}

/** Everything the page needs when it (re)connects. */
export interface InspectorSnapshot {
  servers: ServerView[];
  targets: Array<{ name: string; transport: string; target: string }>;
  catalog: CatalogView;
  questions: Question[];
  wire: WireEntry[];
  logs: LogEntry[];
  notices: NoticeEntry[];
  subscriptions: Array<{ id: string; server: string; uri: string }>;
}

const WIRE_KEEP = 2000;
const LOGS_KEEP = 1000;
/** A message larger than this is kept as a summary in the history (the call's result still has it all). */
const WIRE_MESSAGE_BYTES = 512 * 1024;

/** The page's timeout settings for one request; each absent one is the server's or client's default. */
export interface RequestTimeouts {
  timeoutMs?: number;
  /** A progress notification starts `timeoutMs` again. */
  resetTimeoutOnProgress?: boolean;
  /** The bound on the whole request, progress or not. */
  maxTotalTimeoutMs?: number;
}

/** Options of {@link InspectorHost}. */
export interface InspectorHostOptions {
  /** Builds a server's transport (default: the host's stdio and HTTP transports). */
  serverTransport?: (config: ServerConfig) => Transport;
  /** The playground's model: a configured model id, or `provider:model` (see {@link playgroundLlm}). */
  model?: string;
  /** Sees every message whole, before the history summarises a large one (`--record`). */
  onwire?: (entry: WireEntry) => void;
}

/**
 * The inspector's session: one {@link Host} over the target's servers, with every
 * message recorded. Call tools, read resources and get prompts through the host (and
 * so through its policy), answer the host's questions from the page.
 */
export class InspectorHost {
  readonly host: Host;
  readonly ui = new WebUi();
  /** The chat with the servers' tools through the configured model. */
  readonly playground: Playground;
  private readonly listeners = new Set<(e: InspectorEvent) => void>();
  private readonly wire: WireEntry[] = [];
  private readonly logs: LogEntry[] = [];
  private readonly notices: NoticeEntry[] = [];
  private readonly subscriptions = new Map<string, { server: string; uri: string; sub: Subscription }>();
  private seq = 0;
  private nextId = 1;
  private readonly make: (config: ServerConfig) => Transport;

  private readonly onwire: ((entry: WireEntry) => void) | undefined;

  constructor(
    readonly config: HostConfig,
    options: InspectorHostOptions = {},
  ) {
    this.onwire = options.onwire;
    const make = (this.make = options.serverTransport ?? ((c: ServerConfig) => serverTransport(c)));
    const llm = playgroundLlm(config.llm, options.model);
    this.host = new Host(config, {
      ui: this.ui,
      clientInfo: { name: 'mcpkit-inspector', version: '0.1.0' },
      pinning: 'off',
      // Sampling is answered by the person at the page, who types the model's reply, or
      // (approved in the page) by the playground's model from the config or `--model`.
      llm: { config: llm.llm, provider: new InteractiveProvider(this.ui), model: TYPED_MODEL },
      // The page opens an approved URL itself, in a new tab.
      openUrl: async () => undefined,
      logsPerSecond: 200,
      // The page renders MCP App views, so servers may offer them.
      clientCapabilities: appsClientCapabilities(),
      serverTransport: (c) =>
        new WireRecorder(make(c), (dir, message, invalid) => this.record(c.name, dir, message, invalid)),
    });
    this.ui.onchange = (change) => this.emit({ type: 'question', ...change });
    this.playground = new Playground(this.host, llm, (event) => this.emit({ type: 'playground', event }));
    this.ui.onsampled = (review) => this.playground.sampled(review);
    this.host.on('health', (health) => this.emit({ type: 'health', health: this.view(health) }));
    this.host.on('catalog', () => this.emit({ type: 'catalog', catalog: this.catalog() }));
    this.host.on('log', (l) => {
      const entry: LogEntry = { time: Date.now(), ...l };
      push(this.logs, entry, LOGS_KEEP);
      this.emit({ type: 'log', entry });
    });
    this.host.on('notice', (n) => {
      const entry: NoticeEntry = { time: Date.now(), ...n };
      push(this.notices, entry, LOGS_KEEP);
      this.emit({ type: 'notice', entry });
    });
  }

  /** Starts every server; resolves when each has settled its first attempt. */
  async start(): Promise<void> {
    await this.host.start();
  }

  async close(): Promise<void> {
    this.playground.stop();
    this.ui.cancelAll();
    for (const s of this.subscriptions.values()) await s.sub.close().catch(() => undefined);
    this.subscriptions.clear();
    await this.host.close();
  }

  /** Adds a live listener; returns the function that removes it. */
  subscribe(listener: (e: InspectorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): InspectorSnapshot {
    return {
      servers: this.host.health().map((h) => this.view(h)),
      targets: this.targets(),
      catalog: this.catalog(),
      questions: this.ui.questions(),
      wire: [...this.wire],
      logs: [...this.logs],
      notices: [...this.notices],
      subscriptions: [...this.subscriptions].map(([id, s]) => ({ id, server: s.server, uri: s.uri })),
    };
  }

  private targets(): InspectorSnapshot['targets'] {
    return Object.values(this.config.servers).map((s) => ({
      name: s.name,
      transport: s.transport,
      target: s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : s.url,
    }));
  }

  /**
   * Connects one more server, from an `mcpServers` entry typed in the page (`command` and
   * `args`, or `url` with an optional `type`). Typing the command is the consent to run it,
   * as on the command line. Resolves once its first attempt has settled.
   */
  async addServer(name: string, entry: Record<string, unknown>): Promise<ServerView> {
    if (!/^[\w.-]{1,64}$/.test(name))
      throw new Error('A server name is 1 to 64 letters, digits, "_", "." or "-"');
    const parsed = parseHostConfig({ mcpServers: { [name]: entry } }, { env: process.env });
    const server = parsed.servers[name]!;
    const pending = this.host.addServer(server);
    this.emit({ type: 'targets', targets: this.targets() });
    return this.view(await pending);
  }

  /** Drops a server's connection and connects it again (a new process for stdio). */
  async reconnect(server: string): Promise<ServerView> {
    return this.view(await this.host.restartServer(server));
  }

  /**
   * The servers as an `mcpServers` config (Claude Desktop, Cursor, VS Code and mcpkit
   * read it): to paste into a client. Environment variables and headers are included as
   * configured, since the person asking for it is the one who configured them.
   */
  configSnippet(): { mcpServers: Record<string, Record<string, unknown>> } {
    const mcpServers: Record<string, Record<string, unknown>> = {};
    for (const s of Object.values(this.config.servers)) {
      mcpServers[s.name] =
        s.transport === 'stdio'
          ? {
              command: s.command,
              args: [...s.args],
              ...(Object.keys(s.env).length ? { env: { ...s.env } } : {}),
              ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
            }
          : {
              type: s.transport,
              url: s.url,
              ...(Object.keys(s.headers).length ? { headers: { ...s.headers } } : {}),
            };
    }
    return { mcpServers };
  }

  catalog(): CatalogView {
    const c = this.host.catalog;
    return {
      tools: c.tools().map((t) => ({
        server: t.server,
        name: t.name,
        alias: t.alias,
        definition: t.definition,
        warnings: t.warnings,
      })),
      resources: c.resources().map((r) => ({ server: r.server, definition: r.definition })),
      templates: c.resourceTemplates().map((r) => ({ server: r.server, definition: r.definition })),
      prompts: c.prompts().map((p) => ({ server: p.server, name: p.name, definition: p.definition })),
    };
  }

  /**
   * Calls a tool through the host; progress, and the task's states when the tool runs as
   * a task (required by the tool or chosen by the server), go to the page under `callId`.
   */
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    callId: string,
    signal: AbortSignal,
    caller: 'inspector' | 'app' = 'inspector',
    timeouts: RequestTimeouts = {},
  ) {
    return this.host.callTool({ server, tool }, args, {
      caller,
      signal,
      ...timeouts,
      onprogress: (progress) => this.emit({ type: 'progress', callId, progress }),
      onTaskStatus: (task) => this.emit({ type: 'task', callId, task }),
    });
  }

  readResource(server: string, uri: string, signal: AbortSignal, timeouts: RequestTimeouts = {}) {
    return this.host.readResource(server, uri, { caller: 'inspector', signal, ...timeouts });
  }

  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
    timeouts: RequestTimeouts = {},
  ) {
    return this.host.getPrompt({ server, prompt: name }, args, { caller: 'inspector', signal, ...timeouts });
  }

  /** Completion of a prompt or template argument (not a policy matter: it runs nothing). */
  complete(server: string, params: Record<string, unknown>, signal: AbortSignal) {
    return this.live(server).complete(params as never, { signal });
  }

  /** A liveness check: `ping` (legacy), `server/discover` (modern, which has no ping). Its time in ms. */
  async ping(server: string, signal: AbortSignal): Promise<{ ms: number; method: string }> {
    const client = this.live(server);
    const started = performance.now();
    const method = client.era === 'modern' ? 'server/discover' : 'ping';
    if (method === 'ping') await client.ping({ signal });
    else await client.discover({ signal });
    return { ms: Math.round((performance.now() - started) * 10) / 10, method };
  }

  setLogLevel(server: string, level: string, signal: AbortSignal) {
    return this.live(server).setLoggingLevel(level as never, { signal });
  }

  /** Changes the roots one server is told (the host keeps them within its own roots, if any). */
  setRoots(server: string, paths: readonly string[]) {
    return this.host.setRoots(server, paths);
  }

  /** One page of the server's tasks (`tasks/list`, 2025-11-25 only: the extension has no listing). */
  listTasks(server: string, signal: AbortSignal) {
    return this.live(server).tasks.list(undefined, { signal });
  }

  /** Asks the server to cancel a task (`tasks/cancel`, both generations). */
  cancelTask(server: string, taskId: string, signal: AbortSignal) {
    return this.live(server).tasks.cancel(taskId, { signal });
  }

  /** A task's state now (`tasks/get`). */
  getTask(server: string, taskId: string, signal: AbortSignal) {
    return this.live(server).tasks.get(taskId, { signal });
  }

  /** Watches one resource for `notifications/resources/updated` (both eras). */
  async subscribeResource(server: string, uri: string): Promise<string> {
    const sub = await this.live(server).subscribe({ resources: [uri] });
    const id = `s${this.nextId++}`;
    this.subscriptions.set(id, { server, uri, sub });
    this.emit({ type: 'subscription', id, event: { type: 'started', server, uri } });
    void (async () => {
      try {
        for await (const event of sub) this.emit({ type: 'subscription', id, event });
      } catch {
        // the connection went away: the subscription ends with it
      }
      if (this.subscriptions.get(id)?.sub === sub) {
        this.subscriptions.delete(id);
        this.emit({ type: 'subscription', id, event: { type: 'ended' } });
      }
    })();
    return id;
  }

  async unsubscribe(id: string): Promise<boolean> {
    const s = this.subscriptions.get(id);
    if (!s) return false;
    this.subscriptions.delete(id);
    await s.sub.close();
    this.emit({ type: 'subscription', id, event: { type: 'ended' } });
    return true;
  }

  /** A server's config and a new, unrecorded transport to it (the Load view's own connections). */
  newConnection(server: string): { config: ServerConfig; transport: Transport } {
    const config = this.config.servers[server];
    if (!config) throw new Error(`No server named "${server}"`);
    return { config, transport: this.make(config) };
  }

  /** Sends an event to every page (for the API's longer operations: a load run's progress). */
  publish(e: InspectorEvent): void {
    this.emit(e);
  }

  private view(h: ServerHealth): ServerView {
    const client = h.state === 'ready' ? this.host.client(h.name) : undefined;
    return {
      ...h,
      capabilities: client?.serverCapabilities as Record<string, unknown> | undefined,
      instructions: client?.instructions,
    };
  }

  private live(server: string) {
    const client = this.host.client(server);
    if (!client) {
      const h = this.host.health().find((x) => x.name === server);
      throw new Error(h ? `Server "${server}" is ${h.state}` : `No server named "${server}"`);
    }
    return client;
  }

  private record(server: string, dir: WireDirection, message: unknown, invalid?: string): void {
    let kept = message;
    const text = JSON.stringify(message) ?? '';
    if (text.length > WIRE_MESSAGE_BYTES) {
      const m = message as { id?: unknown; method?: unknown };
      kept = { id: m?.id, method: m?.method, _inspector: `(${text.length} bytes, not kept in the history)` };
    }
    const entry: WireEntry = { seq: ++this.seq, time: Date.now(), server, dir, message: kept };
    if (invalid !== undefined) entry.invalid = invalid;
    if (this.onwire) {
      try {
        this.onwire(kept === message ? entry : { ...entry, message });
      } catch {
        // a broken recorder must not break the session
      }
    }
    push(this.wire, entry, WIRE_KEEP);
    this.emit({ type: 'wire', entry });
  }

  private emit(e: InspectorEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // one broken page must not break the others
      }
    }
  }
}

function push<T>(list: T[], item: T, keep: number): void {
  list.push(item);
  if (list.length > keep) list.splice(0, list.length - keep);
}
