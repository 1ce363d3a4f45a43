import { isObject } from '../jsonrpc/is-object.js';
import { APPS_EXTENSION, MetaKey } from './meta-keys.js';
/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, specification 2026-01-26): the
 * names and shapes both halves share. A server ships a view as a `ui://` resource of type
 * {@link APP_MIME_TYPE}; a tool names it in `_meta.ui.resourceUri`.
 */

/** The MIME type of an HTML app view. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The Apps protocol revision this implementation speaks on the view channel. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Who may call a tool: the model (the agent), the app's view, or both (the default). */
export type AppVisibility = 'model' | 'app';

/** Origins a view may reach; anything not listed is denied. */
export interface AppCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src` (nested iframes); none when omitted. */
  frameDomains?: string[];
  /** `base-uri`; `'self'` when omitted. */
  baseUriDomains?: string[];
}

/** Browser permissions a view asks for; the host decides whether to grant them. */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` on a `ui://` resource (its listing or a content item of `resources/read`). */
export interface AppResourceMeta {
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** A dedicated sandbox origin; its format is the host's to define. */
  domain?: string;
  /** Whether the host should draw a border and background around the view. */
  prefersBorder?: boolean;
}

/** `_meta.ui` on a tool. */
export interface AppToolMeta {
  resourceUri?: string;
  visibility?: AppVisibility[];
}

/**
 * The `ui://` view a tool renders with, from `_meta.ui.resourceUri` or the deprecated flat
 * key; undefined when the tool has no view.
 */
export function appResourceUri(tool: { _meta?: unknown }): string | undefined {
  const meta = tool._meta;
  if (!isObject(meta)) return undefined;
  const ui = meta.ui;
  const uri = isObject(ui) ? ui.resourceUri : undefined;
  const chosen = typeof uri === 'string' ? uri : meta[MetaKey.LegacyAppResourceUri];
  return typeof chosen === 'string' && chosen.startsWith('ui://') ? chosen : undefined;
}

/** A tool's visibility, defaulting to both model and app as the specification says. */
export function appVisibility(tool: { _meta?: unknown }): readonly AppVisibility[] {
  const meta = tool._meta;
  const ui = isObject(meta) ? meta.ui : undefined;
  const v = isObject(ui) ? ui.visibility : undefined;
  if (!Array.isArray(v)) return BOTH;
  return v.filter((x): x is AppVisibility => x === 'model' || x === 'app');
}

const BOTH: readonly AppVisibility[] = Object.freeze(['model', 'app']);

/** Whether the model (the agent's tool list) may see and call this tool. */
export function isModelVisible(tool: { _meta?: unknown }): boolean {
  return appVisibility(tool).includes('model');
}

/** Whether an app view from the same server may call this tool. */
export function isAppCallable(tool: { _meta?: unknown }): boolean {
  return appVisibility(tool).includes('app');
}

/**
 * The Apps settings a peer declared in `capabilities.extensions`, or undefined when it
 * does not support the extension.
 */
export function appsCapability(
  capabilities: Readonly<Record<string, unknown>> | undefined,
): { mimeTypes: string[] } | undefined {
  const ext = capabilities?.extensions;
  const apps = isObject(ext) ? ext[APPS_EXTENSION] : undefined;
  if (!isObject(apps)) return undefined;
  const mimeTypes = Array.isArray(apps.mimeTypes)
    ? apps.mimeTypes.filter((m): m is string => typeof m === 'string')
    : [];
  return { mimeTypes };
}

/** Whether a peer's capabilities say it renders HTML app views. */
export function supportsAppViews(capabilities: Readonly<Record<string, unknown>> | undefined): boolean {
  return appsCapability(capabilities)?.mimeTypes.includes(APP_MIME_TYPE) ?? false;
}

/**
 * The client capabilities a host declares to say it renders app views; merge them into a
 * client's `capabilities` option.
 */
export function appsClientCapabilities(
  mimeTypes: readonly string[] = [APP_MIME_TYPE],
): Record<string, unknown> {
  return { extensions: { [APPS_EXTENSION]: { mimeTypes: [...mimeTypes] } } };
}
