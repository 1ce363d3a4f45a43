/**
 * Gateway mode: the host serves its aggregated catalog as one MCP server. Tools and
 * prompts appear under their aliases (`server__tool`), resources under their own URIs
 * (a URI two servers share under {@link gatewayUri}; for a shared URI template, the first
 * server in config order serves it);
 * every call is proxied to the upstream server through the host's policy, approvals,
 * rate limits and audit log. The list follows the catalog (`list_changed` goes out to
 * connected clients when it changes).
 *
 * MCP Apps pass through: a tool keeps its `_meta` (so `_meta.ui` reaches the client's
 * host) and the `ui://` views its tools name stay readable. A tool only an app may call
 * (`visibility: ["app"]`) is listed only to clients that render app views (the host there
 * keeps it from its model, as the Apps specification asks); to any other client, which
 * treats its tool list as the model's, it does not exist. A view calls its server's tools
 * by their own names, so an app-callable tool also answers to its upstream name when the
 * gateway renames it (`server__tool`) and no other tool has that name.
 *
 * Per-caller catalogs: `visibility` rules (`mcpkit.gateway.visibility`) show a server's items,
 * or some of its tools, only to callers whose token holds the scopes and claims they name. To
 * any other caller those items do not exist: unlisted (pages cut from what it sees), and
 * unknown when called, read, got or completed, with the very error a missing name gets.
 */
import { hostKind } from '../../auth/client/network-policy.js';
import { LocalError, WireError } from '../../jsonrpc/index.js';
import { principalOf } from '../../protocol/principal.js';
import type { CallToolResult, PromptMessage } from '../../protocol/types/index.js';
import {
  APP_MIME_TYPE,
  appResourceUri,
  isAppCallable,
  isModelVisible,
  supportsAppViews,
} from '../../protocol/apps.js';
import { McpServer } from '../../server/server.js';
import type { MiddlewareRequest, Registration, StandardSchemaLike } from '../../server/index.js';
import type { RawJsonSchema } from '../../server/schema-adapter.js';
import type { ServerContext } from '../../server/server-context.js';
import { HostError, errorText } from '../errors.js';
import type { CatalogTool } from '../catalog/catalog.js';
import type { GatewayVisibilityRule } from '../config/config-types.js';
import { callerOf, compileVisibility } from '../../server/visibility.js';
import type { VisibilityCheck, VisibleTo } from '../../server/visibility.js';
import type { Host } from '../host.js';
import type { HostCallOptions } from '../host-calls.js';
import type { NodeAuthenticator, ServeOptions } from '../../serve/index.js';
import type { TelemetrySetting } from '../../telemetry/telemetry-options.js';

/** Options of {@link Gateway}. */
export interface GatewayOptions {
  /** How the gateway introduces itself (default `mcpkit-gateway`). */
  info?: { name: string; version: string };
  /**
   * `alias` (default): `server__tool`, collision-free across servers. `original`: the
   * upstream names unchanged (a bridge of one server); a name two servers share is then
   * served by neither.
   */
  names?: 'alias' | 'original';
  /** Only these servers are exposed (default: all). */
  servers?: readonly string[];
  /** The caller named in approvals and the audit log (default `gateway`). */
  caller?: string;
  instructions?: string;
  /**
   * Which callers see which servers' items, by the scopes and claims of their tokens
   * (default: the config's `mcpkit.gateway.visibility`). Every rule that names an item
   * must pass; an unauthenticated caller passes none.
   */
  visibility?: readonly GatewayVisibilityRule[];
  /**
   * OpenTelemetry for the gateway's server (see `ServerOptions.telemetry`): a `SERVER` span per
   * caller request. Give the host `telemetry` too, and each upstream `CLIENT` span is its child.
   */
  telemetry?: TelemetrySetting;
}

/** Options of {@link Gateway.serveHttp}. */
export interface GatewayHttpOptions extends Pick<
  ServeOptions,
  'port' | 'path' | 'allowedHosts' | 'allowedOrigins'
> {
  /** The interface to bind (default 127.0.0.1, loopback only). */
  host?: string;
  /**
   * Authenticates every HTTP request before MCP sees it, answering 401 itself when it
   * refuses: `gatewayAuthenticator(config.gateway.auth)`, or `bearerAuth(...).node`.
   * The caller's principal is then named in the audit log and matched by the per-caller
   * rules (`mcpkit.gateway.principals`).
   */
  authenticate?: NodeAuthenticator;
  /**
   * Serve a non-loopback address without `authenticate`: only behind a proxy that
   * authenticates every request itself. Without it, such a bind is refused.
   */
  allowUnauthenticated?: boolean;
}

/** A Standard Schema that accepts anything: the upstream server validates its own input. */
const PASS_THROUGH: StandardSchemaLike = {
  '~standard': { version: 1, vendor: 'mcpkit-gateway', validate: (value: unknown) => ({ value }) },
};

interface Entry {
  key: string;
  registration: Registration;
}

/**
 * An MCP server that fronts the host's servers.
 *
 * @example
 * ```ts
 * const gateway = new Gateway(host);
 * const running = await gateway.serveHttp({ port: 3000 });   // or: await gateway.serveStdio();
 * console.error(`One endpoint for every server: ${running.url}`);
 * ```
 */
export class Gateway {
  readonly server: McpServer;
  private readonly entries = new Map<string, Entry>();
  /** The catalog tool behind each tool name the gateway serves. */
  private served = new Map<string, CatalogTool>();
  /** App-callable tools under their upstream names, where the gateway serves them renamed. */
  private appNames = new Map<string, CatalogTool>();
  private readonly unsubscribe: () => void;
  private pending = false;
  private closeServing: Array<() => Promise<void>> = [];
  /** The visibility rules, each compiled once. */
  private readonly rules: ReadonlyArray<{ rule: GatewayVisibilityRule; check: VisibilityCheck }>;

  constructor(
    private readonly host: Host,
    private readonly options: GatewayOptions = {},
  ) {
    this.server = new McpServer(options.info ?? { name: 'mcpkit-gateway', version: '0.1.0' }, {
      ...(options.instructions ? { instructions: options.instructions } : {}),
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
      logger: () => undefined,
    });
    this.rules = (options.visibility ?? host.config.gateway?.visibility ?? []).map((rule) => ({
      rule,
      check: compileVisibility({ scopes: rule.scopes, claims: rule.claims }, `visibility of ${rule.server}`)!,
    }));
    this.unsubscribe = host.on('catalog', () => this.schedule());
    // One layer, and only around the two methods it filters: every other request goes
    // straight to its handler.
    this.server.use({
      type: 'wrap',
      name: 'gateway',
      events: ['tools/list', 'tools/call'],
      wrap: (request: MiddlewareRequest, next: () => Promise<unknown>) =>
        request.method === 'tools/list' ? this.listFilter(request, next) : this.appsFilter(request, next),
    });
    this.sync();
  }

  /** Serves over this process's stdin and stdout. Don't use a terminal UI reading stdin then. */
  async serveStdio(): Promise<void> {
    const { StdioServerTransport } = await import('../../transports/stdio/index.js');
    const session = await this.server.connect(new StdioServerTransport());
    this.closeServing.push(() => session.close());
  }

  /**
   * Serves Streamable HTTP (both eras, with the legacy SSE endpoints) on loopback by default.
   * Every caller uses the upstream servers under the gateway's own credentials, so a
   * non-loopback `host` is refused (a {@link HostError} `Unprotected`) unless callers are
   * authenticated (`authenticate`) or `allowUnauthenticated` says a proxy in front does it.
   */
  async serveHttp(options: GatewayHttpOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
    const { allowUnauthenticated: _, ...serveOptions } = options;
    checkGatewayBind(options);
    const { serve } = await import('../../serve/index.js');
    const running = await serve(this.server, serveOptions);
    this.closeServing.push(() => running.close());
    return running;
  }

  /** Stops serving and following the catalog (the host itself stays up). */
  async close(): Promise<void> {
    this.unsubscribe();
    await Promise.all(this.closeServing.map((c) => c().catch(() => undefined)));
    await this.server.close();
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.sync();
    });
  }

  private exposed(server: string): boolean {
    return !this.options.servers || this.options.servers.includes(server);
  }

  /** Brings the registrations in line with the catalog: adds, removes and re-registers what changed. */
  sync(): void {
    const wanted = new Map<string, { key: string; register: () => Registration }>();
    const original = this.options.names === 'original';
    const tools = this.host.catalog.usableTools().filter((t) => this.exposed(t.server));
    const counts = countBy(tools.map((t) => t.name));
    const served = new Map<string, CatalogTool>();
    const views = new Map<string, string>();
    for (const t of tools) {
      const name = original ? t.name : t.alias;
      if (original && counts.get(t.name)! > 1) continue;
      if (t.definition.inputSchema?.type !== 'object') continue;
      served.set(name, t);
      const view = appResourceUri(t.definition);
      if (view !== undefined && !views.has(view)) views.set(view, t.server);
      const { title, description, annotations, icons, outputSchema, execution, _meta } = t.definition;
      wanted.set(`tool:${name}`, {
        key: t.hash,
        register: () =>
          this.server.tool(
            {
              name,
              ...(title !== undefined ? { title } : {}),
              ...(description !== undefined ? { description } : {}),
              input: PASS_THROUGH,
              inputJsonSchema: t.definition.inputSchema as RawJsonSchema,
              ...(outputSchema
                ? { output: PASS_THROUGH, outputJsonSchema: outputSchema as RawJsonSchema }
                : {}),
              ...(annotations ? { annotations } : {}),
              ...(icons ? { icons } : {}),
              // A task tool stays one: the gateway runs its side as a task too.
              ...(execution?.taskSupport ? { execution: { taskSupport: execution.taskSupport } } : {}),
              // `_meta.ui` (the view, the visibility) is for the client's host to act on.
              ...(_meta ? { _meta } : {}),
              ...this.visibleTo(t.server, t.name),
            },
            (args, ctx) => this.callTool(t.server, t.name, args as Record<string, unknown>, ctx),
          ),
      });
    }
    this.served = served;
    this.appNames = new Map();
    if (!original) {
      const upstream = countBy([...served.values()].map((t) => t.name));
      for (const t of served.values())
        if (isAppCallable(t.definition) && upstream.get(t.name) === 1 && !served.has(t.name))
          this.appNames.set(t.name, t);
    }
    const resources = this.host.catalog.resources().filter((r) => this.exposed(r.server));
    const uriCounts = countBy(resources.map((r) => r.uri));
    // A view its server leaves out of resources/list (the specification allows it) is still read here.
    for (const [uri, server] of views) {
      if (resources.some((r) => r.uri === uri)) continue;
      wanted.set(`resource:${uri}`, {
        key: `view:${server}`,
        register: () =>
          this.server.resource(
            { uri, name: uri, mimeType: APP_MIME_TYPE, ...this.visibleTo(server) },
            (_uri, ctx) => this.read(server, uri, ctx),
          ),
      });
    }
    for (const r of resources) {
      // A URI two servers share is served under a per-server URI, so neither hides the other.
      const uri = uriCounts.get(r.uri)! > 1 ? gatewayUri(r.server, r.uri) : r.uri;
      wanted.set(`resource:${uri}`, {
        key: JSON.stringify(r.definition),
        register: () =>
          this.server.resource(
            { ...r.definition, uri, name: r.definition.name ?? r.uri, ...this.visibleTo(r.server) } as never,
            (_uri, ctx) => this.read(r.server, r.uri, ctx),
          ),
      });
    }
    for (const t of this.host.catalog.resourceTemplates().filter((x) => this.exposed(x.server))) {
      if (wanted.has(`template:${t.uriTemplate}`)) continue;
      wanted.set(`template:${t.uriTemplate}`, {
        key: JSON.stringify(t.definition),
        register: () =>
          this.server.resourceTemplate(
            { ...t.definition, ...this.visibleTo(t.server) } as never,
            (uri, _vars, ctx) => this.read(t.server, uri, ctx),
          ),
      });
    }
    for (const p of this.host.catalog.prompts().filter((x) => this.exposed(x.server))) {
      const name = original ? p.name : p.alias;
      if (wanted.has(`prompt:${name}`)) continue;
      wanted.set(`prompt:${name}`, {
        key: JSON.stringify(p.definition),
        register: () =>
          this.server.prompt(
            {
              name,
              ...(p.definition.title !== undefined ? { title: p.definition.title } : {}),
              ...(p.definition.description !== undefined ? { description: p.definition.description } : {}),
              arguments: (p.definition.arguments ?? []).map((a) => ({ ...a })),
              ...this.visibleTo(p.server),
            },
            async (args, ctx) => {
              const r = await this.host.getPrompt(
                { server: p.server, prompt: p.name },
                args,
                this.callOptions(ctx),
              );
              return {
                ...(r.description ? { description: r.description } : {}),
                messages: r.messages as PromptMessage[],
              };
            },
          ),
      });
    }
    for (const [k, e] of this.entries) {
      if (wanted.get(k)?.key === e.key) continue;
      e.registration.remove();
      this.entries.delete(k);
    }
    for (const [k, w] of wanted) {
      if (this.entries.has(k)) continue;
      try {
        this.entries.set(k, { key: w.key, registration: w.register() });
      } catch (e) {
        this.host.audit({
          time: new Date().toISOString(),
          kind: 'tool',
          caller: 'gateway',
          server: '',
          target: k,
          decision: 'refused',
          outcome: 'not-run',
          error: errorText(e),
        });
      }
    }
  }

  /**
   * What a caller's tool list holds. The Apps rule a plain server has no reason to know:
   * app-only tools are not listed to a client that renders no views. With per-caller rules,
   * the list holds only the tools the caller may call (the calls themselves are refused by
   * the host's policy either way).
   */
  private async listFilter(request: MiddlewareRequest, next: () => Promise<unknown>): Promise<unknown> {
    const listed = (await next()) as { tools: Array<{ name: string; _meta?: unknown }> };
    const views = supportsAppViews(request.ctx.client.capabilities);
    const result = views ? listed : { ...listed, tools: listed.tools.filter((t) => isModelVisible(t)) };
    const principal = principalOf(request.ctx.authInfo) ?? null;
    const policy = this.host.policy;
    const tools = result.tools.filter((t) => {
      const tool = this.served.get(t.name) ?? this.appNames.get(t.name);
      return !tool || policy.principalAllows(tool.server, tool.name, principal);
    });
    return tools.length === result.tools.length ? result : { ...result, tools };
  }

  /**
   * The Apps rules for a call: an app-only tool is not callable by a client that renders no
   * views, and a view's call by upstream name reaches its tool.
   */
  private appsFilter(request: MiddlewareRequest, next: () => Promise<unknown>): Promise<unknown> {
    const name = request.params.name;
    if (typeof name !== 'string') return next();
    const tool = this.served.get(name);
    if (tool) {
      if (!isModelVisible(tool.definition) && !supportsAppViews(request.ctx.client.capabilities))
        return Promise.reject(unknownTool(name));
      return next();
    }
    const byUpstreamName = supportsAppViews(request.ctx.client.capabilities)
      ? this.appNames.get(name)
      : undefined;
    // Hidden from this caller, it is as unknown by its upstream name as by its alias.
    if (!byUpstreamName || !this.sees(byUpstreamName.server, byUpstreamName.name, request.ctx.authInfo))
      return next();
    const args = request.params.arguments;
    return this.callTool(
      byUpstreamName.server,
      byUpstreamName.name,
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {},
      request.ctx,
    );
  }

  /** The registration option hiding a server's item (`tool`, or any item) by the visibility rules. */
  private visibleTo(server: string, tool?: string): { visibleTo?: VisibleTo } {
    const checks = this.rules
      .filter(
        ({ rule }) =>
          rule.server === server &&
          (rule.tools === undefined || (tool !== undefined && rule.tools.includes(tool))),
      )
      .map((r) => r.check);
    if (checks.length === 0) return {};
    return { visibleTo: checks.length === 1 ? checks[0]! : (caller) => checks.every((c) => c(caller)) };
  }

  /** Whether the caller with `authInfo` sees `tool` of `server`. */
  private sees(server: string, tool: string, authInfo: unknown): boolean {
    const rule = this.visibleTo(server, tool).visibleTo as VisibilityCheck | undefined;
    return rule === undefined || rule(callerOf(authInfo));
  }

  /** The caller's principal goes with every call: the audit names it, the per-caller rules match it (null: not authenticated). */
  private callOptions(ctx: ServerContext): HostCallOptions {
    return {
      caller: this.options.caller ?? 'gateway',
      principal: principalOf(ctx.authInfo) ?? null,
      signal: ctx.signal,
    };
  }

  private async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
  ): Promise<CallToolResult> {
    const options = this.callOptions(ctx);
    // Progress and status go back only where the caller can see them: it asked for progress,
    // or the call runs (or may come to run) as a task. Otherwise no closures per call.
    if (ctx.request.progressToken !== undefined || ctx.taskId !== undefined || this.taskTool(server, tool)) {
      options.onprogress = (p) => ctx.progress(p.progress, p.total, p.message);
      options.onTaskStatus = (t) => {
        if (t.statusMessage !== undefined) ctx.status(t.statusMessage);
      };
    }
    // A downstream task makes an upstream task (where the tool allows one).
    if (ctx.taskId !== undefined) options.asTask = true;
    try {
      return await this.host.callTool({ server, tool }, args, options);
    } catch (e) {
      // The host's refusals and local failures are results the model can read; a server's
      // own protocol error passes through as it was.
      if (e instanceof WireError) throw e;
      const text =
        e instanceof HostError
          ? `Refused by the host: ${e.message}`
          : e instanceof LocalError
            ? e.message
            : errorText(e);
      return { content: [{ type: 'text', text }], isError: true };
    }
  }

  /** Whether a tool may run as a task upstream (its `execution.taskSupport`). */
  private taskTool(server: string, tool: string): boolean {
    const support = this.host.catalog.find(server, tool)?.definition.execution?.taskSupport;
    return support !== undefined && support !== 'forbidden';
  }

  private async read(server: string, uri: string, ctx: ServerContext) {
    try {
      return await this.host.readResource(server, uri, this.callOptions(ctx));
    } catch (e) {
      if (e instanceof WireError) throw e;
      throw new WireError(
        -32603,
        e instanceof HostError ? `Refused by the host: ${e.message}` : errorText(e),
      );
    }
  }
}

/**
 * Throws a {@link HostError} `Unprotected` for a gateway that would serve a non-loopback
 * address without authenticating its callers (and without `allowUnauthenticated`): anyone
 * who reaches it would call every upstream tool with the gateway's credentials.
 * {@link Gateway.serveHttp} checks this; call it to refuse before starting anything.
 *
 * @example
 * ```ts
 * checkGatewayBind({ host: '0.0.0.0' }); // throws: no authenticate
 * checkGatewayBind({ host: '0.0.0.0', authenticate: gatewayAuthenticator(config.gateway!.auth!) }); // fine
 * ```
 */
export function checkGatewayBind(
  options: Pick<GatewayHttpOptions, 'host' | 'authenticate' | 'allowUnauthenticated'>,
): void {
  const host = options.host ?? '127.0.0.1';
  if (options.authenticate || options.allowUnauthenticated === true || hostKind(host) === 'loopback') return;
  throw new HostError(
    'Unprotected',
    `The gateway will not serve ${host} without authenticating its callers: anyone who reaches it ` +
      "would call every upstream tool with the gateway's credentials. Give it `authenticate` " +
      '(mcpkit.gateway.auth in the config, --auth-token-env on the command line), or ' +
      '`allowUnauthenticated` (--allow-unauthenticated) if a proxy in front authenticates every request.',
  );
}

/**
 * The URI under which the gateway serves a resource whose URI another server also uses:
 * `mcp-gateway://<server>/<the original URI, percent-encoded>`.
 *
 * @example
 * ```ts
 * gatewayUri('docs', 'file:///README.md'); // 'mcp-gateway://docs/file%3A%2F%2F%2FREADME.md'
 * ```
 */
export function gatewayUri(server: string, uri: string): string {
  return `mcp-gateway://${encodeURIComponent(server)}/${encodeURIComponent(uri)}`;
}

/** The same answer as for a tool that does not exist: an app-only tool is no business of this client. */
function unknownTool(name: string): WireError {
  return WireError.invalidParams(`Unknown tool: ${name.length > 100 ? name.slice(0, 100) + '…' : name}`);
}

function countBy(names: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const n of names) m.set(n, (m.get(n) ?? 0) + 1);
  return m;
}
