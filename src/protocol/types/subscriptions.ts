/**
 * `subscriptions/listen` (2026-07-28): one long-lived request whose response stream carries
 * the change notifications the client opted in to. Replaces `resources/subscribe`,
 * `resources/unsubscribe` and the HTTP GET stream.
 */
import type {
  NotificationMeta,
  NotificationParams,
  RequestId,
  RequestParams,
  Result,
  ResultMeta,
} from './base.js';

/** Notification types a client opts in to; absent means not wanted. @since 2026-07-28 */
export interface SubscriptionFilter {
  /** `notifications/tools/list_changed` */
  toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed` */
  promptsListChanged?: boolean;
  /** `notifications/resources/list_changed` */
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs. */
  resourceSubscriptions?: string[];
}

/** Params of `subscriptions/listen`. @since 2026-07-28 */
export interface SubscriptionsListenRequestParams extends RequestParams {
  notifications: SubscriptionFilter;
}

/**
 * Result `_meta` of a closed subscription; names it by the id of its `subscriptions/listen`
 * request. @since 2026-07-28
 */
export interface SubscriptionsListenResultMeta extends ResultMeta {
  'io.modelcontextprotocol/subscriptionId': RequestId;
}

/**
 * Result of `subscriptions/listen`, sent only when the server ends the stream gracefully.
 * @since 2026-07-28
 */
export interface SubscriptionsListenResult extends Result {
  _meta: SubscriptionsListenResultMeta;
}

/** Notification `_meta` on a subscription stream, where the id is mandatory. @since 2026-07-28 */
export interface SubscriptionNotificationMeta extends NotificationMeta {
  'io.modelcontextprotocol/subscriptionId': RequestId;
}

/**
 * Params of `notifications/subscriptions/acknowledged`, the first message of every stream.
 * @since 2026-07-28
 */
export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {
  _meta?: SubscriptionNotificationMeta;
  /** The part of the requested filter the server will honour. */
  notifications: SubscriptionFilter;
}
