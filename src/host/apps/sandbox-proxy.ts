/**
 * The sandbox proxy page a web host serves on a second origin. The host page frames it;
 * it frames the view. It relays JSON-RPC both ways, keeps `ui/notifications/sandbox-*`
 * messages to itself, and loads the view's HTML into an inner iframe that is sandboxed
 * (an opaque origin: no storage, no cookies, no access to the proxy or the host) and
 * carries the deny-by-default CSP built from the declared domains.
 */
import type { AppCsp, AppPermissions } from '../../protocol/apps.js';
import { buildAppCsp, cspSources, permissionsAllow } from './csp.js';

/** Sandbox tokens the proxy will ever give the view; `allow-same-origin` and top navigation never. */
export const VIEW_SANDBOX_TOKENS: readonly string[] = Object.freeze([
  'allow-scripts',
  'allow-forms',
  'allow-popups',
  'allow-popups-to-escape-sandbox',
  'allow-modals',
  'allow-downloads',
  'allow-pointer-lock',
]);

/** The inner iframe's default sandbox: scripts and forms, nothing more. */
export const DEFAULT_VIEW_SANDBOX = 'allow-scripts allow-forms';

/** What the host sends in `ui/notifications/sandbox-resource-ready`. */
export interface SandboxResourceReady {
  html: string;
  sandbox?: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
}

/**
 * Puts a CSP `<meta>` in front of the view's HTML, after a leading doctype, so it is the
 * first thing the parser sees and governs every script and load that follows. A policy in
 * the document can only add restrictions, so nothing the view writes later loosens it.
 */
export function withCspMeta(html: string, policy: string): string {
  const meta = '<meta http-equiv="Content-Security-Policy" content="' + policy.replace(/"/g, '&quot;') + '">';
  const m = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html);
  if (m) return html.slice(0, m[0].length) + meta + html.slice(m[0].length);
  return meta + html;
}

/**
 * The proxy's script, run inside the proxy page (it is embedded as source text, so it uses
 * nothing but its argument, the DOM and the functions and constants embedded beside it).
 */
export function sandboxProxyMain(bakedHostOrigin: string): void {
  const hostOrigin = bakedHostOrigin || new URLSearchParams(location.search).get('host') || '';
  const host = window.parent;
  if (!/^https?:\/\/[^/\s]+$/.test(hostOrigin) || host === window) {
    document.body.textContent = 'mcpkit sandbox proxy: no host origin; open this page only in a frame';
    return;
  }
  const safe = VIEW_SANDBOX_TOKENS;
  let inner: HTMLIFrameElement | null = null;
  let loaded = false;
  const reserved = (m: unknown): boolean => {
    const method = typeof m === 'object' && m !== null ? (m as { method?: unknown }).method : undefined;
    return typeof method === 'string' && method.indexOf('ui/notifications/sandbox-') === 0;
  };
  const load = (params: Record<string, unknown>): void => {
    if (typeof params.html !== 'string') return;
    const asked = typeof params.sandbox === 'string' ? params.sandbox : 'allow-scripts allow-forms';
    const tokens = asked.split(/\s+/).filter((t, i, all) => safe.indexOf(t) >= 0 && all.indexOf(t) === i);
    if (tokens.indexOf('allow-scripts') < 0) tokens.push('allow-scripts');
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', tokens.join(' '));
    const allow = permissionsAllow(params.permissions as AppPermissions | undefined);
    if (allow) frame.setAttribute('allow', allow);
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('title', 'MCP App view');
    // A view that navigates itself away is no longer the view the host loaded: drop it,
    // so nothing more is relayed to whatever page it went to.
    frame.addEventListener('load', () => {
      if (!loaded) {
        loaded = true;
        return;
      }
      frame.remove();
      if (inner === frame) inner = null;
    });
    frame.srcdoc = withCspMeta(params.html, buildAppCsp(params.csp as AppCsp | undefined));
    inner = frame;
    document.body.appendChild(frame);
  };
  window.addEventListener('message', (event: MessageEvent) => {
    const m: unknown = event.data;
    if (event.source === host && event.origin === hostOrigin) {
      if (reserved(m)) {
        const r = m as { method: string; params?: unknown };
        if (r.method === 'ui/notifications/sandbox-resource-ready' && !inner && !loaded) {
          load(
            typeof r.params === 'object' && r.params !== null ? (r.params as Record<string, unknown>) : {},
          );
        }
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, '*');
      return;
    }
    if (inner && event.source === inner.contentWindow && !reserved(m)) host.postMessage(m, hostOrigin);
  });
  host.postMessage(
    { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
    hostOrigin,
  );
}

export interface SandboxProxyOptions {
  /**
   * The origin of the host page allowed to drive this proxy, e.g. `http://127.0.0.1:8080`.
   * When omitted, the proxy reads it from its URL's `host` query parameter
   * (`proxy.html?host=<origin>`), which is what {@link AppBridge} appends.
   */
  hostOrigin?: string;
  /** The page title (default `MCP App sandbox`). */
  title?: string;
}

/**
 * The HTML of the sandbox proxy page. Serve it on an origin different from the host
 * page's (another port or host name is enough), as `text/html`, with no CSP header of its
 * own (the view's iframe inherits the proxy's policy, so a stricter one there would block
 * domains a view legitimately declared) and with `Cache-Control: no-store`.
 * {@link SANDBOX_PROXY_HEADERS} lists the headers to send.
 */
export function sandboxProxyHtml(options: SandboxProxyOptions = {}): string {
  const hostOrigin = options.hostOrigin ?? '';
  if (hostOrigin && !/^https?:\/\/[^/\s]+$/.test(hostOrigin)) {
    throw new TypeError(
      `hostOrigin must be an origin like http://127.0.0.1:8080, got ${JSON.stringify(hostOrigin)}`,
    );
  }
  const title = (options.title ?? 'MCP App sandbox').replace(/[<>&"]/g, '');
  const script = [cspSources, buildAppCsp, permissionsAllow, withCspMeta, sandboxProxyMain]
    .map((f) => f.toString())
    .join('\n');
  const tokens = `const VIEW_SANDBOX_TOKENS = ${JSON.stringify(VIEW_SANDBOX_TOKENS)};`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head>
<body>
<script>
"use strict";
${tokens}
${script}
sandboxProxyMain(${JSON.stringify(hostOrigin).replace(/</g, '\\u003c')});
</script>
</body>
</html>
`;
}

/** Response headers for the proxy page. */
export const SANDBOX_PROXY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
});
