/**
 * The view's Content Security Policy and permission policy, built only from what the
 * resource declared. These functions are self-contained on purpose: the sandbox proxy page
 * embeds their source text (see `sandboxProxyHtml`), so the policy checked by the unit
 * tests is byte for byte the one the browser enforces. They may call each other by name,
 * but nothing else.
 */
import type { AppCsp, AppPermissions } from '../../protocol/apps.js';

/**
 * Keeps the entries of a declared domain list that are plain origins
 * (`https://api.example.com`, `https://*.example.com`, `wss://host:8443`) and drops
 * everything else: keywords (`'unsafe-eval'`), schemes alone (`https:`, `data:`), a bare `*`,
 * paths, and anything with characters that could end the directive.
 */
export function cspSources(list: unknown): string[] {
  const out: string[] = [];
  if (!Array.isArray(list)) return out;
  const origin = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
  const loopback = /^(https?|wss?):\/\/\[::1\](:\d{1,5})?$/i;
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const v = item.trim().replace(/\/$/, '');
    if ((origin.test(v) || loopback.test(v)) && !out.includes(v)) out.push(v);
    if (out.length >= 64) break;
  }
  return out;
}

/**
 * The CSP for a view: deny by default, inline script and style allowed (views are
 * single-file documents), and only the declared origins added, each to its own directives.
 * With nothing declared it is the specification's restrictive default plus
 * `object-src 'none'`, `frame-src 'none'`, `base-uri 'self'` and `form-action 'none'`.
 */
export function buildAppCsp(csp: AppCsp | undefined): string {
  const c = csp && typeof csp === 'object' ? csp : {};
  const res = cspSources(c.resourceDomains);
  const conn = cspSources(c.connectDomains);
  const frames = cspSources(c.frameDomains);
  const bases = cspSources(c.baseUriDomains);
  const join = (base: string[], extra: string[]): string => [...base, ...extra].join(' ');
  return [
    "default-src 'none'",
    `script-src ${join(["'self'", "'unsafe-inline'"], res)}`,
    `style-src ${join(["'self'", "'unsafe-inline'"], res)}`,
    `img-src ${join(["'self'", 'data:', 'blob:'], res)}`,
    `font-src ${join(["'self'", 'data:'], res)}`,
    `media-src ${join(["'self'", 'data:', 'blob:'], res)}`,
    `connect-src ${conn.length > 0 ? conn.join(' ') : "'none'"}`,
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    `base-uri ${bases.length > 0 ? bases.join(' ') : "'self'"}`,
    "form-action 'none'",
  ].join('; ');
}

/**
 * The iframe `allow` attribute for the permissions a view asked for and the host granted:
 * `camera`, `microphone`, `geolocation`, `clipboard-write`. Nothing else is ever delegated.
 */
export function permissionsAllow(permissions: AppPermissions | undefined): string {
  const p = permissions && typeof permissions === 'object' ? permissions : {};
  const out: string[] = [];
  if (p.camera) out.push('camera');
  if (p.microphone) out.push('microphone');
  if (p.geolocation) out.push('geolocation');
  if (p.clipboardWrite) out.push('clipboard-write');
  return out.join('; ');
}

/**
 * The permissions both asked for by the view and granted by the host policy (`granted`
 * undefined grants none: a host opts in per permission).
 */
export function grantPermissions(
  asked: AppPermissions | undefined,
  granted: AppPermissions | undefined,
): AppPermissions {
  const out: AppPermissions = {};
  if (!asked || !granted) return out;
  for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) {
    if (asked[key] && granted[key]) out[key] = {};
  }
  return out;
}

/** The declared CSP domain lists, cleaned by {@link cspSources}, with empty lists left out. */
export function approvedCsp(csp: AppCsp | undefined): AppCsp {
  const out: AppCsp = {};
  if (!csp) return out;
  for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
    const list = cspSources(csp[key]);
    if (list.length > 0) out[key] = list;
  }
  return out;
}
