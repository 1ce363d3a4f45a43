/** The shapes the host half of MCP Apps exchanges with a view (specification 2026-01-26). */
import type { AppCsp, AppPermissions } from '../../protocol/apps.js';

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

/** The sandbox settings actually applied to a view. */
export interface AppSandbox {
  csp: AppCsp;
  permissions: AppPermissions;
  /** The CSP the proxy puts in front of the view's HTML. */
  policy: string;
  /** The inner iframe's `sandbox` attribute. */
  sandbox: string;
}
