/**
 * Tasks in Durable Objects, for a Worker whose isolates share them: a task created through
 * one isolate is polled (`tasks/get`), read and cancelled through any other, and outlives
 * the isolate. One instance per task (`task:<id>`) holds the record; one per owner
 * (`tasks-of:<owner>`) holds the owner's index for `tasks/list` and the live count that
 * `maxLive` caps.
 */
import { isExpired, isTerminal, pageOfTasks } from '../../server/task-store.js';
import type { TaskPage, TaskPatch, TaskRecord, TaskStore } from '../../server/task-store.js';
import { send, type DurableObjectNamespaceLike } from './durable-object-types.js';

/** Options of {@link DurableObjectTaskStore}. */
export interface DurableObjectTaskStoreOptions {
  /**
   * How often (ms) a watched task is read again, for changes made through other isolates
   * (default 1000). Changes made through this isolate are reported at once.
   */
  watchPollMs?: number;
}

type Watcher = (record: TaskRecord | undefined) => void;

const taskName = (taskId: string) => `task:${taskId}`;
const ownerName = (owner: string) => `tasks-of:${owner}`;

/**
 * The {@link TaskStore} over a Durable Object namespace bound to `McpSessionObject`.
 * `connectDurableObjectStores` makes one as its `taskStore`, which the HTTP layer hands to
 * the server. `watch` hears this isolate's changes at once and other isolates' by reading
 * the record every `watchPollMs` (isolates cannot message each other).
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpkit';
 * import { DurableObjectTaskStore, type DurableObjectNamespaceLike } from 'mcpkit/durable-object';
 *
 * // Made directly (without the session stores), it keeps one server's tasks.
 * function jobsServer(ns: DurableObjectNamespaceLike): McpServer {
 *   const store = new DurableObjectTaskStore(ns, { watchPollMs: 500 });
 *   return new McpServer({ name: 'jobs', version: '1.0.0' }, { tasks: { store } });
 * }
 * ```
 */
export class DurableObjectTaskStore implements TaskStore {
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly pollMs: number;

  constructor(
    private readonly ns: DurableObjectNamespaceLike,
    options: DurableObjectTaskStoreOptions = {},
  ) {
    this.pollMs = options.watchPollMs ?? 1000;
  }

  async create(record: TaskRecord, maxLive: number): Promise<boolean> {
    const owner = ownerName(record.owner);
    const taskId = record.taskId;
    const expiry = record.ttlMs === null ? null : record.createdAt + record.ttlMs;
    const reserved = await send<boolean>(this.ns, owner, {
      op: 'owner.reserve',
      taskId,
      expiry,
      createdAt: record.createdAt,
      maxLive,
    });
    if (!reserved) return false;
    if (await send<boolean>(this.ns, taskName(taskId), { op: 'task.create', record })) return true;
    await send(this.ns, owner, { op: 'owner.remove', taskIds: [taskId] });
    return false;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const r = await send<TaskRecord | null>(this.ns, taskName(taskId), { op: 'task.get' });
    return r && !isExpired(r, Date.now()) ? r : undefined;
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const r = await send<{ record: TaskRecord; changed: boolean } | null>(this.ns, taskName(taskId), {
      op: 'task.update',
      patch,
    });
    if (!r) return undefined;
    if (r.changed) {
      if (isTerminal(r.record.status)) {
        // The owner's live count drops; a failure here only delays that until the TTL.
        await send(this.ns, ownerName(r.record.owner), { op: 'owner.end', taskId }).catch(() => undefined);
      }
      this.emit(taskId, r.record);
    }
    return r.record;
  }

  async delete(taskId: string): Promise<void> {
    const owner = await send<string | null>(this.ns, taskName(taskId), { op: 'task.delete' });
    if (owner === null) return;
    await send(this.ns, ownerName(owner), { op: 'owner.remove', taskIds: [taskId] });
    this.emit(taskId, undefined);
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const ids = await send<string[]>(this.ns, ownerName(owner), { op: 'owner.list' });
    if (ids.length === 0) return cursor === undefined ? { tasks: [] } : undefined;
    const records = await Promise.all(ids.map((id) => this.get(id)));
    const mine: TaskRecord[] = [];
    const gone: string[] = [];
    records.forEach((r, i) => (r ? mine.push(r) : gone.push(ids[i]!)));
    if (gone.length > 0) {
      await send(this.ns, ownerName(owner), { op: 'owner.remove', taskIds: gone }).catch(() => undefined);
    }
    return pageOfTasks(mine, cursor, limit);
  }

  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    let stopped = false;
    // The last state reported (JSON), so a poll that reads a change already reported stays quiet.
    let last: string | undefined;
    const local: Watcher = (r) => {
      if (stopped) return;
      if (!r)
        stopped = true; // deleted or expired: reported once, and no more polls
      else last = JSON.stringify(r);
      listener(r);
    };
    let set = this.watchers.get(taskId);
    if (!set) this.watchers.set(taskId, (set = new Set()));
    set.add(local);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = (): void => {
      timer = undefined;
      this.get(taskId).then(
        (r) => {
          if (stopped) return;
          if (!r) return local(undefined);
          const text = JSON.stringify(r);
          // Before anything was reported, only a change since creation is news.
          if (last === undefined ? r.lastUpdatedAt !== r.createdAt : text !== last) local(r);
          schedule();
        },
        () => {
          if (!stopped) schedule(); // the namespace is unreachable for now: try again later
        },
      );
    };
    const schedule = (): void => {
      timer = setTimeout(poll, this.pollMs);
      (timer as { unref?: () => void }).unref?.();
    };
    schedule();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      set.delete(local);
      if (set.size === 0 && this.watchers.get(taskId) === set) this.watchers.delete(taskId);
    };
  }

  close(): Promise<void> {
    // Nothing is held open: each operation is one request to an instance.
    return Promise.resolve();
  }

  private emit(taskId: string, record: TaskRecord | undefined): void {
    const set = this.watchers.get(taskId);
    if (!set) return;
    for (const fn of [...set]) {
      try {
        fn(record);
      } catch {
        // A watcher's failure is its own; the store keeps serving.
      }
    }
  }
}
