/**
 * Numeric JSON-RPC and MCP error codes. The set is open: codes a peer sends that are not
 * named here round-trip unchanged through {@link WireError}.
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Resource not found, 2025-11-25 and earlier (2026-07-28 uses InvalidParams). */
  ResourceNotFound: -32002,
  /** Streamable HTTP header does not match the body (2026-07-28). */
  HeaderMismatch: -32020,
  /** The request needs a client capability the client did not declare (2026-07-28). */
  MissingRequiredClientCapability: -32021,
  /** The requested protocol version is not supported (2026-07-28). */
  UnsupportedProtocolVersion: -32022,
  /** URL-mode elicitation required (2025-11-25 only). */
  UrlElicitationRequired: -32042,
  /**
   * mcpkit's own: the caller is over a rate limit; `data.retryAfterMs` says when to retry.
   * MCP defines no such code, and forbids inventing one in -32020..-32099 (its own) or
   * -32000..-32019 (legacy): JSON-RPC 2.0 leaves codes outside -32768..-32000 to the
   * application, and 429 echoes the HTTP status it maps to.
   */
  RateLimited: -31429,
} as const;

export type KnownErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The one table from wire error code to HTTP status, used by the HTTP transports.
 * Anything not listed maps to 200 when it rides in a JSON-RPC body, or to
 * the caller's default.
 */
export function httpStatusForCode(code: number): number {
  switch (code) {
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.InternalError:
      return 500;
    case ErrorCode.RateLimited:
      return 429;
    default:
      return 200;
  }
}
