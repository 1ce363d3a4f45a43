/** General-purpose notifications: cancellation, progress, and list changes. */
import type { NotificationParams, ProgressToken, RequestId } from './base.js';

/** Params of `notifications/cancelled`. */
export interface CancelledNotificationParams extends NotificationParams {
  /**
   * The request being abandoned. Optional only in 2025-11-25 (tasks use `tasks/cancel`);
   * required in every other revision.
   */
  requestId?: RequestId;
  /** Free-text reason, for logs or the user. */
  reason?: string;
}

/** Params of `notifications/progress`. */
export interface ProgressNotificationParams extends NotificationParams {
  /** The token from the request's `_meta.progressToken`. */
  progressToken: ProgressToken;
  /** Work done so far; increases with each notification. */
  progress: number;
  /** Total work, when known. */
  total?: number;
  /** @since 2025-03-26 */
  message?: string;
}

/** Params of `notifications/initialized`. @removed 2026-07-28 */
export type InitializedNotificationParams = NotificationParams;

/** Params of `notifications/tools/list_changed`. */
export type ToolListChangedNotificationParams = NotificationParams;

/** Params of `notifications/prompts/list_changed`. */
export type PromptListChangedNotificationParams = NotificationParams;

/** Params of `notifications/resources/list_changed`. */
export type ResourceListChangedNotificationParams = NotificationParams;

/** Params of `notifications/roots/list_changed`. @removed 2026-07-28 */
export type RootsListChangedNotificationParams = NotificationParams;
