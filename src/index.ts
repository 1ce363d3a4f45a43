// The public API of mcpkit, listed by name.
export {
  ErrorCode,
  InvalidMessage,
  LocalError,
  ParsedBatch,
  WireError,
  errorResponse,
  httpStatusForCode,
  inspectMessage,
  inspectValue,
  isValidId,
  parseFrame,
  parseFrameBytes,
  serializeMessage,
} from './jsonrpc/index.js';
export type {
  FrameInfo,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  LocalErrorCode,
  Params,
  ParsedFrame,
  RequestId,
  SendOptions,
  Transport,
  TransportSink,
} from './jsonrpc/index.js';
export {
  ALL_VERSIONS,
  LATEST_LEGACY_VERSION,
  LATEST_MODERN_VERSION,
  LATEST_VERSION,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  allowsBatch,
  eraOf,
  isKnownVersion,
  isLegacyVersion,
  isModernVersion,
} from './protocol/versions.js';
export type { Era, LegacyVersion, ModernVersion, ProtocolVersion } from './protocol/versions.js';
export { MetaKey } from './protocol/meta-keys.js';
export { METHODS, describeMethod, hasCapability, methodInRevision } from './protocol/methods.js';
export type { CapabilityRef, MethodDescriptor } from './protocol/methods.js';
export {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  LOG_LEVELS,
  RequestContext,
  Session,
  isLogLevel,
} from './session/index.js';
export type {
  Implementation,
  LogLevel,
  NotificationHandler,
  PeerInfo,
  Progress,
  RequestHandler,
  RequestOptions,
  Role,
  SessionLogger,
  SessionOptions,
} from './session/index.js';
export { MemoryTransport, createMemoryPair } from './transports/memory/index.js';
export {
  HmacRequestState,
  LocalChangeBus,
  McpServer,
  ServerContext,
  compileSchema,
  toolError,
} from './server/index.js';
export type {
  AskOptions,
  ChangeBus,
  ChangeEvent,
  CompiledSchema,
  Completer,
  InferOutput,
  JsonSchemaObject,
  Middleware,
  MiddlewareMethod,
  MiddlewareRequest,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptHandler,
  PromptReturn,
  ReadHandler,
  ReadReturn,
  Registration,
  RequestStateCodec,
  ResourceDefinition,
  ResourceTemplateDefinition,
  SchemaInput,
  ServerOptions,
  StandardSchemaLike,
  TemplateReadHandler,
  ToolDefinition,
  ToolHandler,
  ToolReturn,
  ValidationOutcome,
} from './server/index.js';
export {
  Client,
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_PROBE_TIMEOUT_MS,
  ResultCache,
  Subscription,
  applyElicitationDefaults,
  urlRefusal,
} from './client/index.js';
export type {
  CachePartition,
  CallOptions,
  ChangeEvent as SubscriptionEvent,
  ClientHandlers,
  ClientOptions,
  ElicitationConfig,
  ElicitationHandler,
  EraPreference,
  HandlerContext,
  ResubscribeOptions,
  ResultCacheOptions,
  RootsHandler,
  SamplingConfig,
  SamplingHandler,
  ServerNotification,
  SubscribeOptions,
} from './client/index.js';
// Tasks (2025-11-25 and the io.modelcontextprotocol/tasks extension).
export { InMemoryTaskStore, TaskRuntime, applyTaskPatch } from './server/index.js';
export type { TaskOptions, TaskPatch, TaskRecord, TaskState, TaskStore } from './server/index.js';
export { TaskClient, TaskHandle } from './client/index.js';
export type { TaskInfo, TaskWaitOptions } from './client/index.js';

// MCP Apps (io.modelcontextprotocol/ui): server registration and the names both halves share.
export { registerApp, registerAppTool } from './server/index.js';
export type { AppDefinition, AppHtml, AppToolDefinition } from './server/index.js';
export {
  APPS_EXTENSION_ID,
  APPS_PROTOCOL_VERSION,
  APP_MIME_TYPE,
  appResourceUri,
  appVisibility,
  appsCapability,
  appsClientCapabilities,
  isAppCallable,
  isModelVisible,
  supportsAppViews,
} from './protocol/apps.js';
export type { AppCsp, AppPermissions, AppResourceMeta, AppToolMeta, AppVisibility } from './protocol/apps.js';
export { PostMessageTransport } from './transports/post-message/index.js';
export type {
  MessageSource,
  PostMessageTransportOptions,
  PostTarget,
} from './transports/post-message/index.js';
