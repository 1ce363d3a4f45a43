/**
 * The host half of MCP Apps, browser-safe (no `node:*`): the app bridge, the sandbox
 * proxy page and its CSP, and view discovery. Import it as `mcpkit/host/apps` in a web page.
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
  APPS_EXTENSION,
  APPS_PROTOCOL_VERSION,
  APP_MIME_TYPE,
  appResourceUri,
  appVisibility,
  appsCapability,
  appsClientCapabilities,
  isAppCallable,
  isModelVisible,
  supportsAppViews,
} from '../../protocol/apps.js';
export type {
  AppCsp,
  AppPermissions,
  AppResourceMeta,
  AppToolMeta,
  AppVisibility,
} from '../../protocol/apps.js';
export { PostMessageTransport } from '../../transports/post-message/index.js';
export type { PostMessageTransportOptions } from '../../transports/post-message/index.js';
