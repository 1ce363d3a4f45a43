/** A JSON-RPC request id as MCP allows it: a string or a safe integer, never null. */
export type RequestId = string | number;

/** Parameters of a request or notification: MCP always uses an object. */
export type Params = { [key: string]: unknown };

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Params;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: { [key: string]: unknown };
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Null only when the id of the offending message could not be read. */
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

export type JsonRpcMessage =
  JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

/** Whether a message is a request (it has both `method` and `id`). */
export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return 'method' in m && 'id' in m;
}

/** Whether a message is a notification (it has `method` and no `id`). */
export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return 'method' in m && !('id' in m);
}

/** Whether a message is a response of either kind. */
export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !('method' in m);
}

/** Whether a message is an error response. */
export function isErrorResponse(m: JsonRpcMessage): m is JsonRpcErrorResponse {
  return 'error' in m && !('method' in m);
}
