import type { Attributes } from '@opentelemetry/api';
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import { isModernVersion } from '../protocol/versions.js';

/** Attribute names from the OpenTelemetry MCP semantic conventions. */
export const Attr = {
  Method: 'mcp.method.name',
  ProtocolVersion: 'mcp.protocol.version',
  SessionId: 'mcp.session.id',
  ResourceUri: 'mcp.resource.uri',
  RequestId: 'jsonrpc.request.id',
  StatusCode: 'rpc.response.status_code',
  ErrorType: 'error.type',
  ToolName: 'gen_ai.tool.name',
  PromptName: 'gen_ai.prompt.name',
  OperationName: 'gen_ai.operation.name',
  NetworkTransport: 'network.transport',
  NetworkProtocol: 'network.protocol.name',
} as const;

/** `error.type` for a tool result with `isError: true` (the conventions' value). */
export const TOOL_ERROR = 'tool_error';

/** How the connection travels, from a transport's `kind`: the `network.*` attributes. */
export interface NetworkOf {
  transport: string | undefined;
  protocol: string | undefined;
}

export function networkOf(kind: string | undefined): NetworkOf {
  switch (kind) {
    case 'stdio':
      return { transport: 'pipe', protocol: undefined };
    case 'http':
    case 'sse':
      return { transport: 'tcp', protocol: 'http' };
    default:
      return { transport: undefined, protocol: undefined };
  }
}

const URI_METHODS = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/resources/updated',
]);

/** The low-cardinality target of a span name (`tools/call get-weather`), if the method has one. */
function targetOf(method: string, params: Params | undefined): string | undefined {
  if (params === undefined) return undefined;
  if (method === 'tools/call' || method === 'prompts/get') {
    const name = params.name;
    return typeof name === 'string' ? name : undefined;
  }
  return undefined;
}

/** The span name and the attributes both spans and metrics carry (low cardinality). */
export interface Described {
  name: string;
  /** Attributes for metrics: method, tool or prompt, version, network. */
  common: Attributes;
}

export function describe(
  method: string,
  params: Params | undefined,
  version: string | undefined,
  network: NetworkOf,
): Described {
  const common: Attributes = { [Attr.Method]: method };
  const target = targetOf(method, params);
  if (target !== undefined) {
    if (method === 'tools/call') {
      common[Attr.ToolName] = target;
      common[Attr.OperationName] = 'execute_tool';
    } else common[Attr.PromptName] = target;
  }
  if (version !== undefined) common[Attr.ProtocolVersion] = version;
  if (network.transport !== undefined) common[Attr.NetworkTransport] = network.transport;
  if (network.protocol !== undefined) common[Attr.NetworkProtocol] = network.protocol;
  return { name: target === undefined ? method : `${method} ${target}`, common };
}

/** Span-only attributes: the request id, the session id and the resource URI (high cardinality). */
export function spanAttributes(
  common: Attributes,
  method: string,
  id: RequestId | undefined,
  params: Params | undefined,
  version: string | undefined,
  sessionId: string | undefined,
): Attributes {
  // Object.assign, not a spread: the spread of these dotted keys profiled as the layer's hottest line.
  const attrs: Attributes = Object.assign({}, common);
  if (id !== undefined) attrs[Attr.RequestId] = String(id);
  // 2026-07-28 is stateless: its requests belong to no session.
  if (sessionId !== undefined && !(version !== undefined && isModernVersion(version))) {
    attrs[Attr.SessionId] = sessionId;
  }
  if (params !== undefined && URI_METHODS.has(method) && typeof params.uri === 'string') {
    attrs[Attr.ResourceUri] = params.uri;
  }
  return attrs;
}

/** What an operation failed with: `error.type`, the JSON-RPC code when there was one, and a message. */
export interface Failure {
  type: string;
  code: string | undefined;
  message: string | undefined;
}

/** The failure an outcome stands for, or undefined when it succeeded. */
export function failureOf(method: string, result: unknown, error: unknown): Failure | undefined {
  if (error !== undefined) {
    if (error instanceof WireError) {
      const code = String(error.code);
      return { type: code, code, message: error.message };
    }
    if (error instanceof LocalError) return { type: error.code, code: undefined, message: error.message };
    if (error instanceof Error)
      return { type: error.name || '_OTHER', code: undefined, message: error.message };
    return { type: '_OTHER', code: undefined, message: undefined };
  }
  if (
    method === 'tools/call' &&
    typeof result === 'object' &&
    result !== null &&
    (result as { isError?: unknown }).isError === true
  ) {
    return { type: TOOL_ERROR, code: undefined, message: undefined };
  }
  return undefined;
}
