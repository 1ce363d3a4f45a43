/**
 * `mcpkit/advanced`: the engine under the public API, for people writing their own transport,
 * a gateway, a proxy or test tooling: the JSON-RPC frame layer, the protocol's tables
 * (versions, eras, meta keys, methods) and the `Session` that runs one connection.
 *
 * Applications need none of it: `mcpkit` has the server, the client and their types. These
 * names follow the engine and may change between minor releases.
 *
 * @packageDocumentation
 */
// JSON-RPC frames.
export {
  InvalidMessage,
  ParsedBatch,
  errorResponse,
  httpStatusForCode,
  inspectMessage,
  inspectValue,
  isErrorResponse,
  isNotification,
  isRequest,
  isResponse,
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
  KnownErrorCode,
  LocalErrorCode,
  Params,
  ParsedFrame,
  SendOptions,
  TransportSink,
} from './jsonrpc/index.js';

// The protocol's tables.
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
export type { LegacyVersion, ModernVersion } from './protocol/versions.js';
export {
  APPS_EXTENSION,
  INTERCEPTORS_EXTENSION,
  MetaKey,
  SKILLS_EXTENSION,
  TASKS_EXTENSION,
} from './protocol/meta-keys.js';
export { silenceDeprecations, warnDeprecated } from './protocol/deprecation.js';
export {
  METHODS,
  Method,
  describeMethod,
  hasCapability,
  isMrtrMethod,
  methodInRevision,
} from './protocol/methods.js';
export type {
  AnyMethodType,
  CapabilityRef,
  MethodDescriptor,
  NotificationType,
  ParamsOf,
  RequestType,
  ResultOf,
  WireResult,
} from './protocol/methods.js';

// The session engine.
export {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  LOG_LEVELS,
  RequestContext,
  Session,
  clientRole,
  isLogLevel,
  parseTraceparent,
  serverRole,
} from './session/index.js';
export type {
  LogLevel,
  LogRequest,
  Logger,
  LoggerOption,
  NotificationHandler,
  PeerInfo,
  Progress,
  RequestContextInit,
  RequestHandler,
  RequestOptions,
  SessionLogger,
  SessionObserver,
  SessionOptions,
  TaskObserver,
  SessionRole,
  InboundRoute,
  RouteState,
  TraceIds,
} from './session/index.js';

// Telemetry: the loaded OpenTelemetry layer, for hosts, gateways and custom sessions.
// Only the loader is a value here: the layer itself loads on first use.
export { loadTelemetry } from './telemetry/load.js';
export type { OtelApi, Telemetry } from './telemetry/telemetry.js';

// The in-memory transport, as a class (the root has `memoryPair`).
export { MemoryTransport } from './transports/memory/index.js';

// The JSON Schema validator seam: `jsonSchemaValidator` on McpServer and Client takes one.
export { loadAjvValidator, loadInterpretingValidator } from './protocol/json-schema-validator.js';
export type {
  JsonSchemaCheck,
  JsonSchemaCompileOptions,
  JsonSchemaDialect,
  JsonSchemaIssue,
  JsonSchemaResult,
  JsonSchemaValidator,
} from './protocol/json-schema-validator.js';
export { EarlyAnswer } from './session/interceptors.js';
export type {
  Interception,
  InterceptorMode,
  InterceptorPhase,
  ValidationMessage,
  ValidationSeverity,
  ValidationVerdict,
  ValidatorResult,
} from './session/interceptors.js';
export type { InterceptedRequest } from './session/interceptors.js';
export type {
  CallInterception,
  InterceptedNotification,
  NotificationInterception,
} from './session/interceptor-types.js';
