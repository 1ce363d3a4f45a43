/**
 * The task primitives that were part of the core protocol in 2025-11-25 only. From
 * 2026-07-28 tasks live in the `io.modelcontextprotocol/tasks` extension with a different
 * method set; these types stay loose (results are open) so either flavour parses.
 */
import type { NotificationParams, PaginatedParams, PaginatedResult, RequestParams, Result } from './base.js';

/** Lifecycle state of a task. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * Added to a request's params (`task`) to ask for it to run as a task.
 * @since 2025-11-25 @removed 2026-07-28
 */
export interface TaskMetadata {
  /** Requested lifetime in milliseconds after creation. */
  ttl?: number;
}

/**
 * Links a message to a task; sent in `_meta` under `io.modelcontextprotocol/related-task`.
 * @since 2025-11-25 @removed 2026-07-28
 */
export interface RelatedTaskMetadata {
  taskId: string;
}

/** Snapshot of a task. @since 2025-11-25 */
export interface Task {
  taskId: string;
  status: TaskStatus;
  /** Human-readable detail about the current status. */
  statusMessage?: string;
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 time of the last status change. */
  lastUpdatedAt: string;
  /** Lifetime in milliseconds from creation; `null` for unlimited. */
  ttl: number | null;
  /** Suggested polling interval in milliseconds. */
  pollInterval?: number;
}

/** Answer to a task-augmented request: a handle instead of the final result. @since 2025-11-25 */
export interface CreateTaskResult extends Result {
  task: Task;
}

/** Params of `tasks/get`, `tasks/result` and `tasks/cancel`. @since 2025-11-25 */
export interface TaskIdParams extends RequestParams {
  taskId: string;
}

/** @since 2025-11-25 */
export type GetTaskRequestParams = TaskIdParams;
/** @since 2025-11-25 */
export type GetTaskResult = Result & Task;

/** @since 2025-11-25 @removed 2026-07-28 */
export type GetTaskPayloadRequestParams = TaskIdParams;
/** The underlying request's own result, whatever it is. @since 2025-11-25 @removed 2026-07-28 */
export type GetTaskPayloadResult = Result;

/** @since 2025-11-25 */
export type CancelTaskRequestParams = TaskIdParams;
/** @since 2025-11-25 */
export type CancelTaskResult = Result & Task;

/** @since 2025-11-25 @removed 2026-07-28 */
export type ListTasksRequestParams = PaginatedParams;
/** @since 2025-11-25 @removed 2026-07-28 */
export interface ListTasksResult extends PaginatedResult {
  tasks: Task[];
}

/** Params of `notifications/tasks/status`: the full task. @since 2025-11-25 @removed 2026-07-28 */
export type TaskStatusNotificationParams = NotificationParams & Task;
