/** The shapes the host half of MCP Apps exchanges with a view (specification 2026-01-26). */
import type { AppCsp, AppPermissions } from '../../protocol/apps.js';
import type { Implementation, SessionLogger } from '../../session/index.js';
import type { AppResource, AppServer } from './app-resource.js';

export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the host tells the view about where and how it is shown. */
export interface HostContext {
  toolInfo?: { id?: string | number; tool: Record<string, unknown> };
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  /** Fixed `height`/`width`, or flexible up to `maxHeight`/`maxWidth`. */
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  [key: string]: unknown;
}

/** The view's `ui/initialize` parameters, as received. */
export interface AppInitializeParams {
  protocolVersion: string;
  appInfo: { name: string; version: string; [key: string]: unknown };
  appCapabilities: {
    availableDisplayModes?: DisplayMode[];
    tools?: { listChanged?: boolean };
    experimental?: Record<string, unknown>;
    [key: string]: unknown;
  };
}

/** A `tools/call` from the view, for the host's policy to decide. */
export interface AppToolCallRequest {
  name: string;
  arguments: Record<string, unknown>;
  /** The tool as the server listed it (with its `_meta.ui.visibility`). */
  tool: { name: string; _meta?: unknown };
}

/** A content message or context update from the view. */
export interface AppMessage {
  role: 'user';
  content: Array<Record<string, unknown>>;
}

export interface AppModelContext {
  content?: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
}

/** A log line from the view (`notifications/message`). */
export interface AppLog {
  level: string;
  logger?: string;
  data: unknown;
}

/**
 * One file a view offers for download (`ui/download-file`): an embedded resource (the
 * data inline, `text` or base64 `blob`) or a resource link (the host fetches it).
 */
export type AppDownloadItem =
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: unknown };
    }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; [key: string]: unknown };

/** A tool the view itself exposes to the host (`appCapabilities.tools`). */
export interface ViewTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The sandbox settings actually applied to a view. */
export interface AppSandbox {
  csp: AppCsp;
  permissions: AppPermissions;
  /** The CSP the proxy puts in front of the view's HTML. */
  policy: string;
  /** The inner iframe's `sandbox` attribute. */
  sandbox: string;
}

/** A tool as the server listed it (mcpkit's `Tool` fits). */
export type ToolLike = {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  _meta?: unknown;
};

export interface AppBridgeOptions {
  /** The MCP server the view belongs to; its proxied calls go there and nowhere else. */
  server: AppServer;
  /** The server's tools, for the visibility checks. Default: `server.listTools()`, once. */
  tools?: ReadonlyArray<ToolLike>;
  /** The host's name and version, sent as `hostInfo`. */
  hostInfo?: Implementation;
  /** The initial host context (theme, display mode, container size, locale...). */
  hostContext?: HostContext;
  /** Permissions the host is willing to grant; a view gets those it asked for among them. Default: none. */
  grantPermissions?: AppPermissions;
  /** The view iframe's `sandbox` attribute (the proxy keeps only safe tokens). Default: `allow-scripts allow-forms`. */
  sandbox?: string;
  /**
   * Decides a `tools/call` from the view once the bridge has checked that the tool exists
   * on this server and that its visibility includes `"app"`. Default: allow.
   */
  canCallTool?: (request: AppToolCallRequest) => boolean | Promise<boolean>;
  /** Decides a `resources/read` from the view. Default: allow. */
  canReadResource?: (uri: string) => boolean | Promise<boolean>;
  /** Opens a link (`ui/open-link`); without it the host does not offer `openLinks`. Throw to deny. */
  onOpenLink?: (url: string) => void | Promise<void>;
  /** Takes a message for the conversation (`ui/message`); without it the request is refused. */
  onMessage?: (message: AppMessage) => void | Promise<void>;
  /** Takes the view's latest model context (`ui/update-model-context`). */
  onUpdateModelContext?: (context: AppModelContext) => void | Promise<void>;
  /**
   * Switches the display mode (`ui/request-display-mode`) and returns the mode now in
   * effect. Called only for a mode both sides list. Default: grant it.
   */
  onRequestDisplayMode?: (mode: DisplayMode, current: DisplayMode) => DisplayMode | Promise<DisplayMode>;
  /**
   * Saves the files the view offers (`ui/download-file`); without it the host does not
   * offer `downloadFile`. Return false when the user cancels or the host refuses (the view
   * then gets `isError: true`).
   */
  onDownloadFile?: (items: AppDownloadItem[]) => boolean | void | Promise<boolean | void>;
  /**
   * Answers the view's `sampling/createMessage` (the host's model, after whatever review
   * the host does); without it the host does not offer `sampling`. Throw a `WireError` to refuse.
   */
  onSampling?: (params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** The view's own tools changed (`notifications/tools/list_changed`); list them again. */
  onViewToolsChanged?: () => void;
  /** The view's content size changed. Without it, the bridge sizes its iframe itself. */
  onSizeChange?: (size: { width?: number; height?: number }) => void;
  /** A log line from the view. */
  onLog?: (log: AppLog) => void;
  /** The view asked to be closed (`ui/notifications/request-teardown`). */
  onRequestTeardown?: () => void;
  /** The view finished the handshake. */
  onInitialized?: (params: AppInitializeParams) => void;
  /** Something the bridge refused (for an audit log): a message from a wrong origin, a denied call. */
  onRejected?: (what: string, detail?: unknown) => void;
  /** Proxied requests (`tools/call`, `resources/*`) a view may have in flight at once; more are refused. Default 8. */
  maxInFlight?: number;
  /** Timeout for the bridge's own requests to the view (`ui/resource-teardown`, `ping`). Default 5 s. */
  timeoutMs?: number;
  /** Where the JSON-RPC engine reports internal problems. Default: the console. */
  logger?: SessionLogger;
}

/** Where and what to render, for {@link AppBridge.mount}. */
export interface AppMountOptions {
  /** The element the proxy iframe is appended to. */
  container: HTMLElement;
  /**
   * The sandbox proxy page's URL, on an origin different from the page's (serve
   * `sandboxProxyHtml()` there). `host=<this page's origin>` is appended to it.
   */
  proxyUrl: string | URL;
  /** The view, from `loadAppResource`. */
  resource: AppResource;
  /**
   * Frame a view that declares `_meta.ui.domain` on its own origin,
   * `d<hash of the domain>.localhost` at the proxy's port (serve the proxy with
   * `startSandboxProxyServer({ domains: true })`). Default false: every view uses `proxyUrl`.
   */
  domainOrigins?: boolean;
  /** The tool the view renders, and the id of its call, for `hostContext.toolInfo`. */
  tool?: ToolLike;
  toolCallId?: string | number;
}
