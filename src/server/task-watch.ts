/**
 * Waiting on a stored task from any process that shares its store: for a state of it, and
 * for its runner's lease. These read and write the store only, never the handlers running
 * here, which the task runtime keeps.
 */
import { ErrorCode, LocalError } from '../jsonrpc/index.js';
import { isTerminal } from './task-store.js';
import type { TaskRecord, TaskStore } from './task-store.js';

/** Resolves with the first state of the task that satisfies `done` (undefined when gone). */
export function waitForTask(
  store: TaskStore,
  taskId: string,
  done: (r: TaskRecord | undefined) => boolean,
  signal: AbortSignal,
): Promise<TaskRecord | undefined> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (r: TaskRecord | undefined, error?: unknown): void => {
      if (settled) return;
      settled = true;
      unwatch();
      signal.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else resolve(r);
    };
    const onAbort = (): void => finish(undefined, new LocalError('Cancelled', 'The wait was cancelled'));
    const unwatch = store.watch(taskId, (r) => {
      if (done(r)) finish(r);
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    store.get(taskId).then(
      (r) => {
        if (done(r)) finish(r);
      },
      (e: unknown) => finish(undefined, e),
    );
  });
}

/**
 * A task whose runner's lease ran out (its process died) is failed now, with an error
 * saying so, instead of staying `working` until its TTL: pollers learn at most a lease
 * after the process stopped. Tasks running here, and stores not shared, need no check.
 * `alive` shares one lease check per runner among the tasks of one page.
 */
export async function checkRunner(
  store: TaskStore,
  record: TaskRecord,
  alive?: Map<string, Promise<boolean>>,
): Promise<TaskRecord> {
  const runners = store.runners;
  const runner = record.runner;
  if (!runners || runner === undefined || isTerminal(record.status)) return record;
  if (runner === runners.self) return record;
  let check = alive?.get(runner);
  if (!check) {
    check = runners.alive(runner);
    alive?.set(runner, check);
  }
  if (await check) return record;
  const message = `The server process running task ${record.taskId} stopped before the task finished`;
  const after = await store.update(record.taskId, {
    status: 'failed',
    statusMessage: message,
    error: { code: ErrorCode.InternalError, message },
  });
  return after ?? record;
}

/** While a blocking `tasks/result` waits, checks the runner's lease every so often. */
export function watchRunner(store: TaskStore, taskId: string): () => void {
  const runners = store.runners;
  if (!runners) return () => undefined;
  const timer = setInterval(
    () => {
      store.get(taskId).then(
        (r) => (r ? checkRunner(store, r) : undefined),
        () => undefined,
      );
    },
    Math.max(100, Math.floor(runners.leaseMs / 2)),
  );
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
