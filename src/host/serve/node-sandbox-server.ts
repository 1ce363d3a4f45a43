/**
 * The Node edge of the Apps bridge: a tiny loopback HTTP server for the sandbox proxy page,
 * so a host page served on one port can frame its views from another origin. The rest of
 * `host/apps` never imports `node:*`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAppDomainHost } from '../apps/app-domain.js';
import { SANDBOX_PROXY_HEADERS, sandboxProxyHtml } from '../apps/sandbox-proxy.js';

export interface SandboxProxyServerOptions {
  /**
   * The host page's origin, baked into the proxy (e.g. `http://127.0.0.1:6274`). Without it
   * the proxy takes the origin from the `host` query parameter `AppBridge.mount` appends.
   */
  hostOrigin?: string;
  /** The port (default 0: any free port). */
  port?: number;
  /** The loopback address to listen on (default `127.0.0.1`). */
  hostname?: string;
  /** The path of the proxy page (default `/sandbox`). */
  path?: string;
  /**
   * Also serve the proxy on `d<hash>.localhost:<port>`, the dedicated origins of views that
   * declare `_meta.ui.domain` (see `appDomainProxyUrl`). Default false.
   */
  domains?: boolean;
}

export interface SandboxProxyServer {
  /** The proxy page's URL, for `AppBridge.mount({ proxyUrl })`. */
  readonly url: string;
  /** Its origin. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves the sandbox proxy page on its own loopback origin. It answers only `GET` (and
 * `HEAD`) of one path, only to requests whose `Host` header names this server (DNS
 * rebinding gets a 421), and holds no token: the page is the same for everyone and carries
 * no secret.
 *
 * @example
 * ```ts
 * const proxy = await startSandboxProxyServer({ hostOrigin: 'http://127.0.0.1:6274' });
 * // give proxy.url to the page, which passes it to AppBridge.mount({ proxyUrl })
 * ```
 */
export async function startSandboxProxyServer(
  options: SandboxProxyServerOptions = {},
): Promise<SandboxProxyServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const path = options.path ?? '/sandbox';
  const html = sandboxProxyHtml(options.hostOrigin ? { hostOrigin: options.hostOrigin } : {});
  let allowedHosts: Set<string> = new Set();
  let port = 0;
  const server = createServer((req, res) => {
    const host = String(req.headers.host).toLowerCase();
    if (!allowedHosts.has(host) && !(options.domains && isAppDomainHost(host, port))) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    res.writeHead(200, { ...SANDBOX_PROXY_HEADERS }).end(req.method === 'HEAD' ? undefined : html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
  allowedHosts = new Set([`${shown}:${port}`, `localhost:${port}`]);
  const origin = `http://${shown}:${port}`;
  return {
    url: `${origin}${path}`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
