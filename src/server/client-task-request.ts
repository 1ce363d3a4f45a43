/**
 * The server as a task requestor (2025-11-25 experimental tasks, server to client): an
 * `elicitation/create` or `sampling/createMessage` sent with `params.task` to a client
 * that declared `tasks.requests.*` for it. The client answers with a `CreateTaskResult`
 * at once; the server polls `tasks/get` at the client's interval and reads the answer with
 * `tasks/result` once the task is terminal, so no single request has to stay open while a
 * person takes their time. Aborting sends `tasks/cancel` (when the client supports it).
 */
import { LocalError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { hasCapability } from '../protocol/methods.js';
import type { RequestContext } from '../session/index.js';
import { serverEraOf } from './server-era.js';
import { isObject } from '../jsonrpc/is-object.js';

/** The `tasks.requests` capability path a client declares for each augmentable method. */
const CAPABILITY: Readonly<Record<string, string>> = {
  'elicitation/create': 'tasks.requests.elicitation.create',
  'sampling/createMessage': 'tasks.requests.sampling.createMessage',
};

const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5000;
const DEFAULT_POLL_MS = 1000;
const TERMINAL: ReadonlySet<unknown> = new Set(['completed', 'failed', 'cancelled']);

/** Whether the client at the other end of this request takes `method` as a task. */
export function clientTakesTask(rc: RequestContext, method: string): boolean {
  const path = CAPABILITY[method];
  return (
    serverEraOf(rc.era).clientTasksByAugmentation &&
    path !== undefined &&
    hasCapability(rc.peerCapabilities, path)
  );
}

/** Waits `ms`, or rejects when `signal` fires first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LocalError('Cancelled', 'The request was cancelled'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends `method` to the client as a task and resolves with the request's own result once
 * the task is done. A client that answers plainly instead (it may) is answered plainly.
 * `timeoutMs` bounds the whole exchange; past it, or on abort, the task is cancelled.
 */
export async function requestAsClientTask(
  rc: RequestContext,
  method: string,
  params: Params | undefined,
  timeoutMs: number,
  ttlMs: number | undefined,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  const task = ttlMs === undefined ? {} : { ttl: ttlMs };
  const created = await rc.request(method, { ...params, task }, { timeoutMs });
  if (!isObject(created.task) || typeof created.task.taskId !== 'string') return created;
  const taskId = created.task.taskId;
  let state: Record<string, unknown> = created.task;
  // Follow-up requests carry their own signal: the call's may already have fired when we cancel.
  const own = (): { timeoutMs: number; signal: AbortSignal } => ({
    timeoutMs: Math.max(1000, deadline - Date.now()),
    signal: new AbortController().signal,
  });
  try {
    while (!TERMINAL.has(state.status)) {
      const suggested = typeof state.pollInterval === 'number' ? state.pollInterval : DEFAULT_POLL_MS;
      const wait = Math.min(Math.max(suggested, MIN_POLL_MS), MAX_POLL_MS);
      if (Date.now() + wait > deadline) {
        throw new LocalError(
          'RequestTimeout',
          `The client's ${method} task did not finish within ${timeoutMs} ms`,
        );
      }
      await pause(wait, rc.signal);
      state = await rc.request('tasks/get', { taskId }, own());
    }
  } catch (e) {
    if (hasCapability(rc.peerCapabilities, 'tasks.cancel')) {
      rc.request('tasks/cancel', { taskId }, own()).catch(() => undefined);
    }
    throw e;
  }
  if (state.status === 'cancelled') {
    throw new LocalError('Cancelled', `The client cancelled its ${method} task`);
  }
  // Completed or failed: tasks/result gives the request's own result, or its error.
  return rc.request('tasks/result', { taskId }, own());
}
