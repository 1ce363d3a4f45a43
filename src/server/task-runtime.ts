/**
 * The task runtime: runs task-augmented `tools/call` handlers in the background and
 * serves the task methods of both generations from a {@link TaskStore}.
 *
 * The handler is the same function a synchronous call runs. In a task its context is
 * switched to one whose signal is the task's (cancelled by `tasks/cancel` or TTL expiry,
 * never by a disconnect) and whose questions (`ctx.elicit`, `ctx.sample`) become the
 * task's `input_required` state: the 2025-11-25 client receives them on its blocking
 * `tasks/result`, the extension's client reads them from `tasks/get` and answers with
 * `tasks/update`. Answers, cancellation and results all travel through the store.
 */
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { CallToolResult } from '../protocol/types/tools.js';
import { RequestContext } from '../session/index.js';
import type { RequestOptions, TaskObserver } from '../session/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { principalKey } from '../protocol/principal.js';
import { validAnswer } from './mrtr.js';
import type { InputRequest } from './mrtr.js';
import { serverEraOf } from './server-era.js';
import type { ServerContext } from './server-context.js';
import type { TaskEra } from './task-era.js';
import { InMemoryTaskStore, isTerminal } from './task-store.js';
import { TaskRun, withRelatedTask } from './task-run.js';
import type { OriginSession } from './task-run.js';
import type { StoredError, TaskRecord, TaskStore } from './task-store.js';
import { legacyTask, taskNotFound, tasksCapabilities } from './task-wire.js';
import { checkRunner, waitForTask, watchRunner } from './task-watch.js';
import type { TaskSupport } from './task-wire.js';
import { isObject } from '../jsonrpc/is-object.js';

// Here since this file first defined them; the server reads them from task-wire.ts, which
// loads without the runtime.
export { taskSupportOf } from './task-wire.js';
export type { TaskSupport } from './task-wire.js';

/** Tuning and policy of the task runtime. */
export interface TaskOptions {
  /** Where tasks live (default: in this process). */
  store?: TaskStore;
  /** TTL when the client asks for none (default 1 hour). */
  defaultTtlMs?: number;
  /** Longest TTL granted; longer requests are cut to it (default 24 hours). */
  maxTtlMs?: number;
  /** Suggested polling interval (default 1000 ms). */
  pollIntervalMs?: number;
  /** Non-terminal tasks one owner may have at once (default 100). */
  maxLivePerOwner?: number;
  /** Tasks per `tasks/list` page (default 50). */
  pageSize?: number;
  /**
   * Who owns a request's tasks: only the owner may get, read, list, update or cancel them.
   * Default: the authenticated principal when there is one (issuer and subject, as
   * `principalKey` says: so any session, on any node sharing the store, after any restart).
   * Otherwise, in 2025-11-25, the MCP session: the `Mcp-Session-Id` when sessions are
   * shared between nodes (so another node serving the same session reaches its tasks), else
   * the connection; a new session of the same unauthenticated client is someone else, since
   * nothing proves it is not. In the extension (no `tasks/list`) an unauthenticated task is
   * reached by its unguessable id alone, as the extension intends; those callers share one
   * `maxLivePerOwner` cap.
   * Set this to bind tasks to something else your deployment trusts.
   */
  owner?: (rc: RequestContext) => string;
}

/** What the runtime needs to know about the tool being called. */
export interface TaskTool {
  readonly name: string;
  readonly support: TaskSupport;
  /**
   * The handler becomes a task only when it calls `ctx.startTask()`, after the questions
   * it must settle first (asked synchronously: MRTR rounds in the modern era).
   */
  readonly deferred?: boolean;
}

const ASK_TIMEOUT_MS = 5 * 60_000;
/** The owner string of each unauthenticated legacy session, made once and shared by its tasks. */
const sessionOwners = new WeakMap<object, string>();
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2_147_483_647;

function toStoredError(e: WireError): StoredError {
  const err: StoredError = { code: e.code, message: e.message };
  if (e.data !== undefined) err.data = e.data;
  return err;
}

function firstText(result: CallToolResult): string | undefined {
  const first = result.content?.[0];
  return first && first.type === 'text' ? first.text : undefined;
}

/**
 * Runs tasks and answers `tasks/*` for one server. Create one per server; it holds the
 * handlers running in this process, and the store holds everything else.
 */
export class TaskRuntime {
  readonly store: TaskStore;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxLive: number;
  private readonly pageSize: number;
  private readonly ownerFn: ((rc: RequestContext) => string) | undefined;
  private readonly running = new Map<string, TaskRun>();
  /** Watches each task's life (telemetry); set by the server once its telemetry is loaded. */
  observer: TaskObserver | undefined;
  /** One timer for every TTL of the tasks running here, armed for the earliest. */
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private expiryAt = Infinity;
  /** Blocking `tasks/result` requests in this process, per task: where questions go. */
  private readonly resultWaiters = new Map<string, Set<RequestContext>>();
  /** Question keys being put to the client right now (taskId + key). */
  private readonly delivering = new Set<string>();

  constructor(options: TaskOptions = {}) {
    this.store = options.store ?? new InMemoryTaskStore();
    this.defaultTtlMs = options.defaultTtlMs ?? 3_600_000;
    this.maxTtlMs = options.maxTtlMs ?? 86_400_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.maxLive = options.maxLivePerOwner ?? 100;
    this.pageSize = options.pageSize ?? 50;
    this.ownerFn = options.owner;
  }

  /** Tasks whose handlers run in this process. */
  get runningCount(): number {
    return this.running.size;
  }

  /** The capabilities to declare: the 2025-11-25 `tasks` and the extension. */
  capabilities(): Record<string, unknown> {
    return tasksCapabilities();
  }

  /** Who owns the tasks of this request. */
  ownerOf(rc: RequestContext): string {
    if (this.ownerFn) return this.ownerFn(rc);
    const principal = principalKey(rc.authInfo);
    if (principal !== '') return `p:${principal}`;
    if (!serverEraOf(rc.era).tasks.ownedBySession) return '';
    // Behind a load balancer each node has its own copy of a session: the transport names it.
    const shared = rc.transportMeta?.sessionId;
    if (typeof shared === 'string') return `s:${shared}`;
    let owner = sessionOwners.get(rc.session);
    if (!owner) sessionOwners.set(rc.session, (owner = `s:${crypto.randomUUID()}`));
    return owner;
  }

  // ------------------------------------------------------------------ tools/call

  /**
   * Serves `tools/call` for a tool: decides between a plain call and a task by the era,
   * the request and the tool's `taskSupport`, with the errors the specs prescribe, and
   * returns either the plain result or a `CreateTaskResult`.
   */
  async callTool(
    tool: TaskTool,
    params: Params,
    ctx: ServerContext,
    run: (ctx: ServerContext) => Promise<CallToolResult>,
  ): Promise<unknown> {
    const era = serverEraOf(ctx.request.era).tasks;
    const plan = era.plan(tool.name, tool.support, params, ctx.request);
    if (!plan) return run(ctx);
    return this.launch(tool, ctx, era, plan.ttl, run);
  }

  /**
   * Runs the handler as a task: created first (eager), or when the handler calls
   * `ctx.startTask()` (deferred). A deferred handler that returns without starting one
   * answers plainly, except that a 2025-11-25 task-augmented call always gets a task.
   */
  private async launch(
    tool: TaskTool,
    ctx: ServerContext,
    era: TaskEra,
    ttl: number | undefined,
    run: (ctx: ServerContext) => Promise<CallToolResult>,
  ): Promise<unknown> {
    if (!tool.deferred) {
      const [running, record] = await this.create(ctx, era, ttl);
      // The handler runs after the CreateTaskResult is on its way.
      queueMicrotask(() => this.track(running, run(ctx)));
      return era.created(record);
    }
    let running: TaskRun | undefined;
    let record: TaskRecord | undefined;
    let started!: (v: { started: true }) => void;
    const startedP = new Promise<{ started: true }>((resolve) => (started = resolve));
    ctx.setTaskStarter(async () => {
      if (!running) [running, record] = await this.create(ctx, era, ttl);
      started({ started: true });
    });
    const work = run(ctx);
    const outcome = await Promise.race([work.then((result) => ({ result })), startedP]);
    if (running) {
      this.track(running, work);
      return era.created(record!);
    }
    const result = (outcome as { result: CallToolResult }).result;
    if (!era.alwaysAnswersWithTask) return result;
    const [late, lateRecord] = await this.create(ctx, era, ttl);
    this.track(late, Promise.resolve(result));
    return era.created(lateRecord);
  }

  /** Records the outcome of a task's handler when it settles. */
  private track(running: TaskRun, work: Promise<CallToolResult>): void {
    work.then(
      (result) => this.finish(running, result, undefined),
      (e: unknown) => this.finish(running, undefined, e),
    );
  }

  /** Creates the task (durably, before answering) and moves the call's context into it. */
  private async create(
    ctx: ServerContext,
    era: TaskEra,
    requestedTtl: number | undefined,
  ): Promise<[TaskRun, TaskRecord]> {
    const rc = ctx.request;
    const now = Date.now();
    const ttl =
      requestedTtl === undefined || !Number.isFinite(requestedTtl) || requestedTtl <= 0
        ? this.defaultTtlMs
        : Math.min(Math.floor(requestedTtl), this.maxTtlMs);
    const record: TaskRecord = {
      taskId: crypto.randomUUID(),
      owner: this.ownerOf(rc),
      generation: era.name,
      method: rc.method,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttl,
      pollIntervalMs: this.pollIntervalMs,
    };
    if (this.store.runners) record.runner = this.store.runners.self;
    if (!(await this.store.create(record, this.maxLive))) {
      throw WireError.invalidRequest(
        `Too many live tasks: this client already has ${this.maxLive} unfinished tasks; wait for some to finish or cancel them`,
      );
    }
    const origin = rc.session as unknown as OriginSession;
    const running = new TaskRun(
      record.taskId,
      era,
      this,
      rc.session,
      typeof origin.sendRaw === 'function' ? origin : undefined,
      ttl === null ? Infinity : now + ttl,
    );
    const taskRc = new RequestContext({
      session: running,
      requestId: rc.requestId,
      method: rc.method,
      params: rc.params,
      protocolVersion: rc.protocolVersion,
      era: rc.era,
      peerCapabilities: rc.peerCapabilities,
      peerInfo: rc.peerInfo,
      authInfo: rc.authInfo,
    });
    running.rc = taskRc;
    this.running.set(record.taskId, running);
    if (this.observer !== undefined) running.observed = this.observer.taskCreated(record.taskId, rc);
    running.unwatch = this.store.watch(record.taskId, (r) => this.onRecord(running, r));
    if (running.deadline < this.expiryAt) this.armExpiry(running.deadline);
    ctx.enterTask(taskRc, running, record.taskId);
    return [running, record];
  }

  /** Arms the one expiry timer for `at` (the earliest deadline of the tasks running here). */
  private armExpiry(at: number): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryAt = at;
    this.expiryTimer = setTimeout(
      () => this.expireDue(),
      Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS),
    );
    (this.expiryTimer as { unref?: () => void }).unref?.();
  }

  /** Cancels the handlers whose TTL ran out, and re-arms for the next deadline. */
  private expireDue(): void {
    this.expiryTimer = undefined;
    this.expiryAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const run of this.running.values()) {
      if (run.deadline <= now) run.rc.cancel('The task expired');
      else if (run.deadline < next) next = run.deadline;
    }
    if (next !== Infinity) this.armExpiry(next);
  }

  /** @internal The task's status message, recorded for every poller. */
  statusFor(running: TaskRun, message: string): void {
    this.store.update(running.taskId, { statusMessage: message }).catch(() => undefined);
  }

  /** @internal A handler's question: the task waits in `input_required` until it is answered. */
  async askFor(running: TaskRun, request: InputRequest): Promise<Record<string, unknown>> {
    const taskId = running.taskId;
    const key = `input-${running.nextKey++}`;
    const signal = running.rc.signal;
    if (signal.aborted) throw new LocalError('Cancelled', 'The task was cancelled');
    const answered = waitForTask(
      this.store,
      taskId,
      (r) => !r || isTerminal(r.status) || hasAnswer(r, key),
      signal,
    );
    const stored: { method: string; params?: Record<string, unknown> } = { method: request.method };
    if (request.params !== undefined) stored.params = request.params;
    const after = await this.store.update(taskId, { ask: { [key]: stored } });
    if (!after) throw new LocalError('Cancelled', 'The task is gone');
    const record = await answered;
    if (!record || !hasAnswer(record, key)) {
      throw new LocalError('Cancelled', 'The task ended while waiting for input');
    }
    const answer = record.inputResponses![key] as Record<string, unknown>;
    await this.store.update(taskId, { consume: [key] });
    return answer;
  }

  /** Records the handler's outcome, unless the task was cancelled or expired meanwhile. */
  private async finish(running: TaskRun, result: CallToolResult | undefined, e: unknown): Promise<void> {
    const taskId = running.taskId;
    running.finishing = true;
    try {
      if (running.rc.cancelled) return this.observeEnd(running, 'cancelled', running.rc.cancelReason);
      if (result) {
        const failed = running.era.toolErrorFails && result.isError === true;
        const patch = failed
          ? { status: 'failed' as const, result, statusMessage: firstText(result) ?? 'The tool failed' }
          : { status: 'completed' as const, result };
        this.observeEnd(running, patch.status, failed ? patch.statusMessage : undefined);
        await this.store.update(taskId, patch);
        return;
      }
      const wire = e instanceof WireError ? e : WireError.internal();
      this.observeEnd(running, 'failed', wire.message);
      await this.store.update(taskId, {
        status: 'failed',
        error: toStoredError(wire),
        statusMessage: wire.message,
      });
    } catch {
      // The store failing here leaves the task to expire; nothing more can be done.
    } finally {
      this.retire(running);
    }
  }

  /** Tells the task observer, once, that the task ended. */
  private observeEnd(running: TaskRun, status: string, message: string | undefined): void {
    const token = running.observed;
    if (token === undefined) return;
    running.observed = undefined;
    this.observer?.taskEnded(token, status, message);
  }

  private retire(running: TaskRun): void {
    const taskId = running.taskId;
    if (this.running.get(taskId) !== running) return;
    this.running.delete(taskId);
    if (this.running.size === 0 && this.expiryTimer) {
      clearTimeout(this.expiryTimer);
      this.expiryTimer = undefined;
      this.expiryAt = Infinity;
    }
    // Keep watching until the terminal status went out as a notification.
    queueMicrotask(() => running.unwatch());
  }

  /** Every change of a task running here: cancellation, expiry, status notifications. */
  private onRecord(running: TaskRun, record: TaskRecord | undefined): void {
    if (!record) {
      this.observeEnd(running, 'expired', undefined);
      running.rc.cancel('The task expired');
      this.retire(running);
      return;
    }
    if (record.status === 'cancelled') {
      this.observeEnd(running, 'cancelled', record.statusMessage);
      running.rc.cancel('The task was cancelled');
    } else if (isTerminal(record.status) && !running.finishing) {
      // Ended by another process (its lease was judged lost): this handler's work is moot.
      running.rc.cancel(record.statusMessage ?? 'The task ended');
    }
    if (record.status !== running.lastStatus) {
      running.lastStatus = record.status;
      this.statusNotification(running, record);
    }
    if (record.inputRequests) this.deliverQuestions(record);
  }

  /** `notifications/tasks/status` to the connection that made a 2025-11-25 task. */
  private statusNotification(running: TaskRun, record: TaskRecord): void {
    if (!running.era.notifiesOrigin || !running.origin || running.origin.isOpen === false) return;
    running.origin.sendRaw({
      jsonrpc: '2.0',
      method: 'notifications/tasks/status',
      params: running.era.shown(record),
    });
  }

  // ------------------------------------------------------------------ the task methods

  /** The `tasks/*` request handlers, keyed by method. */
  handlers(): Map<string, (params: Params, rc: RequestContext) => Promise<unknown>> {
    return new Map<string, (params: Params, rc: RequestContext) => Promise<unknown>>([
      ['tasks/get', (p, rc) => this.get(p, rc)],
      ['tasks/result', (p, rc) => this.result(p, rc)],
      ['tasks/list', (p, rc) => this.list(p, rc)],
      ['tasks/cancel', (p, rc) => this.cancel(p, rc)],
      ['tasks/update', (p, rc) => this.update(p, rc)],
    ]);
  }

  /** The caller's task, or the one error that never reveals whether it exists. */
  private async owned(params: Params, rc: RequestContext): Promise<TaskRecord> {
    serverEraOf(rc.era).tasks.checkCaller(rc);
    const taskId = params.taskId;
    if (typeof taskId !== 'string' || taskId.length === 0) {
      throw WireError.invalidParams(`${rc.method} needs a taskId string`);
    }
    const record = await this.store.get(taskId);
    if (!record || record.owner !== this.ownerOf(rc)) throw taskNotFound(taskId);
    return checkRunner(this.store, record);
  }

  private async get(params: Params, rc: RequestContext): Promise<unknown> {
    const record = await this.owned(params, rc);
    return serverEraOf(rc.era).tasks.shown(record);
  }

  /** `tasks/result` (2025-11-25): blocks until terminal, putting questions to the caller meanwhile. */
  private async result(params: Params, rc: RequestContext): Promise<unknown> {
    let record = await this.owned(params, rc);
    const taskId = record.taskId;
    if (!isTerminal(record.status)) {
      let set = this.resultWaiters.get(taskId);
      if (!set) this.resultWaiters.set(taskId, (set = new Set()));
      set.add(rc);
      const unwatch = this.store.watch(taskId, (r) => r?.inputRequests && this.deliverQuestions(r));
      const unwatchRunner = watchRunner(this.store, taskId);
      try {
        const done = waitForTask(this.store, taskId, (r) => !r || isTerminal(r.status), rc.signal);
        const now = await this.store.get(taskId);
        if (now?.inputRequests) this.deliverQuestions(now);
        const last = await done;
        if (!last) throw taskNotFound(taskId);
        record = last;
      } finally {
        unwatch();
        unwatchRunner();
        set.delete(rc);
        if (set.size === 0) this.resultWaiters.delete(taskId);
      }
    }
    const related = { [MetaKey.RelatedTask]: { taskId } };
    if (record.result) {
      const meta = isObject(record.result._meta) ? record.result._meta : {};
      return { ...record.result, _meta: { ...meta, ...related } };
    }
    if (record.error) throw new WireError(record.error.code, record.error.message, record.error.data);
    throw new WireError(ErrorCode.InternalError, `Task ${taskId} was cancelled before it produced a result`);
  }

  private async list(params: Params, rc: RequestContext): Promise<unknown> {
    const cursor = params.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') throw WireError.invalidParams('Invalid cursor');
    const page = await this.store.list(this.ownerOf(rc), cursor, this.pageSize);
    if (!page) throw WireError.invalidParams('Invalid or expired cursor');
    const alive = new Map<string, Promise<boolean>>();
    const tasks = await Promise.all(page.tasks.map((t) => checkRunner(this.store, t, alive)));
    const result: Record<string, unknown> = { tasks: tasks.map(legacyTask) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  private async cancel(params: Params, rc: RequestContext): Promise<unknown> {
    const record = await this.owned(params, rc);
    const era = serverEraOf(rc.era).tasks;
    if (isTerminal(record.status)) return era.cancelTerminal(record);
    const after = await this.store.update(record.taskId, {
      status: 'cancelled',
      statusMessage: 'The task was cancelled by request.',
    });
    return era.cancelled(record.taskId, after);
  }

  /** `tasks/update` (extension): answers to outstanding questions; others are ignored. */
  private async update(params: Params, rc: RequestContext): Promise<unknown> {
    const record = await this.owned(params, rc);
    const responses = params.inputResponses;
    if (!isObject(responses)) throw WireError.invalidParams('tasks/update needs an inputResponses object');
    const asked = record.inputRequests ?? {};
    const answer: Record<string, unknown> = {};
    for (const key of Object.keys(responses)) {
      if (!Object.hasOwn(asked, key)) continue;
      const method = asked[key]!.method;
      if (!validAnswer(method, responses[key])) {
        throw WireError.invalidParams(`inputResponses.${key} is not a valid answer to ${method}`);
      }
      answer[key] = responses[key];
    }
    if (Object.keys(answer).length > 0) await this.store.update(record.taskId, { answer });
    return {};
  }

  /**
   * 2025-11-25: puts each outstanding question to the client through a blocking
   * `tasks/result` of this process, once at a time, and stores the answer.
   */
  private deliverQuestions(record: TaskRecord): void {
    const waiters = this.resultWaiters.get(record.taskId);
    if (!waiters || waiters.size === 0 || !record.inputRequests) return;
    for (const [key, q] of Object.entries(record.inputRequests)) {
      const id = `${record.taskId}\u0000${key}`;
      if (this.delivering.has(id)) continue;
      const via = [...waiters].find((w) => !w.cancelled && !w.done);
      if (!via) return;
      this.delivering.add(id);
      const options: RequestOptions = { timeoutMs: ASK_TIMEOUT_MS };
      via
        .request(q.method, withRelatedTask(q.params, record.taskId), options)
        .then(
          (answer) => {
            if (validAnswer(q.method, answer)) {
              return this.store.update(record.taskId, { answer: { [key]: answer } });
            }
            return undefined;
          },
          () => undefined,
        )
        .finally(() => {
          this.delivering.delete(id);
        })
        .catch(() => undefined);
    }
  }

  /** Cancels the tasks running here (they cannot outlive their process) and closes the store. */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    await Promise.all(
      all.map((r) =>
        this.store
          .update(r.taskId, { status: 'cancelled', statusMessage: 'The server shut down' })
          .catch(() => undefined),
      ),
    );
    for (const r of all) {
      r.rc.cancel('The server shut down');
      this.retire(r);
    }
    await this.store.close();
  }
}

function hasAnswer(r: TaskRecord, key: string): boolean {
  return r.inputResponses !== undefined && Object.hasOwn(r.inputResponses, key);
}
