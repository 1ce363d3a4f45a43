/**
 * mcpkit: the names an MCP application needs, in one import.
 *
 * - `mcpkit`: this list: a server, a client, tools/resources/prompts, the in-memory
 *   transport, the errors and the main types.
 * - `mcpkit/server`, `mcpkit/client`: each role's complete API (tasks, Apps, skills, caches,
 *   schema adapters, change buses...).
 * - `mcpkit/stdio`, `mcpkit/http-server`, `mcpkit/http-client`, `mcpkit/post-message`: the
 *   other transports.
 * - `mcpkit/types`: the protocol's message types. `mcpkit/auth`, `mcpkit/host`: OAuth, the host.
 * - `mcpkit/advanced`: the engine (sessions, protocol tables, frame parsing), for people
 *   writing transports, gateways or test tools.
 *
 * The imports below name the defining files, not the role barrels, so that importing the root
 * loads only what these names need.
 *
 * @packageDocumentation
 */
// Server
export { McpServer } from './server/server.js';
export type { ServerOptions } from './server/server.js';
export { ServerContext } from './server/server-context.js';
export { toolError } from './server/tools.js';
export type { ToolDefinition, ToolHandler } from './server/tools.js';
export type {
  ReadHandler,
  ResourceDefinition,
  ResourceTemplateDefinition,
  TemplateReadHandler,
} from './server/resources.js';
export type { PromptDefinition, PromptHandler } from './server/prompts.js';
export type { Middleware } from './server/middleware.js';

// Client
export { Client } from './client/client.js';
export type { CallOptions, ClientHandlers, ClientOptions } from './client/types.js';

// Both
export type { ChangeEvent } from './protocol/change-event.js';
export { memoryPair } from './transports/memory/memory-transport.js';
export type { Transport } from './jsonrpc/transport.js';
export type { Era, ProtocolVersion } from './protocol/versions.js';
// Interceptors (SEP-2624's model), for servers and clients alike; the finer types are in
// mcpkit/advanced.
export { answer } from './session/interceptors.js';
export type { Interceptor, Mutator, Validator, Wrap } from './session/interceptors.js';
// OpenTelemetry (`telemetry` on McpServer and Client; see docs/observability.md).
export type { TelemetryOptions, TelemetrySetting } from './telemetry/telemetry-options.js';

// Errors: on the wire (a numeric JSON-RPC code) and local (a string code).
export { ErrorCode } from './jsonrpc/error-codes.js';
export { WireError } from './jsonrpc/wire-error.js';
export { LocalError } from './jsonrpc/local-error.js';
