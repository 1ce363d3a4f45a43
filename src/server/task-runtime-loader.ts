/**
 * The task runtime's class, loaded on demand. Most servers run no tasks, so its module (with
 * the task store) loads when a server first switches tasks on, not with `mcpkit`.
 */
import type { TaskRuntime } from './task-runtime.js';

let TaskRuntimeClass: typeof TaskRuntime | undefined;
let taskRuntimeModule: Promise<typeof TaskRuntime> | undefined;

/** The class when its module is already here (then tasks start synchronously). */
export function loadedTaskRuntime(): typeof TaskRuntime | undefined {
  return TaskRuntimeClass;
}

/** Loads the module once per process; a failed load is tried again next time. */
export function loadTaskRuntime(): Promise<typeof TaskRuntime> {
  return (taskRuntimeModule ??= import('./task-runtime.js').then(
    (m) => (TaskRuntimeClass = m.TaskRuntime),
    (e: unknown) => {
      taskRuntimeModule = undefined;
      throw e;
    },
  ));
}
