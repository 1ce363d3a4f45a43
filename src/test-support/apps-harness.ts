/**
 * Test-only harness for the Apps bridge in real Chromium (Debian's /usr/bin/chromium driven
 * by playwright-core): a host page and the sandbox proxy on two loopback origins, two more
 * origins for CSP checks (one a view declares, one it does not), the bridge loaded in the
 * page as the compiled ES modules from dist/ (so a stray `node:*` import would fail here),
 * and the page's MCP calls answered by a real mcpkit Client in this process.
 * Not part of the public API.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Frame, FrameLocator, Page } from 'playwright-core';
import { Client } from '../client/client.js';
import type { Transport } from '../jsonrpc/index.js';
import { appsClientCapabilities } from '../protocol/apps.js';
import type { McpServer } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
import { missing } from './services.js';
import { startSandboxProxyServer } from '../host/serve/node-sandbox-server.js';
import type { SandboxProxyServer } from '../host/serve/node-sandbox-server.js';

/** The test host's client: it declares the Apps extension, and is connected to `transport`. */
export async function appsClient(transport: Transport): Promise<Client> {
  const client = new Client(
    { name: 'apps-test-host', version: '1' },
    { capabilities: appsClientCapabilities(), logger: () => undefined },
  );
  await client.connect(transport);
  return client;
}

/** The test host's client, connected to an in-process server. */
export async function appsClientOf(server: McpServer): Promise<Client> {
  const [a, b] = memoryPair();
  await server.connect(b);
  return appsClient(a);
}

/** Why the Chromium tests skip, or false when they run. */
export const SKIP_CHROMIUM: string | false = missing('chromium');

const DIST = fileURLToPath(new URL('../', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where screenshots go (git-ignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'apps');

/** The secret the host page holds in its URL, its storage and a cookie; no view may see it. */
export const HOST_SECRET = 'host-secret-7f3a9c';

interface Origin {
  url: string;
  hits: string[];
  server: Server;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Origin> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, server };
}

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcpkit apps test host</title>
<style>body{font-family:sans-serif;margin:8px} #app{width:480px}</style></head>
<body><h1 id="title">host page</h1><div id="app"></div>
<script type="module">
import * as apps from '/dist/host/apps/index.js';
localStorage.setItem('secret', ${JSON.stringify(HOST_SECRET)});
document.cookie = 'secret=${HOST_SECRET}; path=/';
window.apps = apps;
window.events = [];
const server = {
  callTool: (p) => window.mcpCall('tools/call', p),
  readResource: (p) => window.mcpCall('resources/read', p),
  listTools: () => window.mcpCall('tools/list', {}),
};
window.server = server;
window.mountApp = async (cfg) => {
  const events = window.events;
  const { tools } = await server.listTools();
  const tool = tools.find((t) => t.name === cfg.tool);
  const options = {
    server,
    hostInfo: { name: 'mcpkit-test-host', version: '1.0.0' },
    hostContext: cfg.hostContext,
    grantPermissions: cfg.grantPermissions,
    canCallTool: cfg.denyTools ? (r) => !cfg.denyTools.includes(r.name) : undefined,
    onOpenLink: (url) => void events.push(['open-link', url]),
    onMessage: (m) => void events.push(['message', m]),
    onUpdateModelContext: (c) => void events.push(['model-context', c]),
    onLog: (l) => void events.push(['log', l]),
    onRequestTeardown: () => void events.push(['request-teardown']),
    onRejected: (what, detail) => void events.push(['rejected', what, detail]),
    onInitialized: (p) => void events.push(['initialized', p]),
    onDownloadFile: cfg.downloads
      ? (items) => { events.push(['download', items]); return cfg.downloads === 'accept'; }
      : undefined,
    onSampling: cfg.sampling
      ? async (params) => {
          events.push(['sampling', params]);
          return { role: 'assistant', model: 'test-model', stopReason: 'endTurn',
            content: { type: 'text', text: 'sampled: ' + params.messages[0].content.text } };
        }
      : undefined,
    onViewToolsChanged: () => void events.push(['view-tools-changed']),
  };
  let bridge;
  if (cfg.oneCall) {
    // The one-call helper: it reads the view, mounts, calls the tool and forwards the outcome.
    const opened = await apps.openAppView({
      ...options, tool, arguments: cfg.args, container: document.getElementById('app'), proxyUrl: cfg.proxyUrl,
    });
    bridge = window.bridge = opened.bridge;
    opened.result.then((r) => events.push(['call-result', r]));
  } else {
    const resource = await apps.loadAppResource(server, apps.appResourceUri(tool));
    bridge = window.bridge = new apps.AppBridge(options);
    await bridge.mount({
      container: document.getElementById('app'), proxyUrl: cfg.proxyUrl, resource, tool, domainOrigins: cfg.domainOrigins,
    });
    if (cfg.args) {
      bridge.sendToolInput(cfg.args);
      bridge.sendToolResult(await server.callTool({ name: cfg.tool, arguments: cfg.args }));
    }
  }
  await bridge.ready;
  return { sandbox: bridge.sandbox, appInfo: bridge.appInfo };
};
window.hostReady = true;
</script></body></html>`;

/** The four origins, the browser, and a page per test. */
export class AppsTestBed {
  private constructor(
    readonly host: Origin,
    readonly proxy: SandboxProxyServer,
    readonly declared: Origin,
    readonly evil: Origin,
    readonly context: BrowserContext,
    private readonly userDataDir: string,
  ) {}

  /**
   * Starts the origins and the browser. With `bakeHostOrigin: false` the proxy learns the
   * host page's origin from the `host` query parameter the bridge appends.
   */
  static async start(options: { bakeHostOrigin?: boolean } = {}): Promise<AppsTestBed> {
    const host = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOST_PAGE);
        return;
      }
      const file = normalize(join(DIST, path.replace(/^\/dist\//, '')));
      if (path.startsWith('/dist/') && file.startsWith(DIST) && file.endsWith('.js') && existsSync(file)) {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
        return;
      }
      res.writeHead(404).end();
    });
    const proxy = await startSandboxProxyServer(
      options.bakeHostOrigin === false ? { domains: true } : { hostOrigin: host.url, domains: true },
    );
    const cors = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };
    const declared = await serve((_req, res) => void res.writeHead(200, cors).end('{"ok":true}'));
    const evil = await serve((_req, res) => void res.writeHead(200, cors).end('{"stolen":true}'));
    const { chromium } = await import('playwright-core');
    const userDataDir = mkdtempSync(join(tmpdir(), 'mcpkit-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS],
    });
    return new AppsTestBed(host, proxy, declared, evil, context, userDataDir);
  }

  /** The proxy's URL, for `mount`. */
  get proxyUrl(): string {
    return this.proxy.url;
  }

  /** Opens the host page with its MCP calls answered by `client`. */
  async open(client: Client): Promise<HostPage> {
    const page = await this.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.exposeBinding('mcpCall', async (_source, method: string, params: Record<string, unknown>) => {
      if (method === 'tools/list') return client.listTools();
      if (method === 'tools/call') return client.callTool(params as { name: string });
      if (method === 'resources/read') return client.readResource(params as { uri: string });
      throw new Error(`unexpected ${method}`);
    });
    await page.goto(`${this.host.url}/?token=${HOST_SECRET}`);
    await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
    return new HostPage(page, this, errors);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.proxy.close();
    for (const o of [this.host, this.declared, this.evil]) {
      o.server.closeAllConnections();
      await new Promise((r) => o.server.close(r));
    }
    rmSync(this.userDataDir, { recursive: true, force: true });
  }
}

/** The host page of one test. */
export class HostPage {
  constructor(
    readonly page: Page,
    readonly bed: AppsTestBed,
    readonly errors: string[],
  ) {}

  /** Renders `tool`'s view through the bridge; with `args`, calls the tool and sends input and result. */
  mount(cfg: {
    tool: string;
    args?: Record<string, unknown>;
    hostContext?: Record<string, unknown>;
    grantPermissions?: Record<string, unknown>;
    denyTools?: string[];
    /** Render with `openAppView` instead of the step-by-step calls. */
    oneCall?: boolean;
    /** Offer `ui/download-file`, saving (accept) or refusing (cancel) what the view offers. */
    downloads?: 'accept' | 'cancel';
    /** Offer sampling, answered with `sampled: <the first message's text>`. */
    sampling?: boolean;
    /** Frame views that declare `domain` on their own origin. */
    domainOrigins?: boolean;
  }): Promise<{ sandbox: Record<string, unknown>; appInfo: Record<string, unknown> }> {
    return this.page.evaluate((c) => (window as unknown as { mountApp(c: unknown): never }).mountApp(c), {
      proxyUrl: this.bed.proxyUrl,
      ...cfg,
    });
  }

  /** The view's document: the iframe inside the proxy's iframe. */
  get view(): FrameLocator {
    return this.page.frameLocator('#app iframe').frameLocator('iframe');
  }

  /** The view's frame, for evaluating in it. */
  async viewFrame(): Promise<Frame> {
    for (;;) {
      const f = this.page.frames().find((x) => x.parentFrame()?.parentFrame() === this.page.mainFrame());
      if (f) return f;
      await this.page.waitForEvent('frameattached');
    }
  }

  /** The host page's event log (what the bridge's callbacks received). */
  events(): Promise<unknown[][]> {
    return this.page.evaluate(() => (window as unknown as { events: unknown[][] }).events);
  }

  /** Waits until the event log has an entry of this kind, and returns it. */
  async event(kind: string): Promise<unknown[]> {
    const handle = await this.page.waitForFunction(
      (k) => (window as unknown as { events: unknown[][] }).events.find((e) => e[0] === k),
      kind,
    );
    return (await handle.jsonValue()) as unknown[];
  }

  async screenshot(name: string): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    await this.page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

let extAppsModule: string | undefined;

/**
 * A view built with the official `App` class: the package's self-contained browser build
 * (`@modelcontextprotocol/ext-apps/app-with-deps`) inlined in a module script, its exports
 * bound to `ExtApps`, followed by `body` (which uses `ExtApps.App`).
 */
export function officialAppHtml(body: string): string {
  if (!extAppsModule) {
    const path = fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-with-deps'));
    const source = readFileSync(path, 'utf8');
    const m = /export\s*\{([^}]*)\};?\s*$/.exec(source);
    if (!m) throw new Error('Unexpected shape of the ext-apps browser build');
    const pairs = m[1]!
      .split(',')
      .map((p) => p.trim().split(/\s+as\s+/))
      .map(([local, exported]) => `${JSON.stringify(exported ?? local)}: ${local}`);
    extAppsModule = `${source.slice(0, m.index)}\nconst ExtApps = { ${pairs.join(', ')} };\n`;
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>official App probe</title></head>
<body><div id="out">loading</div><script type="module">
${extAppsModule}
${body}
</script></body></html>`;
}
