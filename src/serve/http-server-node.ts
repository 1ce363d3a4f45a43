// `mcpkit/http-server` on Node, Bun and Deno (package.json's `node`, `bun` and `deno`
// conditions): the runtime-neutral entry's names (kept equal by entry-points.test.ts), plus
// serve() and the Node listener.
export {
  Authentication,
  HostGuard,
  McpHttpHandler,
  MemoryEventStore,
  MemoryLegacySessionStore,
  fetchHandler,
} from '../transports/http-server/index.js';
export type {
  AppendOptions,
  BodyResult,
  ClusterBus,
  ClusterMessage,
  CopyLease,
  EventStore,
  FetchExecutionContext,
  FollowableEventStore,
  HostGuardOptions,
  HttpExchange,
  HttpLogger,
  HttpRefusal,
  LeaseHolders,
  LegacySessionRecord,
  LegacySessionStore,
  McpCall,
  McpConnector,
  McpHttpOptions,
  RequestAuthorizer,
  ResponseStream,
  ServerCardIdentity,
  ServerCardOptions,
  ServerCardRemoteEntry,
  SessionLimits,
  SharedStores,
} from '../transports/http-server/index.js';
export { nodeListener, serve } from './index.js';
export type { NodeAuthenticator, RunningServer, ServeOptions } from './index.js';
