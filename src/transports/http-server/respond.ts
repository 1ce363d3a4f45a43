import { WireError, errorResponse } from '../../jsonrpc/index.js';
import type { FrameInfo, JsonRpcRequest, RequestId, Transport } from '../../jsonrpc/index.js';
import type { HttpExchange } from './exchange.js';
import type { ServerCardIdentity } from './server-card.js';

/** What the HTTP layer needs from a server: a way to serve one connection. */
export interface McpConnector {
  /** The server's identity (a `Server`'s `info`), for the Server Card when one is served. */
  readonly info?: ServerCardIdentity;
  connect(transport: Transport): Promise<{ close(): Promise<void> }>;
  /**
   * Serves one modern request on its own transport without a connection, when the server
   * can; false when it cannot (the HTTP layer then connects the transport and hands it the
   * request). A stateless request then costs no session.
   */
  serveRequest?(transport: Transport, request: JsonRpcRequest, info: FrameInfo): boolean;
  /**
   * A tool's input schema, to check `Mcp-Param-*` headers (modern era), when the caller with
   * `authInfo` may see the tool (per-principal catalogs: a hidden tool is unknown).
   */
  toolInputSchema?(name: string, authInfo?: unknown): Record<string, unknown> | undefined;
  /**
   * The schemas of the tools every caller sees, as a map read without a call into the server
   * (tried first; `toolInputSchema` answers for the others).
   */
  readonly toolInputSchemas?: ReadonlyMap<string, Record<string, unknown>>;
  /**
   * The scopes a tool declares it needs, for the HTTP layer's authorizer (see
   * `ToolDefinition.scopes`); undefined for a tool the caller with `authInfo` may not see.
   */
  toolScopes?(name: string, authInfo?: unknown): readonly string[] | undefined;
  /**
   * Joins a cluster of nodes: change events travel on `changeBus`, and MRTR `requestState`
   * is sealed with `requestStateKey`, the same on every node.
   */
  joinCluster?(parts: {
    changeBus: ClusterChangeBus;
    requestStateKey: Uint8Array;
    taskStore?: unknown;
  }): void;
}

/** The change bus shape the server uses (see the server's `ChangeBus`). */
export interface ClusterChangeBus {
  publish(event: { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string }): void;
  subscribe(
    listener: (
      event: { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string },
    ) => void,
  ): () => void;
}

/** The frame info of a request without auth details or address: nothing, shared. */
const NO_INFO: FrameInfo = Object.freeze({});

/** What the session is told of a POST: its auth details and the socket's address. */
export function frameInfoOf(ex: HttpExchange): FrameInfo {
  const address = ex.remoteAddress;
  if (ex.authInfo === undefined) return address === undefined ? NO_INFO : { remoteAddress: address };
  return address === undefined
    ? { authInfo: ex.authInfo }
    : { authInfo: ex.authInfo, remoteAddress: address };
}

/** Sends a JSON-RPC error as an HTTP answer. */
export function sendError(
  ex: HttpExchange,
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  headers: Record<string, string> = {},
): void {
  ex.respond(
    status,
    { 'content-type': 'application/json', ...headers },
    JSON.stringify(errorResponse(id, new WireError(code, message))),
  );
}
