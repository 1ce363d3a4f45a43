import type { EmptyResult, NotificationParams, RequestParams, Result } from './types/base.js';
import type { CompleteRequestParams, CompleteResult } from './types/completion.js';
import type {
  ElicitationCompleteNotificationParams,
  ElicitRequestParams,
  ElicitResult,
} from './types/elicitation.js';
import type {
  DiscoverRequestParams,
  DiscoverResult,
  InitializeRequestParams,
  InitializeResult,
  PingRequestParams,
} from './types/lifecycle.js';
import type { LoggingMessageNotificationParams, SetLevelRequestParams } from './types/logging.js';
import type {
  CancelledNotificationParams,
  InitializedNotificationParams,
  ProgressNotificationParams,
  PromptListChangedNotificationParams,
  ResourceListChangedNotificationParams,
  RootsListChangedNotificationParams,
  ToolListChangedNotificationParams,
} from './types/notifications.js';
import type {
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
} from './types/prompts.js';
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
} from './types/resources.js';
import type { ListRootsRequestParams, ListRootsResult } from './types/roots.js';
import type { CreateMessageRequestParams, CreateMessageResult } from './types/sampling.js';
import type {
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from './types/subscriptions.js';
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
} from './types/tasks.js';
import type {
  CallToolRequestParams,
  CallToolResult,
  ListToolsRequestParams,
  ListToolsResult,
} from './types/tools.js';
import { notification, request } from './method-descriptor.js';
import type { CapabilityRef, MethodDescriptor } from './method-descriptor.js';
import type { ProtocolVersion } from './versions.js';

export type {
  CapabilityRef,
  MethodDescriptor,
  NotificationType,
  ParamsOf,
  RequestType,
  ResultOf,
  Sender,
  WireResult,
} from './method-descriptor.js';

const srv = (path: string, since?: ProtocolVersion): CapabilityRef =>
  since ? { side: 'server', path, since } : { side: 'server', path };
const cli = (path: string): CapabilityRef => ({ side: 'client', path });

const table = [
  // Lifecycle and utilities
  request<InitializeRequestParams, InitializeResult>()({
    method: 'initialize',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
  }),
  notification<InitializedNotificationParams | undefined>()({
    method: 'notifications/initialized',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
  }),
  request<PingRequestParams | undefined, EmptyResult>()({
    method: 'ping',
    from: 'both',
    since: '2024-11-05',
    removedIn: '2026-07-28',
  }),
  request<DiscoverRequestParams | undefined, DiscoverResult>()({
    method: 'server/discover',
    from: 'client',
    since: '2026-07-28',
    cacheable: true,
  }),
  notification<CancelledNotificationParams>()({
    method: 'notifications/cancelled',
    from: 'both',
    since: '2024-11-05',
  }),
  notification<ProgressNotificationParams>()({
    method: 'notifications/progress',
    from: 'both',
    since: '2024-11-05',
  }),
  // Tools
  request<ListToolsRequestParams | undefined, ListToolsResult>()({
    method: 'tools/list',
    from: 'client',
    since: '2024-11-05',
    capability: srv('tools'),
    cacheable: true,
  }),
  request<CallToolRequestParams, CallToolResult>()({
    method: 'tools/call',
    from: 'client',
    since: '2024-11-05',
    capability: srv('tools'),
    mrtr: true,
  }),
  notification<ToolListChangedNotificationParams | undefined>()({
    method: 'notifications/tools/list_changed',
    from: 'server',
    since: '2024-11-05',
    capability: srv('tools'),
  }),
  // Resources
  request<ListResourcesRequestParams | undefined, ListResourcesResult>()({
    method: 'resources/list',
    from: 'client',
    since: '2024-11-05',
    capability: srv('resources'),
    cacheable: true,
  }),
  request<ListResourceTemplatesRequestParams | undefined, ListResourceTemplatesResult>()({
    method: 'resources/templates/list',
    from: 'client',
    since: '2024-11-05',
    capability: srv('resources'),
    cacheable: true,
  }),
  request<ReadResourceRequestParams, ReadResourceResult>()({
    method: 'resources/read',
    from: 'client',
    since: '2024-11-05',
    capability: srv('resources'),
    mrtr: true,
    cacheable: true,
  }),
  request<SubscribeRequestParams, EmptyResult>()({
    method: 'resources/subscribe',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: srv('resources.subscribe'),
  }),
  request<UnsubscribeRequestParams, EmptyResult>()({
    method: 'resources/unsubscribe',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: srv('resources.subscribe'),
  }),
  notification<ResourceUpdatedNotificationParams>()({
    method: 'notifications/resources/updated',
    from: 'server',
    since: '2024-11-05',
    capability: srv('resources'),
  }),
  notification<ResourceListChangedNotificationParams | undefined>()({
    method: 'notifications/resources/list_changed',
    from: 'server',
    since: '2024-11-05',
    capability: srv('resources'),
  }),
  // Prompts
  request<ListPromptsRequestParams | undefined, ListPromptsResult>()({
    method: 'prompts/list',
    from: 'client',
    since: '2024-11-05',
    capability: srv('prompts'),
    cacheable: true,
  }),
  request<GetPromptRequestParams, GetPromptResult>()({
    method: 'prompts/get',
    from: 'client',
    since: '2024-11-05',
    capability: srv('prompts'),
    mrtr: true,
  }),
  notification<PromptListChangedNotificationParams | undefined>()({
    method: 'notifications/prompts/list_changed',
    from: 'server',
    since: '2024-11-05',
    capability: srv('prompts'),
  }),
  // Completion and logging
  request<CompleteRequestParams, CompleteResult>()({
    method: 'completion/complete',
    from: 'client',
    since: '2024-11-05',
    capability: srv('completions', '2025-03-26'),
  }),
  request<SetLevelRequestParams, EmptyResult>()({
    method: 'logging/setLevel',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: srv('logging'),
  }),
  notification<LoggingMessageNotificationParams>()({
    method: 'notifications/message',
    from: 'server',
    since: '2024-11-05',
    capability: srv('logging'),
  }),
  // Client features (server-to-client requests in the legacy era; MRTR input requests in the modern era)
  request<CreateMessageRequestParams, CreateMessageResult>()({
    method: 'sampling/createMessage',
    from: 'server',
    since: '2024-11-05',
    capability: cli('sampling'),
  }),
  request<ElicitRequestParams, ElicitResult>()({
    method: 'elicitation/create',
    from: 'server',
    since: '2025-06-18',
    capability: cli('elicitation'),
  }),
  request<ListRootsRequestParams | undefined, ListRootsResult>()({
    method: 'roots/list',
    from: 'server',
    since: '2024-11-05',
    capability: cli('roots'),
  }),
  notification<RootsListChangedNotificationParams | undefined>()({
    method: 'notifications/roots/list_changed',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: cli('roots'),
  }),
  notification<ElicitationCompleteNotificationParams>()({
    method: 'notifications/elicitation/complete',
    from: 'server',
    since: '2025-11-25',
    removedIn: '2026-07-28',
  }),
  // Subscriptions (modern)
  request<SubscriptionsListenRequestParams, SubscriptionsListenResult>()({
    method: 'subscriptions/listen',
    from: 'client',
    since: '2026-07-28',
  }),
  notification<SubscriptionsAcknowledgedNotificationParams>()({
    method: 'notifications/subscriptions/acknowledged',
    from: 'server',
    since: '2026-07-28',
  }),
  // Tasks (2025-11-25 core; an extension afterwards)
  // tasks/get and tasks/cancel continue in the tasks extension (client to server only there).
  request<GetTaskRequestParams, GetTaskResult>()({ method: 'tasks/get', from: 'both', since: '2025-11-25' }),
  request<GetTaskPayloadRequestParams, GetTaskPayloadResult>()({
    method: 'tasks/result',
    from: 'both',
    since: '2025-11-25',
    removedIn: '2026-07-28',
  }),
  request<ListTasksRequestParams | undefined, ListTasksResult>()({
    method: 'tasks/list',
    from: 'both',
    since: '2025-11-25',
    removedIn: '2026-07-28',
  }),
  request<CancelTaskRequestParams, CancelTaskResult>()({
    method: 'tasks/cancel',
    from: 'both',
    since: '2025-11-25',
  }),
  request<RequestParams, Result>()({ method: 'tasks/update', from: 'client', since: '2026-07-28' }),
  notification<NotificationParams>()({ method: 'notifications/tasks', from: 'server', since: '2026-07-28' }),
  notification<TaskStatusNotificationParams>()({
    method: 'notifications/tasks/status',
    from: 'both',
    since: '2025-11-25',
    removedIn: '2026-07-28',
  }),
] as const;

const byName: ReadonlyMap<string, MethodDescriptor> = new Map(table.map((d) => [d.method, d]));

/** The methods whose results carry cache hints (`cacheable`), read without a call per result. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set(
  table.filter((d) => 'cacheable' in d && d.cacheable).map((d) => d.method),
);

/** All method descriptors, in a stable order. */
export const METHODS: readonly MethodDescriptor[] = table;

/**
 * The typed descriptor of every method MCP defines, by name: what `Session.request` and
 * `Client` take to make a typed request without a cast.
 *
 * @example
 * ```ts
 * const { tools } = await session.request(Method['tools/list'], {});
 * ```
 */
export const Method = Object.fromEntries(table.map((d) => [d.method, d])) as {
  readonly [D in (typeof table)[number] as D['method']]: D;
};

/** Every descriptor of the method table, as one union of their literal types. */
export type AnyMethodType = (typeof Method)[keyof typeof Method];

/** Whether a 2026-07-28 server may answer this request with `input_required` (its `mrtr` flag). */
export function isMrtrMethod(method: string): boolean {
  return byName.get(method)?.mrtr === true;
}

/** The descriptor of a method, if MCP defines it. A Map, so `__proto__` and friends are never found. */
export function describeMethod(method: string): MethodDescriptor | undefined {
  return byName.get(method);
}

/** Whether a method exists in a revision. */
export function methodInRevision(d: MethodDescriptor, version: string): boolean {
  return version >= d.since && (d.removedIn === undefined || version < d.removedIn);
}

/**
 * Whether a method's capability is required in a revision: one that came later than its
 * method (`completions` for `completion/complete`, since 2025-03-26) is not, before.
 */
export function capabilityInRevision(cap: CapabilityRef, version: string): boolean {
  return !cap.since || version >= cap.since;
}

/** Whether `role` may send this method. */
export function canSend(d: MethodDescriptor, role: 'client' | 'server'): boolean {
  return d.from === 'both' || d.from === role;
}

/**
 * Reads a capability path such as `resources.subscribe` from a capabilities object.
 * Own properties only, so prototype keys never count as declared.
 */
export function hasCapability(capabilities: unknown, path: string): boolean {
  let node: unknown = capabilities;
  let start = 0;
  for (;;) {
    const dot = path.indexOf('.', start);
    const key = dot === -1 ? path.slice(start) : path.slice(start, dot);
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
    if (dot === -1) return node !== undefined && node !== null && node !== false;
    start = dot + 1;
  }
}
