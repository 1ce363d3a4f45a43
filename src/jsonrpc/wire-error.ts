import type { JsonRpcErrorObject } from './message.js';
import { ErrorCode } from './error-codes.js';

/**
 * The only error that crosses the wire. Throw it from a handler to answer with exactly
 * this code, message and data; receive it when a peer answers with an error.
 *
 * @example
 * ```ts
 * throw new WireError(ErrorCode.InvalidParams, 'Unknown tool: frobnicate');
 * ```
 */
export class WireError extends Error {
  override readonly name = 'WireError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  /** The JSON-RPC `error` member for this error. */
  toJSON(): JsonRpcErrorObject {
    const out: JsonRpcErrorObject = { code: this.code, message: this.message };
    if (this.data !== undefined) out.data = this.data;
    return out;
  }

  /** Builds a WireError from a peer's error object; unknown codes are kept as they are. */
  static fromObject(error: JsonRpcErrorObject): WireError {
    return new WireError(error.code, error.message, error.data);
  }

  static parseError(message = 'Parse error'): WireError {
    return new WireError(ErrorCode.ParseError, message);
  }

  static invalidRequest(message = 'Invalid Request'): WireError {
    return new WireError(ErrorCode.InvalidRequest, message);
  }

  static methodNotFound(method: string): WireError {
    return new WireError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  static invalidParams(message: string, data?: unknown): WireError {
    return new WireError(ErrorCode.InvalidParams, message, data);
  }

  static internal(message = 'Internal error'): WireError {
    return new WireError(ErrorCode.InternalError, message);
  }
}
