/**
 * How a stored task looks on the wire in each generation: the 2025-11-25 `Task` (`ttl`,
 * `pollInterval`) and the tasks extension's `DetailedTask` (`ttlMs`, `pollIntervalMs`,
 * with the result, error or questions inlined).
 */
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { TaskRecord } from './task-store.js';
import { TASKS_EXTENSION } from '../protocol/meta-keys.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The 2025-11-25 `Task`. */
export function legacyTask(r: TaskRecord): Record<string, unknown> {
  const t: Record<string, unknown> = { taskId: r.taskId, status: r.status };
  if (r.statusMessage !== undefined) t.statusMessage = r.statusMessage;
  t.createdAt = iso(r.createdAt);
  t.lastUpdatedAt = iso(r.lastUpdatedAt);
  t.ttl = r.ttlMs;
  t.pollInterval = r.pollIntervalMs;
  return t;
}

/** The extension's `Task`, and with `detailed` its `DetailedTask` (what `tasks/get` returns). */
export function modernTask(r: TaskRecord, detailed: boolean): Record<string, unknown> {
  const t: Record<string, unknown> = { taskId: r.taskId, status: r.status };
  if (r.statusMessage !== undefined) t.statusMessage = r.statusMessage;
  t.createdAt = iso(r.createdAt);
  t.lastUpdatedAt = iso(r.lastUpdatedAt);
  t.ttlMs = r.ttlMs;
  t.pollIntervalMs = r.pollIntervalMs;
  if (!detailed) return t;
  if (r.status === 'input_required') t.inputRequests = r.inputRequests ?? {};
  else if (r.status === 'completed' && r.result) t.result = r.result;
  else if (r.status === 'failed') {
    t.error = r.error ?? { code: ErrorCode.InternalError, message: r.statusMessage ?? 'The task failed' };
  }
  return t;
}

/** Whether a modern request declared the tasks extension in its per-request capabilities. */
export function declaresTasksExtension(capabilities: Readonly<Record<string, unknown>>): boolean {
  const ext = capabilities.extensions;
  if (typeof ext !== 'object' || ext === null || !Object.hasOwn(ext, TASKS_EXTENSION)) return false;
  const v = (ext as Record<string, unknown>)[TASKS_EXTENSION];
  return v !== undefined && v !== null && v !== false;
}

/** -32021 naming the tasks extension, as the extension prescribes. */
export function missingTasksExtension(what: string): WireError {
  return new WireError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** The error every lookup of a task the caller may not see gets (never revealing which). */
export function taskNotFound(taskId: unknown): WireError {
  const shown = typeof taskId === 'string' && taskId.length <= 100 ? taskId : '(invalid)';
  return WireError.invalidParams(`Failed to retrieve task: Task not found (${shown})`);
}

/** How a tool takes part in tasks (its `execution.taskSupport`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** The `taskSupport` a tool declared (default `forbidden`). */
export function taskSupportOf(execution: unknown): TaskSupport {
  const v =
    typeof execution === 'object' && execution !== null && !Array.isArray(execution)
      ? (execution as Record<string, unknown>).taskSupport
      : undefined;
  return v === 'optional' || v === 'required' ? v : 'forbidden';
}

/** The request methods a server with tasks answers (both generations). */
export const TASK_METHODS: readonly string[] = [
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'tasks/update',
];

/** The capabilities a server with tasks declares: the 2025-11-25 `tasks` and the extension. */
export function tasksCapabilities(): Record<string, unknown> {
  return {
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    extensions: { [TASKS_EXTENSION]: {} },
  };
}
