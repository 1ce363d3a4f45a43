export type {
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  Params,
  RequestId,
} from './message.js';
export { isErrorResponse, isNotification, isRequest, isResponse } from './message.js';
export { ErrorCode, httpStatusForCode } from './error-codes.js';
export type { KnownErrorCode } from './error-codes.js';
export { WireError } from './wire-error.js';
export { LocalError } from './local-error.js';
export type { LocalErrorCode } from './local-error.js';
export { InvalidMessage, inspectMessage, isValidId } from './inspect.js';
export { ParsedBatch, inspectValue, parseFrame, parseFrameBytes } from './parse.js';
export type { ParsedFrame } from './parse.js';
export { errorResponse, serializeMessage } from './serialize.js';
export { HOLDS_RAW_JSON, RawJson } from './raw-json.js';
export type { FrameInfo, SendOptions, Transport, TransportSink } from './transport.js';
