// `mcpkit/http-server` everywhere: the fetch core and its seams, no Node module. On Node, Bun
// and Deno the entry is serve/http-server-node.ts, these names plus `serve` and `nodeListener`.
export { McpHttpHandler } from './mcp-http-handler.js';
export type { HttpLogger, McpHttpOptions } from './mcp-http-handler.js';
export type { McpConnector } from './respond.js';
export { Authentication } from './request-authorizer.js';
export type { HttpRefusal, McpCall, RequestAuthorizer } from './request-authorizer.js';
export { fetchHandler } from './fetch-adapter.js';
export type { FetchExecutionContext } from './fetch-adapter.js';
export { MemoryEventStore } from './event-store.js';
export type { EventStore } from './event-store.js';
export { HostGuard } from './host-guard.js';
export type { HostGuardOptions } from './host-guard.js';
export type { BodyResult, HttpExchange, ResponseStream } from './exchange.js';
export { MemoryLegacySessionStore } from './shared-state.js';
export type { ServerCardIdentity, ServerCardOptions, ServerCardRemoteEntry } from './server-card.js';
export type {
  ClusterBus,
  ClusterMessage,
  CopyLease,
  FollowableEventStore,
  LeaseHolders,
  LegacySessionRecord,
  LegacySessionStore,
  SessionLimits,
  SharedStores,
} from './shared-state.js';
export type { AppendOptions } from './event-store.js';
