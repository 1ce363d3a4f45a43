/**
 * Everything the Streamable HTTP client does differently in the two eras, as one object per
 * era. The transport picks one from the traffic (an `initialize` request, or a request
 * whose `_meta` names a modern version) and from then on calls it instead of asking which
 * era it is in. Internal.
 */
import type { JsonRpcMessage } from '../../jsonrpc/index.js';
import type { Era } from '../../protocol/versions.js';
import type { HttpClientCore } from './http-client-core.js';
import type { HeaderRecord } from './requester.js';

export interface HttpClientEra {
  /** The era, or `undefined` before the traffic has named one. */
  readonly name: Era | undefined;
  /**
   * The initialize response's `Mcp-Session-Id` is kept and sent back on every request; a
   * 404 on such a request means the server ended the session.
   */
  readonly keepsSessionId: boolean;
  /** `notifications/initialized` opens the standalone GET stream (server-to-client messages). */
  readonly opensStandalone: boolean;
  /** A response stream broken before its answers resumes with a GET and `Last-Event-ID`. */
  readonly resumesStreams: boolean;
  /**
   * Closing a request's HTTP exchange is its cancellation. Otherwise the session sends
   * `notifications/cancelled` and the stream stays open.
   */
  readonly abortCancels: boolean;
  /** `close()` DELETEs the session, when the server gave one. */
  readonly deletesSession: boolean;
  /** The version sent as `MCP-Protocol-Version`: negotiated, or the latest request's. */
  protocolVersion(core: HttpClientCore): string | undefined;
  /** Adds the era's protocol headers to one HTTP request (they win over the caller's). */
  addHeaders(
    core: HttpClientCore,
    h: HeaderRecord,
    message: JsonRpcMessage | JsonRpcMessage[] | undefined,
  ): void;
  /** A `tools/list` result as the session gets it, after the transport learned from it. */
  learnTools(core: HttpClientCore, result: Record<string, unknown>): Record<string, unknown>;
}

/** The legacy session headers: the session id and the negotiated version, once known. */
function addSessionHeaders(core: HttpClientCore, h: HeaderRecord): void {
  if (core.sid !== undefined) h['mcp-session-id'] = core.sid;
  if (core.negotiated !== undefined) h['mcp-protocol-version'] = core.negotiated;
}

/** `initialize`-based sessions (2024-11-05 to 2025-11-25). */
export const legacyHttpEra: HttpClientEra = {
  name: 'legacy',
  keepsSessionId: true,
  opensStandalone: true,
  resumesStreams: true,
  abortCancels: false,
  deletesSession: true,
  protocolVersion: (core) => core.negotiated,
  addHeaders: addSessionHeaders,
  learnTools: (_core, result) => result,
};

/**
 * The stateless revision (2026-07-28): no session, no standalone stream (server messages
 * ride on `subscriptions/listen`), and per-request `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-{Name}` headers, the last learned from the tools' `x-mcp-header` annotations.
 */
export const modernHttpEra: HttpClientEra = {
  name: 'modern',
  keepsSessionId: false,
  opensStandalone: false,
  resumesStreams: false,
  abortCancels: true,
  deletesSession: false,
  protocolVersion: (core) => core.modernVersion,
  addHeaders(core, h, message) {
    // A batch (2025-03-26 only) has no per-request headers.
    if (message !== undefined && !Array.isArray(message))
      core.book.addHeaders(h, message, core.modernVersion);
  },
  learnTools: (core, result) => core.book.learn(result),
};

/**
 * Before the first request names an era: a client that skips both `initialize` and modern
 * `_meta` talks like a legacy one (resumption included) but never gets a standalone stream,
 * which only `notifications/initialized` after an `initialize` asks for.
 */
export const undecidedHttpEra: HttpClientEra = {
  ...legacyHttpEra,
  name: undefined,
  opensStandalone: false,
  // No session id is taken without an `initialize`, so there is none to end.
  keepsSessionId: false,
  deletesSession: false,
};
