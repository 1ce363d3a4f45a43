/**
 * The host half of MCP Apps, browser-safe (no `node:*`): the app bridge, the sandbox
 * proxy page and its CSP, and view discovery. Import it as `mcpkit/host/apps` in a web page.
 * The extension's shared shapes are `mcpkit/types`', its MIME type `mcpkit/server`'s, its id
 * `mcpkit/advanced`'s; the view's transport is `mcpkit/post-message`'s `PostMessageTransport`.
 */
export { AppBridge } from './app-bridge.js';
export type { AppBridgeOptions, AppMountOptions } from './app-bridge.js';
export { openAppView } from './open-app-view.js';
export { appDomainLabel, appDomainProxyUrl } from './app-domain.js';
export type { OpenAppViewOptions } from './open-app-view.js';
export type {
  AppDownloadItem,
  AppInitializeParams,
  AppLog,
  AppMessage,
  AppModelContext,
  AppSandbox,
  AppToolCallRequest,
  DisplayMode,
  HostContext,
  ViewTool,
} from './app-bridge-types.js';
export { isAppMimeType, loadAppResource, mergeAppMeta } from './app-resource.js';
export type { AppResource, AppServer } from './app-resource.js';
export { approvedCsp, buildAppCsp, cspSources, grantPermissions, permissionsAllow } from './csp.js';
export {
  DEFAULT_VIEW_SANDBOX,
  SANDBOX_PROXY_HEADERS,
  VIEW_SANDBOX_TOKENS,
  sandboxProxyHtml,
  withCspMeta,
} from './sandbox-proxy.js';
export type { SandboxProxyOptions, SandboxResourceReady } from './sandbox-proxy.js';
export {
  APPS_PROTOCOL_VERSION,
  appResourceUri,
  appVisibility,
  appsCapability,
  appsClientCapabilities,
  isAppCallable,
  isModelVisible,
  supportsAppViews,
} from '../../protocol/apps.js';
