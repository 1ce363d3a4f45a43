import { appResourceUri } from '../../protocol/apps.js';
import { AppBridge } from './app-bridge.js';
import type { AppBridgeOptions } from './app-bridge.js';
import { loadAppResource } from './app-resource.js';

/** What {@link openAppView} needs beyond the bridge's own options. */
export interface OpenAppViewOptions extends AppBridgeOptions {
  /** The element the view's iframe goes into. */
  container: HTMLElement;
  /** The sandbox proxy page's URL, on another origin than the page. */
  proxyUrl: string | URL;
  /** The tool, as the server listed it, whose view to render. */
  tool: { name: string; _meta?: unknown; inputSchema?: unknown };
  /** The view's `resources/list` entry, when the host has it (its `_meta.ui` fills gaps). */
  listing?: { _meta?: unknown };
  /**
   * The call's arguments. When given, the tool is called now through `server.callTool` and
   * its input and result (or its cancellation) go to the view. Leave it out to render the
   * view for a call made elsewhere and send them yourself.
   */
  arguments?: Record<string, unknown>;
  /** Aborts the tool call; the view then gets `ui/notifications/tool-cancelled`. */
  signal?: AbortSignal;
}

/**
 * Renders a tool's app view in one call: reads its `ui://` resource, mounts an
 * {@link AppBridge} in `container`, and, with `arguments`, calls the tool and passes the
 * input and the result (or the cancellation) to the view. Resolves with the bridge once the
 * view is mounted; the call's outcome arrives on `result`.
 *
 * @example
 * ```ts
 * import { openAppView } from 'mcpkit/host/apps';
 *
 * const { tools } = await client.listTools();
 * const view = await openAppView({
 *   server: client,
 *   tool: tools.find((t) => t.name === 'show_counter')!,
 *   arguments: { start: 5 },
 *   container: document.getElementById('app')!,
 *   proxyUrl: 'http://127.0.0.1:6275/sandbox',
 * });
 * console.log(await view.result);
 * ```
 */
export async function openAppView(
  options: OpenAppViewOptions,
): Promise<{ bridge: AppBridge; result: Promise<Record<string, unknown> | undefined> }> {
  const { container, proxyUrl, tool, listing, arguments: args, signal, ...bridgeOptions } = options;
  const uri = appResourceUri(tool);
  if (!uri) throw new TypeError(`Tool ${tool.name} has no app view (_meta.ui.resourceUri)`);
  const resource = await loadAppResource(bridgeOptions.server, uri, {
    ...(listing ? { listing } : {}),
    ...(signal ? { signal } : {}),
  });
  const bridge = new AppBridge(bridgeOptions);
  await bridge.mount({ container, proxyUrl, resource, tool });
  if (!args) return { bridge, result: Promise.resolve(undefined) };
  bridge.sendToolInput(args);
  const result = bridgeOptions.server
    .callTool({ name: tool.name, arguments: args }, signal ? { signal } : {})
    .then(
      (r) => {
        bridge.sendToolResult(r);
        return r;
      },
      (e: unknown) => {
        bridge.sendToolCancelled(e instanceof Error ? e.message : String(e));
        return undefined;
      },
    );
  return { bridge, result };
}
