/**
 * Finding and loading a tool's view: `resources/read` of its `ui://` URI, a check of the
 * MIME type, the HTML decoded from `text` or `blob`, and the view's `_meta.ui` with the
 * content item's fields taking precedence over the listing's.
 */
import { APP_MIME_TYPE } from '../../protocol/apps.js';
import type { AppResourceMeta } from '../../protocol/apps.js';
import { isObject } from '../../jsonrpc/is-object.js';

/** What the bridge needs from the MCP server the view belongs to; mcpkit's `Client` fits. */
export interface AppServer {
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  readResource(params: { uri: string }, options?: { signal?: AbortSignal }): Promise<Record<string, unknown>>;
  /** Lists the server's resources for the view (`resources/list`); without it the view gets -32601. */
  listResources?(
    params: { cursor?: string },
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  /** The server's tools, for the visibility checks (when the bridge is not given them). */
  listTools?(): Promise<{ tools: ReadonlyArray<{ name: string; _meta?: unknown }> }>;
}

/** A view ready to render. */
export interface AppResource {
  uri: string;
  html: string;
  /** `_meta.ui` merged: the content item over the listing. */
  meta: AppResourceMeta;
}

const MAX_HTML_BYTES = 8 * 1024 * 1024;

function uiOf(meta: unknown): Record<string, unknown> {
  return isObject(meta) && isObject(meta.ui) ? meta.ui : {};
}

/**
 * Merges the view's `_meta.ui`: each field of the content item returned by
 * `resources/read` wins over the same field from the `resources/list` entry, which only
 * fills the gaps (the specification makes the read the authoritative source).
 */
export function mergeAppMeta(listingMeta: unknown, contentMeta: unknown): AppResourceMeta {
  const merged: Record<string, unknown> = { ...uiOf(listingMeta), ...uiOf(contentMeta) };
  const out: AppResourceMeta = {};
  if (isObject(merged.csp)) out.csp = merged.csp as AppResourceMeta['csp'];
  if (isObject(merged.permissions)) out.permissions = merged.permissions as AppResourceMeta['permissions'];
  if (typeof merged.domain === 'string') out.domain = merged.domain;
  if (typeof merged.prefersBorder === 'boolean') out.prefersBorder = merged.prefersBorder;
  return out;
}

function decodeBase64(b64: string): string {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** Whether a MIME type is the app profile (parameters compared without spaces or case). */
export function isAppMimeType(mimeType: unknown): boolean {
  return (
    typeof mimeType === 'string' && mimeType.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE.toLowerCase()
  );
}

/**
 * Reads a view from its server. `listing` is the resource's `resources/list` entry, when
 * the host has it. Fails with a clear message when the URI is not `ui://`, the server
 * returns no content item of type `text/html;profile=mcp-app`, or the HTML is too large.
 */
export async function loadAppResource(
  server: Pick<AppServer, 'readResource'>,
  uri: string,
  options: { listing?: { _meta?: unknown }; signal?: AbortSignal } = {},
): Promise<AppResource> {
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) {
    throw new TypeError(`An app view must have a ui:// URI, got ${JSON.stringify(uri)}`);
  }
  const result = await server.readResource({ uri }, options.signal ? { signal: options.signal } : {});
  const contents = Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  const item = contents.find((c): c is Record<string, unknown> => isObject(c) && isAppMimeType(c.mimeType));
  if (!item) throw new Error(`${uri} has no content of type ${APP_MIME_TYPE}`);
  let html: string;
  if (typeof item.text === 'string') html = item.text;
  else if (typeof item.blob === 'string') html = decodeBase64(item.blob);
  else throw new Error(`${uri} has neither text nor blob`);
  if (html.length > MAX_HTML_BYTES) throw new Error(`${uri} is larger than ${MAX_HTML_BYTES} bytes`);
  return { uri, html, meta: mergeAppMeta(options.listing?._meta, item._meta) };
}
