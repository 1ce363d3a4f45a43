import type { Redis } from 'ioredis';
import { applyTaskPatch, isExpired, isTerminal } from '../../server/task-store.js';
import type { TaskPage, TaskPatch, TaskRecord, TaskStore } from '../../server/task-store.js';
import type { RedisChannels } from './redis-bus.js';
import { guarded } from './redis-errors.js';

// KEYS[2]: the owner's live set. ARGV: maxLive, task key prefix. Counts the owner's live tasks
// (pruning ids whose record expired or ended), atomically with the create that follows.
const COUNT_LIVE = `
local n = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local raw = redis.call('GET', ARGV[2] .. id)
  local live = false
  if raw then
    local s = cjson.decode(raw).status
    live = s ~= 'completed' and s ~= 'failed' and s ~= 'cancelled'
  end
  if live then n = n + 1 else redis.call('SREM', KEYS[2], id) end
end
return n`;

// KEYS: task, owner's live set, owner's index. ARGV: maxLive, key prefix, json, ttl ms ('' for none), id, createdAt.
const CREATE = `
${COUNT_LIVE.replace('return n', '')}
if n >= tonumber(ARGV[1]) then return 0 end
if ARGV[4] == '' then redis.call('SET', KEYS[1], ARGV[3], 'NX')
elseif redis.call('SET', KEYS[1], ARGV[3], 'NX', 'PX', ARGV[4]) == false then return -1 end
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5])
return 1`;

// KEYS: task. ARGV: the JSON read, the JSON to write. Compare and set, keeping the TTL.
const SWAP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

type Scripted = Redis & {
  mcpTaskCreate(k1: string, k2: string, k3: string, ...args: (string | number)[]): Promise<number>;
  mcpTaskSwap(k1: string, ...args: string[]): Promise<number>;
};

/**
 * Tasks in Redis, for servers on many nodes: a task created on one node is polled,
 * answered and cancelled through any other. A record is one JSON string with the task's
 * TTL; updates are compare-and-set with {@link applyTaskPatch}, and every change is
 * published so the node running the handler hears answers and cancellation.
 */
export class RedisTaskStore implements TaskStore {
  private readonly redis: Scripted;

  constructor(
    redis: Redis,
    private readonly channels: RedisChannels,
    private readonly prefix: string,
  ) {
    redis.defineCommand('mcpTaskCreate', { numberOfKeys: 3, lua: CREATE });
    redis.defineCommand('mcpTaskSwap', { numberOfKeys: 1, lua: SWAP });
    this.redis = redis as Scripted;
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private ownerKeys(owner: string): [string, string] {
    return [`${this.prefix}tasks:live:${owner}`, `${this.prefix}tasks:by:${owner}`];
  }

  async create(record: TaskRecord, maxLive: number): Promise<boolean> {
    const ttl =
      record.ttlMs === null ? '' : String(Math.max(1, record.createdAt + record.ttlMs - Date.now()));
    const [live, index] = this.ownerKeys(record.owner);
    const r = await guarded(
      this.redis.mcpTaskCreate(
        this.key(record.taskId),
        live,
        index,
        maxLive,
        `${this.prefix}task:`,
        JSON.stringify(record),
        ttl,
        record.taskId,
        record.createdAt,
      ),
    );
    return r === 1;
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
        this.redis.srem(this.ownerKeys(next.owner)[0], taskId).catch(() => undefined);
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
    await guarded(this.redis.multi().del(key).srem(live, taskId).zrem(index, taskId).publish(key, '').exec());
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const [, index] = this.ownerKeys(owner);
    const ids = await guarded(this.redis.zrevrange(index, 0, -1));
    if (ids.length === 0) return cursor === undefined ? { tasks: [] } : undefined;
    const raws = await guarded(this.redis.mget(...ids.map((id) => this.key(id))));
    const now = Date.now();
    const mine: TaskRecord[] = [];
    const gone: string[] = [];
    raws.forEach((raw, i) => {
      const r = raw === null ? undefined : (JSON.parse(raw) as TaskRecord);
      if (r && !isExpired(r, now)) mine.push(r);
      else gone.push(ids[i]!);
    });
    if (gone.length > 0) this.redis.zrem(index, ...gone).catch(() => undefined);
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
