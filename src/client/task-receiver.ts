/**
 * The client as a task receiver (2025-11-25 experimental tasks, server to client): a
 * server may augment `elicitation/create` and `sampling/createMessage` with `params.task`
 * when the client declared `tasks.requests.*` for them. The client then answers at once
 * with a `CreateTaskResult`, runs its ordinary handler in the background, and serves the
 * server's `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` for those tasks.
 *
 * Tasks are bound to the connection that created them: the only requestor is the server
 * at the other end, and a new connection starts with none. They live in this process
 * (a user's answer cannot be resumed elsewhere), so a small map is all the state needed.
 */
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { RequestContext, Session } from '../session/index.js';
import { clientEraOf } from './client-era.js';
import type { HandlerSet } from './handlers.js';
import { isObject } from '../jsonrpc/is-object.js';
import { MetaKey } from '../protocol/meta-keys.js';

/** Limits of the tasks a client runs for its server. */
export interface TaskRequestOptions {
  /** TTL when the server asks for none (default 10 minutes). */
  defaultTtlMs?: number;
  /** Longest TTL granted; longer requests are cut to it (default 1 hour). */
  maxTtlMs?: number;
  /** Suggested polling interval given to the server (default 1000 ms). */
  pollIntervalMs?: number;
  /** Unfinished tasks the server may have at once (default 16); more are refused. */
  maxLive?: number;
  /** Tasks per `tasks/list` page (default 50). */
  pageSize?: number;
}

type Status = 'working' | 'completed' | 'failed' | 'cancelled';

interface ClientTask {
  readonly taskId: string;
  status: Status;
  statusMessage: string | undefined;
  readonly createdAt: number;
  lastUpdatedAt: number;
  readonly ttl: number;
  readonly controller: AbortController;
  result: Record<string, unknown> | undefined;
  error: WireError | undefined;
  /** Blocking `tasks/result` requests waiting for the end. */
  waiters: (() => void)[] | undefined;
  expiry: ReturnType<typeof setTimeout> | undefined;
}

function isTerminal(s: Status): boolean {
  return s !== 'working';
}

/** Serves task-augmented server requests for one client; one instance per connection. */
export class ClientTaskReceiver {
  private readonly tasks = new Map<string, ClientTask>();
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxLive: number;
  private readonly pageSize: number;
  private session: Session | undefined;

  constructor(
    private readonly handlers: HandlerSet,
    options: TaskRequestOptions = {},
  ) {
    this.defaultTtlMs = options.defaultTtlMs ?? 600_000;
    this.maxTtlMs = options.maxTtlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.maxLive = options.maxLive ?? 16;
    this.pageSize = options.pageSize ?? 50;
  }

  /** The `tasks` capability to declare: the methods a handler answers, list and cancel. */
  static capability(handlers: HandlerSet): Record<string, unknown> | undefined {
    return handlers.taskCapability();
  }

  /** Tasks held (finished ones until their TTL runs out included). */
  get size(): number {
    return this.tasks.size;
  }

  /** Takes over the augmentable methods and serves the task methods on this connection. */
  register(session: Session): void {
    this.session = session;
    for (const method of this.handlers.taskAugmentable()) {
      session.setRequestHandler(method, (params, rc) => this.receive(method, params, rc));
    }
    session.setRequestHandler('tasks/get', (p) => this.wire(this.owned(p)));
    session.setRequestHandler('tasks/result', (p, rc) => this.result(p, rc));
    session.setRequestHandler('tasks/list', (p) => this.list(p));
    session.setRequestHandler('tasks/cancel', (p) => this.cancel(p));
    session.addCloseListener(() => this.close());
  }

  /** Cancels what is still running and forgets every task (the connection is gone). */
  close(): void {
    for (const t of this.tasks.values()) {
      if (t.expiry) clearTimeout(t.expiry);
      if (!isTerminal(t.status)) t.controller.abort(new LocalError('Cancelled', 'The connection closed'));
      this.release(t);
    }
    this.tasks.clear();
  }

  private async receive(
    method: string,
    params: Params,
    rc: RequestContext,
  ): Promise<Record<string, unknown>> {
    const ctx = { signal: rc.signal, era: rc.era, protocolVersion: rc.protocolVersion };
    const task = params.task;
    // Only 2025-11-25 task-augments requests; elsewhere `params.task` means nothing.
    if (task === undefined || !clientEraOf(rc.era).tasksByAugmentation)
      return this.handlers.answer(method, params, ctx);
    if (!isObject(task)) throw WireError.invalidParams('params.task must be an object');
    if (task.ttl !== undefined && task.ttl !== null && typeof task.ttl !== 'number') {
      throw WireError.invalidParams('params.task.ttl must be a number of milliseconds');
    }
    let live = 0;
    for (const t of this.tasks.values()) if (!isTerminal(t.status)) live++;
    if (live >= this.maxLive) {
      throw WireError.invalidRequest(
        `Too many live tasks: this client already runs ${this.maxLive} unfinished tasks for the server`,
      );
    }
    const requested = task.ttl as number | null | undefined;
    const ttl =
      typeof requested === 'number' && Number.isFinite(requested) && requested > 0
        ? Math.min(Math.floor(requested), this.maxTtlMs)
        : this.defaultTtlMs;
    const now = Date.now();
    const t: ClientTask = {
      taskId: crypto.randomUUID(),
      status: 'working',
      statusMessage: undefined,
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      controller: new AbortController(),
      result: undefined,
      error: undefined,
      waiters: undefined,
      expiry: undefined,
    };
    this.tasks.set(t.taskId, t);
    t.expiry = setTimeout(() => this.expire(t), ttl);
    (t.expiry as { unref?: () => void }).unref?.();
    const { task: _task, ...plain } = params;
    const taskCtx = { signal: t.controller.signal, era: rc.era, protocolVersion: rc.protocolVersion };
    // The handler starts after the CreateTaskResult is on its way.
    queueMicrotask(() => {
      this.handlers.answer(method, plain, taskCtx).then(
        (result) => this.settle(t, 'completed', result, undefined),
        (e: unknown) => this.settle(t, 'failed', undefined, e),
      );
    });
    return { task: this.wire(t) };
  }

  private settle(
    t: ClientTask,
    status: Status,
    result: Record<string, unknown> | undefined,
    e: unknown,
  ): void {
    if (isTerminal(t.status)) return;
    t.result = result;
    if (status === 'failed') {
      t.error =
        e instanceof WireError
          ? e
          : new WireError(ErrorCode.InternalError, e instanceof Error ? e.message : String(e));
      t.statusMessage = t.error.message;
    }
    this.transition(t, status);
  }

  private transition(t: ClientTask, status: Status): void {
    t.status = status;
    t.lastUpdatedAt = Date.now();
    this.release(t);
    // The spec lets a receiver tell the requestor; polling stays the requestor's source of truth.
    if (this.session?.isOpen) {
      this.session.notify('notifications/tasks/status', this.wire(t)).catch(() => undefined);
    }
  }

  private release(t: ClientTask): void {
    const waiters = t.waiters;
    t.waiters = undefined;
    if (waiters) for (const w of waiters) w();
  }

  private expire(t: ClientTask): void {
    if (this.tasks.get(t.taskId) !== t) return;
    this.tasks.delete(t.taskId);
    if (!isTerminal(t.status)) {
      t.controller.abort(new LocalError('Cancelled', 'The task expired'));
      t.status = 'cancelled';
    }
    this.release(t);
  }

  /** The task a request names, or the one error that never says whether it ever existed. */
  private owned(params: Params): ClientTask {
    const taskId = params.taskId;
    const t = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!t) {
      const shown = typeof taskId === 'string' && taskId.length <= 100 ? taskId : '(invalid)';
      throw WireError.invalidParams(`Failed to retrieve task: Task not found (${shown})`);
    }
    return t;
  }

  private wire(t: ClientTask): Record<string, unknown> {
    const out: Record<string, unknown> = { taskId: t.taskId, status: t.status };
    if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
    out.createdAt = new Date(t.createdAt).toISOString();
    out.lastUpdatedAt = new Date(t.lastUpdatedAt).toISOString();
    out.ttl = t.ttl;
    out.pollInterval = this.pollIntervalMs;
    return out;
  }

  /** `tasks/result`: blocks until the task is terminal, then answers as the request would have. */
  private async result(params: Params, rc: RequestContext): Promise<Record<string, unknown>> {
    const t = this.owned(params);
    if (!isTerminal(t.status)) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(new LocalError('Cancelled', 'The wait was cancelled'));
        if (rc.signal.aborted) return onAbort();
        rc.signal.addEventListener('abort', onAbort, { once: true });
        (t.waiters ??= []).push(() => {
          rc.signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    if (t.result) {
      const meta = isObject(t.result._meta) ? t.result._meta : {};
      return { ...t.result, _meta: { ...meta, [MetaKey.RelatedTask]: { taskId: t.taskId } } };
    }
    if (t.error) throw t.error;
    throw new WireError(
      ErrorCode.InternalError,
      `Task ${t.taskId} was cancelled before it produced a result`,
    );
  }

  private list(params: Params): Record<string, unknown> {
    const cursor = params.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') throw WireError.invalidParams('Invalid cursor');
    // Newest first; the cursor is the task id the next page starts at.
    const all = [...this.tasks.values()].reverse();
    let start = 0;
    if (cursor !== undefined) {
      start = all.findIndex((t) => t.taskId === cursor);
      if (start < 0) throw WireError.invalidParams('Invalid or expired cursor');
    }
    const out: Record<string, unknown> = {
      tasks: all.slice(start, start + this.pageSize).map((t) => this.wire(t)),
    };
    const next = all[start + this.pageSize];
    if (next) out.nextCursor = next.taskId;
    return out;
  }

  private cancel(params: Params): Record<string, unknown> {
    const t = this.owned(params);
    if (isTerminal(t.status)) {
      throw WireError.invalidParams(`Cannot cancel task: already in terminal status '${t.status}'`);
    }
    t.statusMessage = 'The task was cancelled by request.';
    t.controller.abort(new LocalError('Cancelled', 'The task was cancelled'));
    this.transition(t, 'cancelled');
    return this.wire(t);
  }
}
