/**
 * `data` payloads of MCP-defined JSON-RPC errors, and the error objects that carry them.
 * The numeric codes themselves live in `ErrorCode` (src/jsonrpc/error-codes.ts).
 */
import type { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { ClientCapabilities } from './capabilities.js';
import type { ElicitRequestURLParams } from './elicitation.js';

/**
 * `data` of UnsupportedProtocolVersion (-32022, 2026-07-28). Legacy servers send the same
 * shape with InvalidParams (-32602) when `initialize` names a version they cannot speak.
 */
export interface UnsupportedProtocolVersionErrorData {
  /** Revisions the server accepts. */
  supported: string[];
  /** The revision the client asked for. */
  requested: string;
  [key: string]: unknown;
}

/** `data` of MissingRequiredClientCapability (-32021). @since 2026-07-28 */
export interface MissingRequiredClientCapabilityErrorData {
  /** The capabilities the client would have to declare. */
  requiredCapabilities: ClientCapabilities;
  [key: string]: unknown;
}

/**
 * `data` of HeaderMismatch (-32020). The spec defines no fields; the message says which
 * header disagreed with the body.
 * @since 2026-07-28
 */
export interface HeaderMismatchErrorData {
  [key: string]: unknown;
}

/** `data` of a resource-not-found error (-32002 before 2026-07-28, -32602 from then). */
export interface ResourceNotFoundErrorData {
  uri: string;
  [key: string]: unknown;
}

/** `data` of URLElicitationRequired (-32042). @since 2025-11-25 @removed 2026-07-28 */
export interface UrlElicitationRequiredErrorData {
  /** The URL-mode elicitations to complete before retrying. */
  elicitations: ElicitRequestURLParams[];
  [key: string]: unknown;
}

/** A JSON-RPC error object with a fixed code and typed `data`. */
export interface McpErrorObject<Code extends number, Data> {
  code: Code;
  message: string;
  data: Data;
}

/** @since 2026-07-28 */
export type UnsupportedProtocolVersionError = McpErrorObject<
  (typeof ErrorCode)['UnsupportedProtocolVersion'],
  UnsupportedProtocolVersionErrorData
>;

/** @since 2026-07-28 */
export type MissingRequiredClientCapabilityError = McpErrorObject<
  (typeof ErrorCode)['MissingRequiredClientCapability'],
  MissingRequiredClientCapabilityErrorData
>;

/** `data` may be absent. @since 2026-07-28 */
export interface HeaderMismatchError {
  code: (typeof ErrorCode)['HeaderMismatch'];
  message: string;
  data?: HeaderMismatchErrorData;
}

/** @since 2025-11-25 @removed 2026-07-28 */
export type UrlElicitationRequiredError = McpErrorObject<
  (typeof ErrorCode)['UrlElicitationRequired'],
  UrlElicitationRequiredErrorData
>;
