import { WireError } from '../../jsonrpc/index.js';
import type { Params, Transport } from '../../jsonrpc/index.js';
import { APPS_PROTOCOL_VERSION } from '../../protocol/apps.js';
import { LATEST_LEGACY_VERSION, LEGACY_VERSIONS } from '../../protocol/versions.js';
import { Session, serverRole } from '../../session/index.js';
import type { SessionRole } from '../../session/index.js';
import type { RequestContext } from '../../session/index.js';
import { PostMessageTransport } from '../../transports/post-message/index.js';
import type {
  AppBridgeOptions,
  AppMountOptions,
  AppInitializeParams,
  AppLog,
  AppModelContext,
  AppSandbox,
  DisplayMode,
  HostContext,
  ViewTool,
} from './app-bridge-types.js';
import type { AppResource } from './app-resource.js';
import { appDomainLabel } from './app-domain.js';
import { approvedCsp, buildAppCsp, grantPermissions, permissionsAllow } from './csp.js';
import { DEFAULT_VIEW_SANDBOX } from './sandbox-proxy.js';
import { checkSamplingParams, readDownloadItems, readViewTools } from './view-requests.js';
import { ViewProxy, denied } from './view-proxy.js';
import { isObject } from '../../jsonrpc/is-object.js';

export type { AppBridgeOptions, AppMountOptions } from './app-bridge-types.js';

/**
 * The host's end of the view channel: a server, except that both sides send `tools/call`
 * (the view's tools, the server's) and the view asks for sampling, so the handlers the
 * bridge registers are the only gate.
 */
const VIEW_CHANNEL_ROLE: SessionRole = { ...serverRole, checkMethods: false };

const DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip'];
const CONTENT_KINDS = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {} };

/**
 * The host half of MCP Apps for one view: it frames the view through a sandbox proxy on
 * another origin, answers `ui/initialize` with the host's capabilities and context, holds
 * every host-to-view message until `ui/notifications/initialized`, and serves the view's
 * requests: `tools/call`, `resources/read` and `resources/list` proxied to the view's own server (app-only
 * versus model-visible tools enforced, then the host's policy), `ui/open-link`,
 * `ui/message`, `ui/update-model-context`, `ui/request-display-mode`, size changes, logs
 * and pings. It speaks JSON-RPC through mcpkit's `Session` over a `PostMessageTransport`.
 * It runs in any browser page and imports nothing from Node.
 *
 * How a page embeds an app:
 * 1. Serve the sandbox proxy on a second origin: `sandboxProxyHtml()` as the body, with
 *    `SANDBOX_PROXY_HEADERS`, at e.g. `http://localhost:PORT/sandbox` while the page is on
 *    `http://127.0.0.1:PORT` (or use two ports). Another host name or port is enough; the
 *    page and the proxy must not share an origin. The proxy needs no token or cookie.
 * 2. Fetch the view with `loadAppResource(server, appResourceUri(tool)!)`.
 * 3. Create an `AppBridge`, `mount` it, then send the tool's input and result; they reach
 *    the view once it has initialized.
 * 4. `teardown()` when the view goes away.
 *
 * @example
 * ```ts
 * import { AppBridge, appResourceUri, loadAppResource } from 'mcpkit/host/apps';
 *
 * const { tools } = await client.listTools();
 * const tool = tools.find((t) => appResourceUri(t) !== undefined)!;
 * const resource = await loadAppResource(client, appResourceUri(tool)!);
 * const bridge = new AppBridge({
 *   server: client, // anything with callTool, readResource and listTools
 *   hostInfo: { name: 'my-host', version: '1.0.0' },
 *   hostContext: {
 *     theme: 'dark',
 *     displayMode: 'inline',
 *     locale: navigator.language,
 *     containerDimensions: { maxHeight: 600 },
 *   },
 *   onOpenLink: (link) => void window.open(link, '_blank', 'noopener'),
 *   onMessage: (m) => console.log('the view says', m.content),
 * });
 * await bridge.mount({
 *   container: document.getElementById('app')!,
 *   proxyUrl: 'http://localhost:8081/sandbox',
 *   resource,
 *   tool,
 * });
 * bridge.sendToolInput(args);
 * bridge.sendToolResult(await client.callTool({ name: tool.name, arguments: args }));
 * // later
 * await bridge.teardown('closed by the user');
 * ```
 */
export class AppBridge {
  /** The view's `appInfo` and `appCapabilities`, once it has sent `ui/initialize`. */
  appInfo: AppInitializeParams['appInfo'] | undefined;
  appCapabilities: AppInitializeParams['appCapabilities'] | undefined;
  /** The last `ui/update-model-context` from the view. */
  modelContext: AppModelContext | undefined;
  /** The sandbox applied to the view, once mounted. */
  sandbox: AppSandbox | undefined;
  /** The proxy iframe, once mounted. */
  iframe: HTMLIFrameElement | undefined;
  /** Resolves when the view has sent `ui/notifications/initialized`; rejects if the bridge closes first. */
  readonly ready: Promise<void>;

  private readonly options: AppBridgeOptions;
  private readonly session: Session;
  private context: HostContext;
  private readonly proxy: ViewProxy;
  private resource: AppResource | undefined;
  private resourceSent = false;
  private initializedFlag = false;
  private inputSent = false;
  private queue: Array<[string, Params]> = [];
  private closed = false;
  private markReady!: () => void;
  private failReady!: (e: Error) => void;

  constructor(options: AppBridgeOptions) {
    this.options = options;
    this.context = {
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      ...options.hostContext,
    };
    this.proxy = new ViewProxy(options);
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.failReady = reject;
    });
    // Nobody may be left with an unhandled rejection just for not awaiting `ready`.
    this.ready.catch(() => undefined);
    const session = new Session({
      role: VIEW_CHANNEL_ROLE,
      info: options.hostInfo ?? { name: 'mcpkit-host', version: '0.1.0' },
      capabilities: { tools: {}, resources: {}, logging: {} },
      versions: LEGACY_VERSIONS,
      timeoutMs: options.timeoutMs ?? 5000,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    // The Apps dialect has its own handshake (ui/initialize, served below), so the MCP
    // lifecycle of this engine starts out done.
    session.legacyState = 'ready';
    session.era = 'legacy';
    session.protocolVersion = LATEST_LEGACY_VERSION;
    this.session = session;
    this.register();
  }

  /** Whether the view has completed the handshake. */
  get initialized(): boolean {
    return this.initializedFlag;
  }

  /** The host context as the view currently knows it. */
  get hostContext(): Readonly<HostContext> {
    return this.context;
  }

  /**
   * Frames the view: appends a proxy iframe (another origin, `sandbox="allow-scripts
   * allow-same-origin allow-forms"`, no referrer, the granted permissions in `allow`) to the
   * container, connects the bridge to it, and hands it the view's HTML and sandbox
   * settings when it says it is ready. Resolves once the iframe is in the page; await
   * {@link ready} for the handshake.
   */
  async mount(options: AppMountOptions): Promise<HTMLIFrameElement> {
    if (this.iframe || this.resource) throw new Error('This bridge already has a view');
    const proxy = new URL(String(options.proxyUrl), globalThis.location?.href);
    // A view that declares `domain` gets its own origin (see app-domain.ts), when the host serves them.
    const domain = options.resource.meta.domain;
    if (options.domainOrigins && typeof domain === 'string' && domain !== '')
      proxy.hostname = `${appDomainLabel(domain)}.localhost`;
    const here = globalThis.location?.origin;
    if (here && proxy.origin === here) {
      throw new Error('The sandbox proxy must be served from an origin other than the page');
    }
    if (here) proxy.searchParams.set('host', here);
    this.prepare(options);
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.setAttribute('title', `MCP App: ${options.tool?.name ?? options.resource.uri}`);
    const allow = permissionsAllow(this.sandbox!.permissions);
    if (allow) iframe.setAttribute('allow', allow);
    iframe.style.border =
      options.resource.meta.prefersBorder === false ? '0' : '1px solid rgba(128,128,128,.4)';
    iframe.style.width = '100%';
    iframe.style.display = 'block';
    const dims = this.context.containerDimensions;
    if (dims?.height !== undefined) iframe.style.height = `${dims.height}px`;
    this.iframe = iframe;
    options.container.appendChild(iframe);
    const transport = new PostMessageTransport({
      target: iframe.contentWindow!,
      targetOrigin: proxy.origin,
      kind: 'app-view',
      onrejected: (event, reason) =>
        this.options.onRejected?.(`message from a wrong ${reason}`, event.origin),
    });
    await this.session.connect(transport);
    iframe.src = proxy.href;
    return iframe;
  }

  /**
   * Serves a view over a transport the caller set up (a desktop host's own iframe, a
   * MessagePort, a test): the same handshake and requests, without the proxy.
   */
  async connect(
    transport: Transport,
    options?: Omit<AppMountOptions, 'container' | 'proxyUrl'>,
  ): Promise<void> {
    if (options) this.prepare(options);
    await this.session.connect(transport);
  }

  /** The complete tool arguments; sent at most once, after the view has initialized. */
  sendToolInput(args: Record<string, unknown>): void {
    if (this.inputSent) return;
    this.inputSent = true;
    this.deliver('ui/notifications/tool-input', { arguments: args });
  }

  /** Partial arguments while they stream; ignored once the complete input was sent. */
  sendToolInputPartial(args: Record<string, unknown>): void {
    if (this.inputSent) return;
    this.deliver('ui/notifications/tool-input-partial', { arguments: args });
  }

  /** The tool's result (a `CallToolResult`). */
  sendToolResult(result: Record<string, unknown>): void {
    this.deliver('ui/notifications/tool-result', result);
  }

  /** The tool call was cancelled. */
  sendToolCancelled(reason = 'cancelled'): void {
    this.deliver('ui/notifications/tool-cancelled', { reason });
  }

  /**
   * Changes the host context (theme, size, locale...) and tells the view what changed
   * (`ui/notifications/host-context-changed` with only the changed fields).
   */
  setHostContext(patch: Partial<HostContext>): void {
    const changed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(patch)) {
      if (JSON.stringify(this.context[k]) !== JSON.stringify(v)) changed[k] = v;
    }
    if (Object.keys(changed).length === 0) return;
    this.context = { ...this.context, ...changed };
    // Before ui/initialize is answered, the answer itself carries the new context.
    if (this.appInfo) this.deliver('ui/notifications/host-context-changed', changed as Params);
  }

  /**
   * The tools the view exposes to the host (`tools/list` sent to the view), when it
   * declared `appCapabilities.tools`; none otherwise.
   */
  async listViewTools(options?: { signal?: AbortSignal }): Promise<ViewTool[]> {
    await this.ready;
    if (!isObject(this.appCapabilities?.tools)) return [];
    const result = await this.session.request(
      'tools/list',
      {},
      options?.signal ? { signal: options.signal } : {},
    );
    return readViewTools(result) as ViewTool[];
  }

  /** Calls one of the view's own tools (`tools/call` sent to the view); its `CallToolResult`. */
  async callViewTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, unknown>> {
    await this.ready;
    if (!isObject(this.appCapabilities?.tools)) throw new Error('The view exposes no tools');
    return this.session.request(
      'tools/call',
      { name, arguments: args },
      options?.signal ? { signal: options.signal } : {},
    );
  }

  /** Pings the view (after it has initialized). */
  async ping(): Promise<void> {
    await this.session.request('ping', {});
  }

  /**
   * Tells the view it is going away (`ui/resource-teardown`), waits for its answer (up to
   * the timeout), then closes the bridge and removes the iframe.
   */
  async teardown(reason = 'closed'): Promise<void> {
    if (this.closed) return;
    if (this.initializedFlag && this.session.isOpen) {
      try {
        await this.session.request('ui/resource-teardown', { reason });
      } catch {
        // A view that does not answer in time is torn down all the same.
      }
    }
    await this.close();
  }

  /** Closes the channel and removes the iframe at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.failReady(new Error('The app bridge closed before the view initialized'));
    await this.session.close();
    this.iframe?.remove();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---------------------------------------------------------------- internals

  private prepare(options: Omit<AppMountOptions, 'container' | 'proxyUrl'>): void {
    this.resource = options.resource;
    const meta = options.resource.meta;
    const csp = approvedCsp(meta.csp);
    this.sandbox = {
      csp,
      permissions: grantPermissions(meta.permissions, this.options.grantPermissions),
      policy: buildAppCsp(csp),
      sandbox: this.options.sandbox ?? DEFAULT_VIEW_SANDBOX,
    };
    if (options.tool && !this.context.toolInfo) {
      const toolInfo: HostContext['toolInfo'] = { tool: { ...options.tool } };
      if (options.toolCallId !== undefined) toolInfo.id = options.toolCallId;
      this.context = { ...this.context, toolInfo };
    }
  }

  /** Sends now if the view has initialized; holds it until then otherwise. */
  private deliver(method: string, params: Params): void {
    if (this.closed) return;
    if (!this.initializedFlag) {
      // Only the latest partial input matters; keeping one bounds the queue while args stream.
      const last = this.queue.at(-1);
      if (method === 'ui/notifications/tool-input-partial' && last?.[0] === method) last[1] = params;
      else this.queue.push([method, params]);
      return;
    }
    this.session.notify(method, params).catch(() => undefined);
  }

  private register(): void {
    const s = this.session;
    s.setNotificationHandler('ui/notifications/sandbox-proxy-ready', () => this.sendResource());
    s.setRequestHandler('ui/initialize', (p) => this.initialize(p));
    s.setNotificationHandler('ui/notifications/initialized', () => this.onInitialized());
    // The requests proxied to the view's server (view-proxy.ts), once the handshake is done.
    const proxied = (
      method: string,
      run: (p: Params, ctx: RequestContext) => Promise<Record<string, unknown>>,
    ) =>
      s.setRequestHandler(method, (p, ctx) =>
        this.proxy.bounded(() => {
          this.requireInitialized(method);
          return run(p, ctx);
        }),
      );
    proxied('tools/call', (p, ctx) => this.proxy.callTool(p, ctx));
    proxied('resources/read', (p, ctx) => this.proxy.readResource(p, ctx));
    proxied('resources/list', (p, ctx) => this.proxy.listResources(p, ctx));
    s.setRequestHandler('ui/open-link', (p) => this.openLink(p));
    s.setRequestHandler('ui/message', (p) => this.message(p));
    s.setRequestHandler('ui/update-model-context', (p) => this.updateModelContext(p));
    s.setRequestHandler('ui/request-display-mode', (p) => this.requestDisplayMode(p));
    s.setNotificationHandler('ui/notifications/size-changed', (p) => this.sizeChanged(p));
    s.setNotificationHandler('notifications/message', (p) => {
      if (typeof p.level === 'string') this.options.onLog?.(p as unknown as AppLog);
    });
    s.setNotificationHandler('ui/notifications/request-teardown', () => this.options.onRequestTeardown?.());
    s.setNotificationHandler('notifications/tools/list_changed', () => this.options.onViewToolsChanged?.());
    if (this.options.onDownloadFile) s.setRequestHandler('ui/download-file', (p) => this.downloadFile(p));
    if (this.options.onSampling)
      s.setRequestHandler('sampling/createMessage', (p, ctx) => this.sample(p, ctx));
  }

  private async downloadFile(p: Params): Promise<Record<string, unknown>> {
    this.requireInitialized('ui/download-file');
    const items = readDownloadItems(p);
    try {
      return (await this.options.onDownloadFile!(items)) === false ? { isError: true } : {};
    } catch (e) {
      this.options.onRejected?.('ui/download-file failed', e instanceof Error ? e.message : String(e));
      return { isError: true };
    }
  }

  private async sample(p: Params, ctx: RequestContext): Promise<Record<string, unknown>> {
    this.requireInitialized('sampling/createMessage');
    checkSamplingParams(p);
    return this.proxy.bounded(() => this.options.onSampling!(p, ctx.signal));
  }

  private sendResource(): void {
    if (this.resourceSent || !this.resource || !this.sandbox) return;
    this.resourceSent = true;
    const params: Params = {
      html: this.resource.html,
      sandbox: this.sandbox.sandbox,
      csp: this.sandbox.csp,
      permissions: this.sandbox.permissions,
    };
    this.session.notify('ui/notifications/sandbox-resource-ready', params).catch(() => undefined);
  }

  private hostCapabilities(): Record<string, unknown> {
    const o = this.options;
    const caps: Record<string, unknown> = {
      serverTools: {},
      serverResources: {},
      logging: {},
    };
    if (o.onOpenLink) caps.openLinks = {};
    if (o.onMessage) caps.message = { ...CONTENT_KINDS };
    if (o.onUpdateModelContext) caps.updateModelContext = { ...CONTENT_KINDS, structuredContent: {} };
    if (o.onDownloadFile) caps.downloadFile = {};
    if (o.onSampling) caps.sampling = {};
    if (this.sandbox) caps.sandbox = { permissions: this.sandbox.permissions, csp: this.sandbox.csp };
    return caps;
  }

  private initialize(p: Params): Record<string, unknown> {
    if (this.appInfo) throw WireError.invalidRequest('ui/initialize was already received');
    const info = p.appInfo;
    if (typeof p.protocolVersion !== 'string' || !isObject(info) || typeof info.name !== 'string') {
      throw WireError.invalidParams('ui/initialize needs protocolVersion, appInfo and appCapabilities');
    }
    this.appInfo = info as AppInitializeParams['appInfo'];
    this.appCapabilities = (
      isObject(p.appCapabilities) ? p.appCapabilities : {}
    ) as AppInitializeParams['appCapabilities'];
    this.initParams = {
      protocolVersion: p.protocolVersion,
      appInfo: this.appInfo,
      appCapabilities: this.appCapabilities,
    };
    return {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: this.session.info,
      hostCapabilities: this.hostCapabilities(),
      hostContext: this.context,
    };
  }

  private initParams: AppInitializeParams | undefined;

  private onInitialized(): void {
    if (this.initializedFlag || !this.initParams) return;
    this.initializedFlag = true;
    const queued = this.queue;
    this.queue = [];
    for (const [method, params] of queued) this.session.notify(method, params).catch(() => undefined);
    this.options.onInitialized?.(this.initParams);
    this.markReady();
  }

  private requireInitialized(method: string): void {
    if (!this.appInfo) throw WireError.invalidRequest(`${method} before ui/initialize`);
  }

  private async openLink(p: Params): Promise<Record<string, unknown>> {
    this.requireInitialized('ui/open-link');
    const open = this.options.onOpenLink;
    if (!open) throw WireError.methodNotFound('ui/open-link (the host does not open links)');
    let url: URL;
    try {
      url = new URL(String(p.url));
    } catch {
      throw WireError.invalidParams('Invalid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      this.options.onRejected?.('ui/open-link with a scheme other than http(s)', url.protocol);
      throw denied(`Only http and https links can be opened, not ${url.protocol}`);
    }
    await open(url.href);
    return {};
  }

  private async message(p: Params): Promise<Record<string, unknown>> {
    this.requireInitialized('ui/message');
    const take = this.options.onMessage;
    if (!take) throw WireError.methodNotFound('ui/message (the host takes no messages)');
    if (p.role !== 'user') throw WireError.invalidParams('ui/message role must be "user"');
    const content = Array.isArray(p.content) ? p.content : isObject(p.content) ? [p.content] : undefined;
    if (!content || !content.every(isObject)) throw WireError.invalidParams('Invalid message format');
    await take({ role: 'user', content: content as Array<Record<string, unknown>> });
    return {};
  }

  private async updateModelContext(p: Params): Promise<Record<string, unknown>> {
    this.requireInitialized('ui/update-model-context');
    const update: AppModelContext = {};
    if (p.content !== undefined) {
      if (!Array.isArray(p.content) || !p.content.every(isObject)) {
        throw WireError.invalidParams('Invalid content format');
      }
      update.content = p.content as Array<Record<string, unknown>>;
    }
    if (p.structuredContent !== undefined) {
      if (!isObject(p.structuredContent))
        throw WireError.invalidParams('structuredContent must be an object');
      update.structuredContent = p.structuredContent;
    }
    this.modelContext = update;
    await this.options.onUpdateModelContext?.(update);
    return {};
  }

  private async requestDisplayMode(p: Params): Promise<Record<string, unknown>> {
    this.requireInitialized('ui/request-display-mode');
    const mode = p.mode as DisplayMode;
    if (!DISPLAY_MODES.includes(mode))
      throw WireError.invalidParams('mode must be inline, fullscreen or pip');
    const current = this.context.displayMode ?? 'inline';
    const hostModes = this.context.availableDisplayModes ?? ['inline'];
    const appModes = this.appCapabilities?.availableDisplayModes;
    if (mode === current || !hostModes.includes(mode) || (appModes && !appModes.includes(mode))) {
      return { mode: current };
    }
    const decide = this.options.onRequestDisplayMode;
    const next = decide ? await decide(mode, current) : mode;
    const effective = DISPLAY_MODES.includes(next) && hostModes.includes(next) ? next : current;
    if (effective !== current) this.setHostContext({ displayMode: effective });
    return { mode: effective };
  }

  private sizeChanged(p: Params): void {
    const size: { width?: number; height?: number } = {};
    if (typeof p.width === 'number' && Number.isFinite(p.width) && p.width >= 0) size.width = p.width;
    if (typeof p.height === 'number' && Number.isFinite(p.height) && p.height >= 0) size.height = p.height;
    if (this.options.onSizeChange) {
      this.options.onSizeChange(size);
      return;
    }
    const iframe = this.iframe;
    if (!iframe) return;
    const dims = this.context.containerDimensions ?? {};
    if (size.height !== undefined && dims.height === undefined) {
      const h = dims.maxHeight !== undefined ? Math.min(size.height, dims.maxHeight) : size.height;
      iframe.style.height = `${Math.ceil(h)}px`;
    }
    if (size.width !== undefined && dims.width === undefined && dims.maxWidth !== undefined) {
      iframe.style.width = `${Math.ceil(Math.min(size.width, dims.maxWidth))}px`;
    }
  }
}
