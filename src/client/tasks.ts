/**
 * The client side of tasks, both generations: the 2025-11-25 experimental tasks
 * (`params.task`, `tasks/get`, blocking `tasks/result`, `tasks/list`, `tasks/cancel`) and
 * the `io.modelcontextprotocol/tasks` extension (`resultType: "task"`, `tasks/get` with the
 * result inlined, `tasks/update`, `tasks/cancel`). One polling loop serves both; questions
 * a task asks are answered by the client's registered handlers.
 */
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { CallToolRequestParams, CallToolResult } from '../protocol/types/index.js';
import type { RequestOptions } from '../session/options.js';
import type { ClientEra } from './client-era.js';
import type { InputAnswerer } from './mrtr.js';
import { checkResultShape } from './result-checks.js';
import type { CallOptions } from './types.js';
import { isObject } from '../jsonrpc/is-object.js';
import { TASKS_EXTENSION } from '../protocol/meta-keys.js';
import { withField } from '../jsonrpc/with-field.js';
import type { Session } from '../session/session.js';

/** A task's state, the same in both generations. */
export interface TaskInfo {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Lifetime from creation in ms; null for unlimited. */
  ttlMs: number | null;
  /** The server's suggested polling interval. */
  pollIntervalMs?: number;
}

/** Options of waiting for a task's result. */
export interface TaskWaitOptions {
  signal?: AbortSignal;
  /** Called with each state seen (polls and notifications), first to last. */
  onStatus?: (task: TaskInfo) => void;
  /** Longest pause between polls however slow the task is (default 10 s). */
  maxPollIntervalMs?: number;
  /** Give up after this long (default: no limit). Cancels nothing on the server. */
  timeoutMs?: number;
}

/** What the task client needs from the client that owns it. */
export interface TaskClientHost {
  /** The connection's era strategy; throws `NotConnected` before one is chosen. */
  era(): ClientEra;
  /** Sends one request (with the per-request tasks extension in the modern era). */
  request(method: string, params: Params, options?: RequestOptions): Promise<Record<string, unknown>>;
  readonly answerer: InputAnswerer;
  protocolVersion(): string;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const MIN_POLL_MS = 50;
const DEFAULT_POLL_MS = 1000;

/** Reads a task of either generation into {@link TaskInfo}; throws InvalidResult when it is not one. */
export function readTask(raw: unknown): TaskInfo {
  if (!isObject(raw) || typeof raw.taskId !== 'string' || typeof raw.status !== 'string') {
    throw new LocalError('InvalidResult', 'The server sent a task without a taskId and status');
  }
  const ttl = raw.ttlMs !== undefined ? raw.ttlMs : raw.ttl;
  const poll = raw.pollIntervalMs !== undefined ? raw.pollIntervalMs : raw.pollInterval;
  const t: TaskInfo = {
    taskId: raw.taskId,
    status: raw.status as TaskInfo['status'],
    createdAt: String(raw.createdAt ?? ''),
    lastUpdatedAt: String(raw.lastUpdatedAt ?? ''),
    ttlMs: typeof ttl === 'number' ? ttl : null,
  };
  if (typeof raw.statusMessage === 'string') t.statusMessage = raw.statusMessage;
  if (typeof poll === 'number' && poll > 0) t.pollIntervalMs = poll;
  return t;
}

/**
 * Adds the tasks extension to one modern request's client capabilities. Given the session, a
 * request without a `_meta` of its own gets the whole modern `_meta` here, which the session
 * then sends as it is (one copy of the params, not two).
 */
export function withTasksExtension(
  params: Params,
  capabilities: Readonly<Record<string, unknown>>,
  session?: Pick<Session, 'modernMetaDeclaring'>,
): Params {
  const declared = tasksCapabilities(capabilities);
  const own = params._meta;
  // withField, not a spread: see with-field.ts (Node 20).
  const meta =
    own === undefined
      ? (session?.modernMetaDeclaring(declared) ?? { [MetaKey.ClientCapabilities]: declared })
      : isObject(own)
        ? withField(own, MetaKey.ClientCapabilities, declared)
        : { [MetaKey.ClientCapabilities]: declared };
  return withField(params, '_meta', meta);
}

/**
 * Per capabilities object (one per client): the same declaring the tasks extension. Built
 * once, never mutated; keyed by object, so clients taking turns in one process keep theirs
 * (the merged `_meta` downstream is cached by identity).
 */
const withTasks = new WeakMap<object, Readonly<Record<string, unknown>>>();

function tasksCapabilities(
  capabilities: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  let declared = withTasks.get(capabilities);
  if (declared === undefined) {
    const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
    declared = { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
    withTasks.set(capabilities, declared);
  }
  return declared;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const done = (): void => {
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * A task on the server: its id, its last known state, and ways to wait for its result or
 * cancel it. Store `taskId` to pick it up again after a restart ({@link TaskClient.resume}).
 */
export class TaskHandle {
  constructor(
    private readonly client: TaskClient,
    /** The last state seen. */
    public info: TaskInfo,
    /** Set when the server answered at once instead of creating a task. */
    readonly immediate?: CallToolResult,
  ) {}

  get taskId(): string {
    return this.info.taskId;
  }

  /** Fetches the current state. */
  async status(): Promise<TaskInfo> {
    this.info = await this.client.get(this.taskId);
    return this.info;
  }

  /** Waits for the result, answering the task's questions with the client's handlers. */
  result(options?: TaskWaitOptions): Promise<CallToolResult> {
    if (this.immediate) return Promise.resolve(this.immediate);
    return this.client.wait(this.info, options);
  }

  cancel(): Promise<void> {
    return this.client.cancel(this.taskId);
  }
}

/**
 * The explicit task API of a client (`client.tasks`): start a tool call as a task, follow
 * it, resume it by id after a restart, list and cancel.
 *
 * @example
 * ```ts
 * const task = await client.tasks.start({ name: 'research', arguments: { topic: 'x' } });
 * const id = task.taskId; // keep it somewhere durable
 * const result = await task.result({ onStatus: (t) => console.log(t.status, t.statusMessage) });
 * // Later, maybe in another process (the same owner):
 * const again = await client.tasks.resume(id).result();
 * ```
 */
export class TaskClient {
  constructor(private readonly host: TaskClientHost) {}

  /**
   * Calls a tool as a task. In 2025-11-25 the call is task-augmented (`ttlMs` asks for a
   * lifetime); in the extension the server decides, and a plain answer gives a handle
   * whose `result()` is that answer.
   */
  async start(
    params: CallToolRequestParams,
    options?: RequestOptions & { ttlMs?: number },
  ): Promise<TaskHandle> {
    const p: Params = { ...(params as unknown as Params) };
    if (this.host.era().tasksByAugmentation)
      p.task = options?.ttlMs !== undefined ? { ttl: options.ttlMs } : {};
    const result = await this.host.request('tools/call', p, options);
    return this.handleFor(result);
  }

  /** The handle for a `tools/call` answer: a task, or an immediate result. */
  handleFor(result: Record<string, unknown>): TaskHandle {
    const task = this.host.era().taskOf(result);
    if (task !== undefined) return new TaskHandle(this, readTask(task));
    if (result.resultType === 'task') return new TaskHandle(this, readTask(result));
    const now = new Date().toISOString();
    const info: TaskInfo = {
      taskId: '',
      status: 'completed',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: null,
    };
    return new TaskHandle(this, info, result as unknown as CallToolResult);
  }

  /** Whether a `tools/call` answer is a task rather than a result. */
  isTask(result: Record<string, unknown>): boolean {
    return this.host.era().taskOf(result) !== undefined;
  }

  /** A handle for a task created earlier, maybe by another process (same owner). */
  resume(taskId: string): TaskHandle {
    // Nothing is known yet (empty times): the first wait polls at once.
    return new TaskHandle(this, { taskId, status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: null });
  }

  async get(taskId: string, options?: RequestOptions): Promise<TaskInfo> {
    return readTask(await this.host.request('tasks/get', { taskId }, options));
  }

  /** One page of this client's tasks (2025-11-25 only; the extension has no listing). */
  async list(cursor?: string, options?: RequestOptions): Promise<{ tasks: TaskInfo[]; nextCursor?: string }> {
    if (!this.host.era().listsTasks) {
      throw new LocalError(
        'CapabilityNotSupported',
        'The tasks extension has no tasks/list; keep the task ids you need',
      );
    }
    const r = await this.host.request('tasks/list', cursor === undefined ? {} : { cursor }, options);
    if (!Array.isArray(r.tasks)) throw new LocalError('InvalidResult', 'tasks/list returned no tasks array');
    const page: { tasks: TaskInfo[]; nextCursor?: string } = { tasks: r.tasks.map(readTask) };
    if (typeof r.nextCursor === 'string') page.nextCursor = r.nextCursor;
    return page;
  }

  /** Follows the task a `tools/call` answered with to its result, as `Client.callTool` does. */
  async finishCall(result: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>> {
    const wait: TaskWaitOptions = {};
    if (options?.signal) wait.signal = options.signal;
    if (options?.onTaskStatus) wait.onStatus = options.onTaskStatus;
    if (options?.maxTotalTimeoutMs !== undefined) wait.timeoutMs = options.maxTotalTimeoutMs;
    const done = await this.wait(readTask(this.host.era().taskOf(result)), wait);
    checkResultShape('tools/call', done as unknown as Record<string, unknown>);
    return done as unknown as Record<string, unknown>;
  }

  async cancel(taskId: string, options?: RequestOptions): Promise<void> {
    await this.host.request('tasks/cancel', { taskId }, options);
  }

  /**
   * Polls until the task ends and returns its result: the server's interval first, then
   * backing off (×1.5 while nothing changes) up to `maxPollIntervalMs`. Questions are
   * answered with the client's handlers: in 2025-11-25 they arrive on a blocking
   * `tasks/result`, in the extension they come with `tasks/get` and go back with
   * `tasks/update`. Aborting `signal` sends `tasks/cancel`.
   */
  async wait(first: TaskInfo, options: TaskWaitOptions = {}): Promise<CallToolResult> {
    const controller = new AbortController();
    const stop = (): void =>
      controller.abort(new LocalError('Cancelled', 'Waiting for the task was cancelled'));
    const signal = controller.signal;
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(
            () =>
              controller.abort(
                new LocalError('RequestTimeout', `The task did not finish within ${options.timeoutMs} ms`),
              ),
            options.timeoutMs,
          )
        : undefined;
    try {
      return await this.follow(first, options, signal);
    } catch (e) {
      if (options.signal?.aborted) {
        // Best effort: the caller gave up, so the server need not go on.
        await this.cancel(first.taskId, { timeoutMs: 5000 }).catch(() => undefined);
      }
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
    }
  }

  private async follow(
    first: TaskInfo,
    options: TaskWaitOptions,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const ceiling = Math.max(options.maxPollIntervalMs ?? 10_000, MIN_POLL_MS);
    const answered = new Set<string>();
    let info = first;
    let interval = Math.min(Math.max(first.pollIntervalMs ?? DEFAULT_POLL_MS, MIN_POLL_MS), ceiling);
    let last = '';
    // A fresh CreateTaskResult is as good as a poll (2025-11-25); the extension needs tasks/get for the outcome.
    const blocking = this.host.era().taskResultBlocks;
    let polled = first.createdAt !== '' && blocking;
    for (;;) {
      if (signal.aborted) throw signal.reason as Error;
      let raw: Record<string, unknown> | undefined;
      if (!polled) {
        raw = await this.host.request('tasks/get', { taskId: info.taskId }, { signal });
        info = readTask(raw);
      }
      polled = false;
      const seen = `${info.status}\u0000${info.statusMessage ?? ''}`;
      if (seen !== last) {
        options.onStatus?.(info);
        interval = Math.min(Math.max(info.pollIntervalMs ?? interval, MIN_POLL_MS), ceiling);
        last = seen;
      } else {
        interval = Math.min(interval * 1.5, ceiling);
      }
      if (blocking) {
        if (info.status === 'cancelled')
          throw new LocalError('Cancelled', `Task ${info.taskId} was cancelled`);
        // tasks/result blocks until the end, so the result arrives the moment there is one;
        // status keeps being polled beside it.
        return this.legacyResult(info, options, signal);
      } else {
        const done = this.modernOutcome(info, raw!);
        if (done) return done;
        if (info.status === 'input_required') await this.answer(info.taskId, raw!, answered, signal);
      }
      await sleep(interval, signal);
    }
  }

  /** 2025-11-25: `tasks/result` blocks until the end; questions arrive on it meanwhile. */
  private async legacyResult(
    info: TaskInfo,
    options: TaskWaitOptions,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    // Keep reporting status while the blocking call is out (not needed once terminal).
    const settled = new AbortController();
    const link = (): void => settled.abort();
    signal.addEventListener('abort', link, { once: true });
    const both = settled.signal;
    let last = `${info.status}\u0000${info.statusMessage ?? ''}`;
    const watch = TERMINAL.has(info.status)
      ? Promise.resolve()
      : (async () => {
          for (
            let wait = info.pollIntervalMs ?? DEFAULT_POLL_MS;
            !both.aborted;
            wait = Math.min(wait * 1.5, 10_000)
          ) {
            await sleep(Math.max(wait, MIN_POLL_MS), both);
            const t = await this.get(info.taskId, { signal: both });
            const seen = `${t.status}\u0000${t.statusMessage ?? ''}`;
            if (seen !== last) options.onStatus?.(t);
            last = seen;
          }
        })().catch(() => undefined);
    try {
      const r = await this.host.request(
        'tasks/result',
        { taskId: info.taskId },
        {
          signal,
          timeoutMs: options.timeoutMs ?? 3_600_000,
          maxTotalTimeoutMs: options.timeoutMs ?? 3_600_000,
        },
      );
      settled.abort();
      await watch;
      if (options.onStatus && !TERMINAL.has(info.status)) {
        // The final state, which the blocking call made us skip.
        const t = await this.get(info.taskId, { signal }).catch(() => undefined);
        if (t && `${t.status}\u0000${t.statusMessage ?? ''}` !== last) options.onStatus(t);
      }
      return r as unknown as CallToolResult;
    } finally {
      signal.removeEventListener('abort', link);
      settled.abort();
      await watch;
    }
  }

  /** The extension: the result or error inlined in a terminal `tasks/get`. */
  private modernOutcome(info: TaskInfo, raw: Record<string, unknown>): CallToolResult | undefined {
    if (info.status === 'completed') {
      if (!isObject(raw.result))
        throw new LocalError('InvalidResult', 'A completed task came without its result');
      return raw.result as unknown as CallToolResult;
    }
    if (info.status === 'failed') {
      const e = isObject(raw.error) ? raw.error : {};
      throw new WireError(
        typeof e.code === 'number' ? e.code : -32603,
        typeof e.message === 'string' ? e.message : (info.statusMessage ?? 'The task failed'),
        e.data,
      );
    }
    if (info.status === 'cancelled') throw new LocalError('Cancelled', `Task ${info.taskId} was cancelled`);
    return undefined;
  }

  /** The extension: answers each question once, with the client's handlers, via `tasks/update`. */
  private async answer(
    taskId: string,
    raw: Record<string, unknown>,
    answered: Set<string>,
    signal: AbortSignal,
  ): Promise<void> {
    const requests = isObject(raw.inputRequests) ? raw.inputRequests : {};
    const fresh = Object.entries(requests).filter(([key]) => !answered.has(key));
    if (fresh.length === 0) return;
    const ctx = { signal, era: this.host.era().name, protocolVersion: this.host.protocolVersion() };
    const answers = await Promise.all(
      fresh.map(async ([key, q]) => {
        if (!isObject(q) || typeof q.method !== 'string') {
          throw new LocalError(
            'InvalidResult',
            `Input request ${JSON.stringify(key)} is not a { method, params } object`,
          );
        }
        const params = isObject(q.params) ? q.params : {};
        return [key, await this.host.answerer.answer(q.method, params, ctx)] as const;
      }),
    );
    for (const [key] of fresh) answered.add(key);
    await this.host.request(
      'tasks/update',
      { taskId, inputResponses: Object.fromEntries(answers) },
      { signal },
    );
  }
}
