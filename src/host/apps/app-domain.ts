/**
 * `_meta.ui.domain`, as mcpkit hosts read it. The Apps specification leaves the format to
 * each host; ours: any string, whose view gets a sandbox origin of its own,
 * `http://d<16 hex digits>.localhost:<the proxy's port>`, the digits a stable hash of the
 * domain. One domain, one origin (across views and reloads, so its storage and any
 * allowlist keyed on the origin persist); two domains, two origins; no domain, the
 * proxy's default origin. `*.localhost` is loopback by definition, so nothing leaves
 * the machine.
 */

/** FNV-1a, 64 bits: stable, fast, browser-safe (the label is an address, not a secret). */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

/** The host label a declared domain maps to (`d` and 16 hex digits). */
export function appDomainLabel(domain: string): string {
  return `d${fnv1a64(domain)}`;
}

/**
 * The sandbox proxy URL for a view that declares `domain`: the same port and path on
 * `<label>.localhost`. Serve the proxy with `startSandboxProxyServer({ domains: true })`.
 *
 * @example
 * ```ts
 * appDomainProxyUrl('http://127.0.0.1:6275/sandbox', 'a.example.com');
 * // 'http://d<16 hex digits>.localhost:6275/sandbox'
 * ```
 */
export function appDomainProxyUrl(proxyUrl: string | URL, domain: string): string {
  const url = new URL(String(proxyUrl));
  url.hostname = `${appDomainLabel(domain)}.localhost`;
  return url.href;
}

/** Whether a `Host` header names a domain origin of a proxy on `port`. */
export function isAppDomainHost(host: string, port: number): boolean {
  return new RegExp(`^d[0-9a-f]{16}\\.localhost:${port}$`).test(host);
}
