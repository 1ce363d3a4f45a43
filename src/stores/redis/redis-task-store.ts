import type { Redis } from 'ioredis';
import { applyTaskPatch, isExpired, isTerminal, pageOfTasks } from '../../server/task-store.js';
import type { TaskPage, TaskPatch, TaskRecord, TaskRunners, TaskStore } from '../../server/task-store.js';
import type { RedisChannels } from './redis-bus.js';
import { guarded } from './redis-errors.js';
import { redisKeys } from './redis-keys.js';
import type { RedisKeys } from './redis-keys.js';

// Each script touches one slot only (Redis Cluster): an owner's two indexes (one hash tag),
// or one task's record.

// KEYS: the owner's live set (by expiry), the owner's index (by creation). ARGV: now,
// maxLive, id, expiry ('+inf' for none), createdAt. Reserves a place under the cap; tasks
// leave the live set when they end (update) or expire (pruned here).
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
return 1`;

// KEYS: task. ARGV: the JSON read, the JSON to write. Compare and set, keeping the TTL.
const SWAP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

type Scripted = Redis & {
  mcpTaskReserve(k1: string, k2: string, ...args: (string | number)[]): Promise<number>;
  mcpTaskSwap(k1: string, ...args: string[]): Promise<number>;
};

/**
 * Tasks in Redis, for servers on many nodes: a task created on one node is polled,
 * answered and cancelled through any other. A record is one JSON string with the task's
 * TTL; updates are compare-and-set with {@link applyTaskPatch}, and every change is
 * published so the node running the handler hears answers and cancellation. With
 * `runners`, a task records the node running it, whose lease other nodes check.
 */
export class RedisTaskStore implements TaskStore {
  private readonly redis: Scripted;
  private readonly keys: RedisKeys;

  constructor(
    redis: Redis,
    private readonly channels: RedisChannels,
    prefix: string,
    /** The node leases, so a task whose node died is failed rather than left working. */
    readonly runners?: TaskRunners,
  ) {
    redis.defineCommand('mcpTaskReserve', { numberOfKeys: 2, lua: RESERVE });
    redis.defineCommand('mcpTaskSwap', { numberOfKeys: 1, lua: SWAP });
    this.redis = redis as Scripted;
    this.keys = redisKeys(prefix);
  }

  private key(taskId: string): string {
    return this.keys.task(taskId);
  }

  private ownerKeys(owner: string): [string, string] {
    return [this.keys.ownerLive(owner), this.keys.ownerIndex(owner)];
  }

  async create(record: TaskRecord, maxLive: number): Promise<boolean> {
    const now = Date.now();
    const expiry = record.ttlMs === null ? '+inf' : record.createdAt + record.ttlMs;
    const [live, index] = this.ownerKeys(record.owner);
    const id = record.taskId;
    const reserved = await guarded(
      this.redis.mcpTaskReserve(live, index, now, maxLive, id, expiry, record.createdAt),
    );
    if (reserved !== 1) return false;
    const text = JSON.stringify(record);
    const ttl = record.ttlMs === null ? undefined : Math.max(1, record.createdAt + record.ttlMs - now);
    const set = await guarded(
      ttl === undefined
        ? this.redis.set(this.key(id), text, 'NX')
        : this.redis.set(this.key(id), text, 'PX', ttl, 'NX'),
    );
    if (set === 'OK') return true;
    await guarded(Promise.all([this.redis.zrem(live, id), this.redis.zrem(index, id)]));
    return false;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const raw = await guarded(this.redis.get(this.key(taskId)));
    if (raw === null) return undefined;
    const record = JSON.parse(raw) as TaskRecord;
    return isExpired(record, Date.now()) ? undefined : record;
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const key = this.key(taskId);
    // Compare and set: another node may change the task between our read and our write.
    for (let attempt = 0; attempt < 50; attempt++) {
      const raw = await guarded(this.redis.get(key));
      if (raw === null) return undefined;
      const current = JSON.parse(raw) as TaskRecord;
      if (isExpired(current, Date.now())) return undefined;
      const next = applyTaskPatch(current, patch, Date.now());
      if (next === current) return current;
      const text = JSON.stringify(next);
      if ((await guarded(this.redis.mcpTaskSwap(key, raw, text))) !== 1) continue;
      if (isTerminal(next.status))
        this.redis.zrem(this.ownerKeys(next.owner)[0], taskId).catch(() => undefined);
      await this.redis.publish(key, text).catch(() => undefined);
      return next;
    }
    throw new Error(`Task ${taskId} is changing too fast to update`);
  }

  async delete(taskId: string): Promise<void> {
    const key = this.key(taskId);
    const raw = await guarded(this.redis.get(key));
    if (raw === null) return;
    const owner = (JSON.parse(raw) as TaskRecord).owner;
    const [live, index] = this.ownerKeys(owner);
    // Separate commands, not one transaction: the record and the indexes are on different slots.
    await guarded(
      Promise.all([
        this.redis.del(key),
        this.redis.zrem(live, taskId),
        this.redis.zrem(index, taskId),
        this.redis.publish(key, ''),
      ]),
    );
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const [, index] = this.ownerKeys(owner);
    const ids = await guarded(this.redis.zrevrange(index, 0, -1));
    if (ids.length === 0) return cursor === undefined ? { tasks: [] } : undefined;
    // One GET per task (pipelined), not MGET: each record is on a slot of its own.
    const raws = await guarded(Promise.all(ids.map((id) => this.redis.get(this.key(id)))));
    const now = Date.now();
    const mine: TaskRecord[] = [];
    const gone: string[] = [];
    raws.forEach((raw, i) => {
      const r = raw === null ? undefined : (JSON.parse(raw) as TaskRecord);
      if (r && !isExpired(r, now)) mine.push(r);
      else gone.push(ids[i]!);
    });
    if (gone.length > 0) this.redis.zrem(index, ...gone).catch(() => undefined);
    return pageOfTasks(mine, cursor, limit);
  }

  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    let stopped = false;
    // The last record reported, as JSON: the catch-up read below and the channel may both
    // carry the same change, and each change is reported once.
    let last: string | undefined;
    let unlisten: (() => void) | undefined;
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const gone = (): void => {
      if (!stopped) listener(undefined);
    };
    const arm = (record: TaskRecord): void => {
      if (expiry) clearTimeout(expiry);
      if (record.ttlMs === null) return;
      // Redis drops an expired key silently: the watcher is told when its time is up.
      expiry = setTimeout(gone, Math.max(0, record.createdAt + record.ttlMs - Date.now()));
      expiry.unref?.();
    };
    void this.channels
      .listen(this.key(taskId), (text) => {
        if (stopped) return;
        if (text === '') return gone();
        if (text === last) return;
        last = text;
        const record = JSON.parse(text) as TaskRecord;
        arm(record);
        listener(record);
      })
      .then((stop) => {
        if (stopped) return stop();
        unlisten = stop;
        // A change made before the subscription took hold would be missed: report the
        // current record once if it has changed since it was created.
        void this.get(taskId).then(
          (r) => {
            // Only while the channel has reported nothing: anything it did report is newer.
            if (!r || stopped || r.lastUpdatedAt === r.createdAt || last !== undefined) return;
            last = JSON.stringify(r);
            listener(r);
          },
          () => undefined,
        );
      }, gone);
    void this.get(taskId).then(
      (r) => r && !stopped && arm(r),
      () => undefined,
    );
    return () => {
      stopped = true;
      if (expiry) clearTimeout(expiry);
      unlisten?.();
    };
  }

  async close(): Promise<void> {
    // The connections belong to the shared stores, which close them.
  }
}
