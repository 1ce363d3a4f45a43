/**
 * Where tasks live: the {@link TaskStore} seam and its in-memory default.
 *
 * A store holds plain JSON records and nothing else (no closures, no timers of the task),
 * so a task created on one process can be read, answered and cancelled from another that
 * shares the store. The running handler stays in the process that started it; it learns
 * about answers and cancellation by watching its record.
 */
import type { Era } from '../protocol/versions.js';

/** Lifecycle state of a task. `completed`, `failed` and `cancelled` are terminal. */
export type TaskState = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a status is terminal. */
export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/** A question for the client, as stored (the `method` and `params` of an input request). */
export interface StoredInputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC error, as stored. */
export interface StoredError {
  code: number;
  message: string;
  data?: unknown;
}

/** One task, as a store keeps it. Every field is plain JSON. */
export interface TaskRecord {
  taskId: string;
  /** Who may see and touch the task (a principal, a session, or `''` for the task id alone). */
  owner: string;
  /** The wire generation it was created in: `legacy` (2025-11-25) or `modern` (the extension). */
  generation: Era;
  /** The request it wraps (`tools/call`). */
  method: string;
  status: TaskState;
  statusMessage?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUpdatedAt: number;
  /** Lifetime from creation; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs: number;
  /** The underlying request's result, once there is one. */
  result?: Record<string, unknown>;
  /** The underlying request's JSON-RPC error, when it failed with one. */
  error?: StoredError;
  /** Outstanding questions for the client, by key (unique over the task's life). */
  inputRequests?: Record<string, StoredInputRequest>;
  /** Answers received and not yet taken by the running handler, by key. */
  inputResponses?: Record<string, unknown>;
  /**
   * The process running the handler, when the store is shared ({@link TaskRunners}): if
   * its lease runs out before the task ends, the task is failed rather than left working.
   */
  runner?: string;
}

/** A change to a task. Stores apply it with {@link applyTaskPatch}, atomically. */
export interface TaskPatch {
  status?: TaskState;
  statusMessage?: string;
  result?: Record<string, unknown>;
  error?: StoredError;
  /** Questions to add; the task becomes `input_required`. */
  ask?: Record<string, StoredInputRequest>;
  /** Answers: only keys currently asked are taken (others are ignored, as the spec allows). */
  answer?: Record<string, unknown>;
  /** Answer keys the running handler has taken. */
  consume?: readonly string[];
}

/** One page of an owner's tasks. */
export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/**
 * Who runs tasks, for a store shared by several processes. A process that dies mid-task
 * cannot record the outcome; its lease in the store (renewed while it lives) runs out, and
 * whoever next reads the task fails it with a clear error instead of leaving it `working`
 * until its TTL.
 */
export interface TaskRunners {
  /** This process's runner id, recorded in the tasks it starts. */
  readonly self: string;
  /** At most this long (ms) after a runner stops, {@link TaskRunners.alive} says so. */
  readonly leaseMs: number;
  /** Whether the runner's lease still holds. Rejects when the store cannot be reached. */
  alive(runner: string): Promise<boolean>;
}

/**
 * The storage seam of the task runtime. Every method is async so a networked store
 * (Redis) fits; every value is plain JSON.
 *
 * Contract:
 * - `create` is atomic with its cap check: it stores the record only while its owner has
 *   fewer than `maxLive` non-terminal tasks, and says whether it did.
 * - `get` never returns an expired record (`createdAt + ttlMs` in the past); a store may
 *   drop expired records whenever it likes.
 * - `update` applies {@link applyTaskPatch} to the current record atomically (compare and
 *   set, a transaction, or a script) and returns the record after the change; a terminal
 *   task never changes again. Undefined when there is no such (live) task.
 * - `watch` calls the listener after every change to the task made through any process
 *   sharing the store (with undefined when it is deleted or expires), until unsubscribed.
 * - `list` pages through one owner's unexpired tasks, newest first; an unknown cursor
 *   returns undefined.
 */
export interface TaskStore {
  create(record: TaskRecord, maxLive: number): Promise<boolean>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined>;
  delete(taskId: string): Promise<void>;
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined>;
  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void;
  /** Present on stores shared by several processes: the leases of the processes running tasks. */
  readonly runners?: TaskRunners;
  /** Releases timers and connections. */
  close(): Promise<void>;
}

/**
 * One page of an owner's tasks, the same in every store: newest first (ties by id), starting
 * at the task named by `cursor`; undefined when the cursor names no task. Sorts `mine` in place.
 */
export function pageOfTasks(
  mine: TaskRecord[],
  cursor: string | undefined,
  limit: number,
): TaskPage | undefined {
  mine.sort((a, b) => b.createdAt - a.createdAt || (a.taskId < b.taskId ? -1 : 1));
  let start = 0;
  if (cursor !== undefined) {
    start = mine.findIndex((t) => t.taskId === cursor);
    if (start < 0) return undefined;
  }
  const page: TaskPage = { tasks: mine.slice(start, start + limit) };
  const after = mine[start + limit];
  if (after) page.nextCursor = after.taskId;
  return page;
}

/** Whether a record's TTL has run out at `now`. */
export function isExpired(record: TaskRecord, now: number): boolean {
  return record.ttlMs !== null && record.createdAt + record.ttlMs <= now;
}

/**
 * The one definition of how a patch changes a record, shared by every store. Returns the
 * new record, or the same object when nothing may change (terminal tasks never do).
 * Questions make the task `input_required`; answering the last one makes it `working`.
 */
export function applyTaskPatch(record: TaskRecord, patch: TaskPatch, now: number): TaskRecord {
  if (isTerminal(record.status)) return record;
  let asked = record.inputRequests;
  let answers = record.inputResponses;
  if (patch.ask) asked = { ...asked, ...patch.ask };
  if (patch.answer && asked) {
    for (const key of Object.keys(patch.answer)) {
      if (!Object.hasOwn(asked, key)) continue;
      const { [key]: _gone, ...rest } = asked;
      asked = rest;
      answers = { ...answers, [key]: patch.answer[key] };
    }
  }
  if (patch.consume && answers) {
    const rest = { ...answers };
    for (const key of patch.consume) delete rest[key];
    answers = rest;
  }
  if (asked && Object.keys(asked).length === 0) asked = undefined;
  if (answers && Object.keys(answers).length === 0) answers = undefined;
  let status = record.status;
  if (patch.status !== undefined) status = patch.status;
  else if (asked) status = 'input_required';
  else if (status === 'input_required') status = 'working';
  if (isTerminal(status)) asked = answers = undefined;
  return makeRecord(record, {
    status,
    statusMessage: patch.statusMessage ?? record.statusMessage,
    lastUpdatedAt: now,
    result: patch.result ?? record.result,
    error: patch.error ?? record.error,
    inputRequests: asked,
    inputResponses: answers,
  });
}

/** The fields of a record that change over its life. */
interface Changing {
  status: TaskState;
  statusMessage: string | undefined;
  lastUpdatedAt: number;
  result: Record<string, unknown> | undefined;
  error: StoredError | undefined;
  inputRequests: Record<string, StoredInputRequest> | undefined;
  inputResponses: Record<string, unknown> | undefined;
}

/**
 * A record built field by field, in one order, with absent optional fields left out: every
 * record then shares one compact hidden class (a spread, a `delete` or `structuredClone`
 * would give thousands of live tasks dictionary-mode objects).
 */
function makeRecord(base: TaskRecord, c: Changing): TaskRecord {
  const r: TaskRecord = {
    taskId: base.taskId,
    owner: base.owner,
    generation: base.generation,
    method: base.method,
    status: c.status,
    createdAt: base.createdAt,
    lastUpdatedAt: c.lastUpdatedAt,
    ttlMs: base.ttlMs,
    pollIntervalMs: base.pollIntervalMs,
  };
  if (base.runner !== undefined) r.runner = base.runner;
  if (c.statusMessage !== undefined) r.statusMessage = c.statusMessage;
  if (c.result !== undefined) r.result = c.result;
  if (c.error !== undefined) r.error = c.error;
  if (c.inputRequests !== undefined) r.inputRequests = c.inputRequests;
  if (c.inputResponses !== undefined) r.inputResponses = c.inputResponses;
  return r;
}

/** A private copy of a record, for a store to keep (its JSON parts are copied deeply). */
export function copyRecord(r: TaskRecord): TaskRecord {
  return makeRecord(r, {
    status: r.status,
    statusMessage: r.statusMessage,
    lastUpdatedAt: r.lastUpdatedAt,
    result: r.result && structuredClone(r.result),
    error: r.error && structuredClone(r.error),
    inputRequests: r.inputRequests && structuredClone(r.inputRequests),
    inputResponses: r.inputResponses && structuredClone(r.inputResponses),
  });
}

type Watcher = (record: TaskRecord | undefined) => void;

const SWEEP_MS = 30_000;

/**
 * The default store: a Map in this process. Expired tasks are dropped on access and by a
 * background sweep (an unref'd timer, so it never keeps the process alive).
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** One listener, or a set once a task has several (most have exactly one). */
  private readonly watchers = new Map<string, Watcher | Set<Watcher>>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  /** Number of records held (expired ones not yet swept included). */
  get size(): number {
    return this.tasks.size;
  }

  create(record: TaskRecord, maxLive: number): Promise<boolean> {
    const now = Date.now();
    let live = 0;
    for (const t of this.tasks.values()) {
      if (t.owner === record.owner && !isTerminal(t.status) && !isExpired(t, now)) live++;
    }
    if (live >= maxLive) return Promise.resolve(false);
    this.tasks.set(record.taskId, copyRecord(record));
    this.sweeper ??= unref(setInterval(() => this.sweep(), SWEEP_MS));
    return Promise.resolve(true);
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.live(taskId));
  }

  update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const current = this.live(taskId);
    if (!current) return Promise.resolve(undefined);
    const next = applyTaskPatch(current, clone(patch), Date.now());
    if (next !== current) {
      this.tasks.set(taskId, next);
      this.emit(taskId, next);
    }
    return Promise.resolve(next);
  }

  delete(taskId: string): Promise<void> {
    if (this.tasks.delete(taskId)) this.emit(taskId, undefined);
    return Promise.resolve();
  }

  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const now = Date.now();
    const mine = [...this.tasks.values()].filter((t) => t.owner === owner && !isExpired(t, now));
    return Promise.resolve(pageOfTasks(mine, cursor, limit));
  }

  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    const current = this.watchers.get(taskId);
    if (current === undefined) this.watchers.set(taskId, listener);
    else if (current instanceof Set) current.add(listener);
    else this.watchers.set(taskId, new Set([current, listener]));
    return () => this.unwatch(taskId, listener);
  }

  private unwatch(taskId: string, listener: Watcher): void {
    const current = this.watchers.get(taskId);
    if (current === listener) this.watchers.delete(taskId);
    else if (current instanceof Set) {
      current.delete(listener);
      if (current.size === 0) this.watchers.delete(taskId);
    }
  }

  close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    return Promise.resolve();
  }

  /** Drops every expired record now. */
  sweep(): void {
    const now = Date.now();
    for (const [id, t] of this.tasks) {
      if (isExpired(t, now)) {
        this.tasks.delete(id);
        this.emit(id, undefined);
      }
    }
    if (this.tasks.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private live(taskId: string): TaskRecord | undefined {
    const t = this.tasks.get(taskId);
    if (!t) return undefined;
    if (isExpired(t, Date.now())) {
      this.tasks.delete(taskId);
      this.emit(taskId, undefined);
      return undefined;
    }
    return t;
  }

  private emit(taskId: string, record: TaskRecord | undefined): void {
    const current = this.watchers.get(taskId);
    if (current === undefined) return;
    for (const fn of current instanceof Set ? [...current] : [current]) {
      try {
        fn(record);
      } catch {
        // A watcher's failure is its own; the store keeps serving.
      }
    }
  }
}

/** Records are handed out as shared immutable snapshots; inputs are copied once on entry. */
function clone<T>(value: T): T {
  return structuredClone(value);
}

function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
