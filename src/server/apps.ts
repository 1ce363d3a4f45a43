import { APP_MIME_TYPE } from '../protocol/apps.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { AppCsp, AppPermissions, AppResourceMeta, AppVisibility } from '../protocol/apps.js';
import type { SchemaInput } from './schema-adapter.js';
import type { Registration, McpServer } from './server.js';
import type { ToolDefinition, ToolHandler } from './tools.js';

/** Where a view's HTML comes from: the text itself, or a loader run on every read. */
export type AppHtml = string | (() => string | Promise<string>);

/** A tool that belongs to an app view: its `_meta.ui` settings beside the usual ones. */
export interface AppToolDefinition<S extends SchemaInput = SchemaInput> extends ToolDefinition<S> {
  /** The `ui://` view this tool renders with (optional for app-only helper tools). */
  resourceUri?: string;
  /**
   * Who may call the tool. `['app']` hides it from the model: hosts leave it out of the
   * agent's tool list, while the view may still call it. Default: both.
   */
  visibility?: AppVisibility[];
}

/** An app: the tool the model calls, and the view that renders its result. */
export interface AppDefinition<S extends SchemaInput = SchemaInput> extends AppToolDefinition<S> {
  /** The view's `ui://` URI. */
  resourceUri: string;
  /**
   * The view's HTML5 document. A loader function is called on every `resources/read`, so a
   * file can be served with, for example,
   * `html: () => readFile(new URL('./view.html', import.meta.url), 'utf8')`.
   */
  html: AppHtml;
  /** The resource's name, title and description (default: from the tool). */
  view?: { name?: string; title?: string; description?: string };
  /** Origins the view may reach; omitted means none (the host's deny-by-default CSP). */
  csp?: AppCsp;
  /** Browser permissions the view asks for. */
  permissions?: AppPermissions;
  /** A dedicated sandbox origin, in the format the target host documents. */
  domain?: string;
  /** Whether the host should draw a border and background around the view. */
  prefersBorder?: boolean;
}

function checkUiUri(uri: string): void {
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length <= 5) {
    throw new TypeError(`An app view needs a ui:// URI, got ${JSON.stringify(uri)}`);
  }
}

function toolMeta(def: AppToolDefinition): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  if (def.resourceUri !== undefined) {
    checkUiUri(def.resourceUri);
    ui.resourceUri = def.resourceUri;
  }
  if (def.visibility !== undefined) {
    if (
      !Array.isArray(def.visibility) ||
      def.visibility.length === 0 ||
      def.visibility.some((v) => v !== 'model' && v !== 'app')
    ) {
      throw new TypeError(`Tool ${def.name}: visibility must list "model", "app" or both`);
    }
    ui.visibility = [...new Set(def.visibility)];
  }
  const meta: Record<string, unknown> = { ...def._meta, ui: { ...(def._meta?.ui as object), ...ui } };
  // Hosts built before the nested form read only the flat key.
  if (def.resourceUri !== undefined) meta[MetaKey.LegacyAppResourceUri] = def.resourceUri;
  return meta;
}

function resourceMeta(def: AppDefinition): AppResourceMeta | undefined {
  const ui: AppResourceMeta = {};
  if (def.csp !== undefined) ui.csp = def.csp;
  if (def.permissions !== undefined) ui.permissions = def.permissions;
  if (def.domain !== undefined) ui.domain = def.domain;
  if (def.prefersBorder !== undefined) ui.prefersBorder = def.prefersBorder;
  return Object.keys(ui).length > 0 ? ui : undefined;
}

/**
 * Registers a tool that belongs to an app without a view of its own, typically an
 * app-only helper (`visibility: ['app']`) the view calls back.
 */
export function registerAppTool<S extends SchemaInput>(
  server: McpServer,
  definition: AppToolDefinition<S>,
  handler: ToolHandler<S>,
): Registration {
  const { resourceUri: _r, visibility: _v, ...tool } = definition;
  return server.tool({ ...tool, _meta: toolMeta(definition as AppToolDefinition) }, handler);
}

/**
 * Registers an MCP App with one call: the tool, with `_meta.ui.resourceUri` (and
 * `visibility` when given), and its `ui://` view as a resource of type
 * `text/html;profile=mcp-app` whose listing and content carry `_meta.ui` (CSP,
 * permissions, domain, border). Removing the registration removes both.
 *
 * @example
 * ```ts
 * registerApp(
 *   server,
 *   {
 *     name: 'show_clock',
 *     description: 'Shows the server time in a small view',
 *     resourceUri: 'ui://clock/view.html',
 *     html: '<!doctype html><html><body><p id="t"></p><script>...</script></body></html>',
 *     prefersBorder: true,
 *   },
 *   () => ({ content: [{ type: 'text', text: new Date().toISOString() }] }),
 * );
 * ```
 */
export function registerApp<S extends SchemaInput>(
  server: McpServer,
  definition: AppDefinition<S>,
  handler: ToolHandler<S>,
): Registration {
  const def = definition as AppDefinition;
  checkUiUri(def.resourceUri);
  if (typeof def.html !== 'string' && typeof def.html !== 'function') {
    throw new TypeError(`App ${def.name}: html must be a string or a function returning one`);
  }
  const { html, view, csp: _c, permissions: _p, domain: _d, prefersBorder: _b, resourceUri, ...rest } = def;
  const ui = resourceMeta(def);
  const contentMeta = ui ? { ui } : undefined;
  const resource = server.resource(
    {
      uri: resourceUri,
      name: view?.name ?? def.name,
      title: view?.title ?? def.title,
      description: view?.description ?? def.description,
      mimeType: APP_MIME_TYPE,
      ...(contentMeta ? { _meta: contentMeta } : {}),
    },
    async (uri) => {
      const text = typeof html === 'string' ? html : await html();
      if (typeof text !== 'string') throw new TypeError(`App ${def.name}: the html loader returned no text`);
      const item: Record<string, unknown> = { uri, mimeType: APP_MIME_TYPE, text };
      if (contentMeta) item._meta = contentMeta;
      return { contents: [item as { uri: string; mimeType: string; text: string }] };
    },
  );
  let tool: Registration;
  try {
    tool = registerAppTool(server, { ...rest, resourceUri } as AppToolDefinition<S>, handler);
  } catch (e) {
    resource.remove();
    throw e;
  }
  return {
    remove: () => {
      tool.remove();
      resource.remove();
    },
  };
}
