/**
 * Method name → params/result types, for typed `request()` / `notify()` helpers. Covers
 * every method of every supported revision; which revisions have a method is recorded in
 * `src/protocol/methods.ts`. An optional `params` means the message may omit it.
 *
 * Results here are the final (`complete`) shapes. In 2026-07-28 the methods listed in
 * {@link InputRequiredMethod} may instead answer with an `InputRequiredResult`.
 */
import type { EmptyResult } from './base.js';
import type { CompleteRequestParams, CompleteResult } from './completion.js';
import type {
  ElicitationCompleteNotificationParams,
  ElicitRequestParams,
  ElicitResult,
} from './elicitation.js';
import type {
  DiscoverRequestParams,
  DiscoverResult,
  InitializeRequestParams,
  InitializeResult,
  PingRequestParams,
} from './lifecycle.js';
import type { LoggingMessageNotificationParams, SetLevelRequestParams } from './logging.js';
import type { InputRequiredResult } from './mrtr.js';
import type {
  CancelledNotificationParams,
  InitializedNotificationParams,
  ProgressNotificationParams,
  PromptListChangedNotificationParams,
  ResourceListChangedNotificationParams,
  RootsListChangedNotificationParams,
  ToolListChangedNotificationParams,
} from './notifications.js';
import type {
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
} from './prompts.js';
import type {
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  ResourceUpdatedNotificationParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from './resources.js';
import type { ListRootsRequestParams, ListRootsResult } from './roots.js';
import type { CreateMessageRequestParams, CreateMessageResult } from './sampling.js';
import type {
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from './subscriptions.js';
import type {
  CancelTaskRequestParams,
  CancelTaskResult,
  GetTaskPayloadRequestParams,
  GetTaskPayloadResult,
  GetTaskRequestParams,
  GetTaskResult,
  ListTasksRequestParams,
  ListTasksResult,
  TaskStatusNotificationParams,
} from './tasks.js';
import type {
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequestParams,
  ListToolsResult,
} from './tools.js';

/** Every request method, with its params and (final) result. */
export interface RequestMap {
  // Lifecycle
  /** @removed 2026-07-28 */
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  /** @removed 2026-07-28 */
  ping: { params?: PingRequestParams; result: EmptyResult };
  /** @since 2026-07-28 */
  'server/discover': { params?: DiscoverRequestParams; result: DiscoverResult };

  // Tools
  'tools/list': { params?: ListToolsRequestParams; result: ListToolsResult };
  'tools/call': { params: CallToolRequestParams; result: CallToolResult };

  // Resources
  'resources/list': { params?: ListResourcesRequestParams; result: ListResourcesResult };
  'resources/templates/list': {
    params?: ListResourceTemplatesRequestParams;
    result: ListResourceTemplatesResult;
  };
  'resources/read': { params: ReadResourceRequestParams; result: ReadResourceResult };
  /** @removed 2026-07-28 */
  'resources/subscribe': { params: SubscribeRequestParams; result: EmptyResult };
  /** @removed 2026-07-28 */
  'resources/unsubscribe': { params: UnsubscribeRequestParams; result: EmptyResult };

  // Prompts
  'prompts/list': { params?: ListPromptsRequestParams; result: ListPromptsResult };
  'prompts/get': { params: GetPromptRequestParams; result: GetPromptResult };

  // Completion and logging
  'completion/complete': { params: CompleteRequestParams; result: CompleteResult };
  /** @removed 2026-07-28 */
  'logging/setLevel': { params: SetLevelRequestParams; result: EmptyResult };

  // Client features (server → client; MRTR input requests from 2026-07-28)
  'sampling/createMessage': { params: CreateMessageRequestParams; result: CreateMessageResult };
  /** @since 2025-06-18 */
  'elicitation/create': { params: ElicitRequestParams; result: ElicitResult };
  'roots/list': { params?: ListRootsRequestParams; result: ListRootsResult };

  // Subscriptions
  /** @since 2026-07-28 */
  'subscriptions/listen': {
    params: SubscriptionsListenRequestParams;
    result: SubscriptionsListenResult;
  };

  // Tasks (2025-11-25 core; an extension afterwards, with different shapes)
  /** @since 2025-11-25 (core in 2025-11-25 only; the tasks extension reuses the name) */
  'tasks/get': { params: GetTaskRequestParams; result: GetTaskResult };
  /** @since 2025-11-25 @removed 2026-07-28 */
  'tasks/result': { params: GetTaskPayloadRequestParams; result: GetTaskPayloadResult };
  /** @since 2025-11-25 @removed 2026-07-28 */
  'tasks/list': { params?: ListTasksRequestParams; result: ListTasksResult };
  /** @since 2025-11-25 (core in 2025-11-25 only; the tasks extension reuses the name) */
  'tasks/cancel': { params: CancelTaskRequestParams; result: CancelTaskResult };
}

/** Every notification method, with its params. */
export interface NotificationMap {
  /** @removed 2026-07-28 */
  'notifications/initialized': { params?: InitializedNotificationParams };
  'notifications/cancelled': { params: CancelledNotificationParams };
  'notifications/progress': { params: ProgressNotificationParams };
  'notifications/message': { params: LoggingMessageNotificationParams };
  'notifications/resources/updated': { params: ResourceUpdatedNotificationParams };
  'notifications/resources/list_changed': { params?: ResourceListChangedNotificationParams };
  'notifications/tools/list_changed': { params?: ToolListChangedNotificationParams };
  'notifications/prompts/list_changed': { params?: PromptListChangedNotificationParams };
  /** @removed 2026-07-28 */
  'notifications/roots/list_changed': { params?: RootsListChangedNotificationParams };
  /** @since 2025-11-25 @removed 2026-07-28 */
  'notifications/elicitation/complete': { params: ElicitationCompleteNotificationParams };
  /** @since 2026-07-28 */
  'notifications/subscriptions/acknowledged': {
    params: SubscriptionsAcknowledgedNotificationParams;
  };
  /** @since 2025-11-25 @removed 2026-07-28 */
  'notifications/tasks/status': { params: TaskStatusNotificationParams };
}

export type RequestMethod = keyof RequestMap;
export type NotificationMethod = keyof NotificationMap;

/** Params type of a request method (includes `undefined` when params may be omitted). */
export type RequestParamsOf<M extends RequestMethod> = RequestMap[M]['params'];

/** Final result type of a request method. */
export type RequestResultOf<M extends RequestMethod> = RequestMap[M]['result'];

/** Params type of a notification method (includes `undefined` when params may be omitted). */
export type NotificationParamsOf<M extends NotificationMethod> = NotificationMap[M]['params'];

/** Requests a 2026-07-28 server may answer with an `InputRequiredResult`. */
export type InputRequiredMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** What a request may resolve to on the wire, counting MRTR interim results. */
export type WireResultOf<M extends RequestMethod> = M extends InputRequiredMethod
  ? RequestMap[M]['result'] | InputRequiredResult
  : RequestMap[M]['result'];
