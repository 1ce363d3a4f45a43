/**
 * `mcpkit/types`: the MCP wire vocabulary, as types only (it loads no code): a superset of
 * every supported revision, and the Apps extension's shapes both halves share. The reserved
 * `_meta` keys and extension ids are values: `mcpkit/advanced` has them.
 *
 * @packageDocumentation
 */
export type { AppCsp, AppPermissions, AppResourceMeta, AppToolMeta, AppVisibility } from '../apps.js';

export type {
  Annotations,
  BaseMetadata,
  CacheableResult,
  CacheScope,
  Cursor,
  EmptyResult,
  Icon,
  Icons,
  Implementation,
  JsonObject,
  JsonValue,
  LoggingLevel,
  Meta,
  ModernRequestMeta,
  NotificationMeta,
  NotificationParams,
  PaginatedParams,
  PaginatedResult,
  ProgressToken,
  RequestId,
  RequestMeta,
  RequestParams,
  Result,
  ResultMeta,
  ResultType,
  Role,
  TraceContextMeta,
} from './base.js';
export type {
  CapabilitySettings,
  ClientCapabilities,
  ClientTasksCapability,
  ServerCapabilities,
  ServerTasksCapability,
} from './capabilities.js';
export type {
  AudioContent,
  BlobResourceContents,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceContentsItem,
  ResourceLink,
  TextContent,
  TextResourceContents,
  ToolResultContent,
  ToolUseContent,
} from './content.js';
export type {
  DiscoverRequestParams,
  DiscoverResult,
  InitializeRequestParams,
  InitializeResult,
  PingRequest,
  PingRequestParams,
} from './lifecycle.js';
export type {
  CallToolRequestParams,
  CallToolResult,
  JsonSchema,
  JsonSchemaObject,
  ListToolsRequestParams,
  ListToolsResult,
  Tool,
  ToolAnnotations,
  ToolExecution,
  ToolInputSchema,
  ToolOutputSchema,
} from './tools.js';
export type {
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceRequestParams,
  ResourceTemplate,
  ResourceUpdatedNotificationParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from './resources.js';
export type {
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
  Prompt,
  PromptArgument,
  PromptMessage,
} from './prompts.js';
export type {
  CompleteRequestParams,
  CompleteResult,
  PromptReference,
  ResourceReference,
  ResourceTemplateReference,
} from './completion.js';
export type { LoggingMessageNotificationParams, SetLevelRequestParams } from './logging.js';
export type {
  CreateMessageRequestParams,
  CreateMessageResult,
  IncludeContext,
  ModelHint,
  ModelPreferences,
  SamplingMessage,
  SamplingMessageContentBlock,
  StopReason,
  ToolChoice,
} from './sampling.js';
export type {
  BooleanSchema,
  ElicitAction,
  ElicitationCompleteNotificationParams,
  ElicitationRequestedSchema,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  ElicitValue,
  EnumSchema,
  LegacyTitledEnumSchema,
  MultiSelectEnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  SingleSelectEnumSchema,
  StringSchema,
  TitledEnumOption,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from './elicitation.js';
export type { ListRootsRequestParams, ListRootsResult, Root } from './roots.js';
export type {
  CreateMessageInputRequest,
  ElicitInputRequest,
  InputRequest,
  InputRequestMethod,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
  ListRootsInputRequest,
} from './mrtr.js';
export type {
  SubscriptionFilter,
  SubscriptionNotificationMeta,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
  SubscriptionsListenResultMeta,
} from './subscriptions.js';
export type {
  CancelledNotificationParams,
  InitializedNotificationParams,
  ProgressNotificationParams,
  PromptListChangedNotificationParams,
  ResourceListChangedNotificationParams,
  RootsListChangedNotificationParams,
  ToolListChangedNotificationParams,
} from './notifications.js';
export type {
  HeaderMismatchError,
  HeaderMismatchErrorData,
  McpErrorObject,
  MissingRequiredClientCapabilityError,
  MissingRequiredClientCapabilityErrorData,
  ResourceNotFoundErrorData,
  UnsupportedProtocolVersionError,
  UnsupportedProtocolVersionErrorData,
  UrlElicitationRequiredError,
  UrlElicitationRequiredErrorData,
} from './errors.js';
export type {
  CancelTaskRequestParams,
  CancelTaskResult,
  CreateTaskResult,
  GetTaskPayloadRequestParams,
  GetTaskPayloadResult,
  GetTaskRequestParams,
  GetTaskResult,
  ListTasksRequestParams,
  ListTasksResult,
  RelatedTaskMetadata,
  Task,
  TaskIdParams,
  TaskMetadata,
  TaskStatus,
  TaskStatusNotificationParams,
} from './tasks.js';
export type {
  AnyNotificationType,
  AnyRequestType,
  InputRequiredMethod,
  NotificationMap,
  NotificationMethod,
  NotificationParamsOf,
  RequestMap,
  RequestMethod,
  RequestParamsOf,
  RequestResultOf,
  WireResultOf,
} from './method-map.js';
export type {
  InterceptorDescriptor,
  InvokeInterceptorParams,
  InvokeInterceptorResult,
  ListInterceptorsParams,
  ListInterceptorsResult,
} from '../interceptors-wire.js';
