/**
 * The task operations of {@link McpSessionObject}: one instance per task (`task:<id>`) holds
 * its record, one per owner (`tasks-of:<owner>`) holds the owner's index and the live count
 * that `maxLive` caps. Each instance runs its operations one at a time, so a read, a patch
 * and a write need no compare and set.
 */
import { applyTaskPatch, isExpired } from '../../server/task-store.js';
import type { TaskRecord } from '../../server/task-store.js';
import type { DurableObjectStorageLike, TaskStoreOp } from './durable-object-types.js';

/** The owner's tasks: live ones by expiry (null: none), all by creation time. */
interface OwnerIndex {
  live: Record<string, number | null>;
  all: Record<string, number>;
}

/** Runs one task or owner operation against the instance's storage; its JSON answer. */
export async function taskOp(storage: DurableObjectStorageLike, body: TaskStoreOp): Promise<unknown> {
  switch (body.op) {
    case 'task.create': {
      if (await storage.get('task')) return false;
      await storage.put('task', body.record);
      return true;
    }
    case 'task.get':
      return (await live(storage)) ?? null;
    case 'task.update': {
      const current = await live(storage);
      if (!current) return null;
      const next = applyTaskPatch(current, body.patch, Date.now());
      if (next !== current) await storage.put('task', next);
      return { record: next, changed: next !== current };
    }
    case 'task.delete': {
      const r = await storage.get<TaskRecord>('task');
      await storage.deleteAll();
      return r ? r.owner : null;
    }
    case 'owner.reserve': {
      const index = await ownerIndex(storage);
      const now = Date.now();
      let count = 0;
      for (const [id, expiry] of Object.entries(index.live)) {
        if (expiry !== null && expiry <= now) delete index.live[id];
        else count++;
      }
      if (count >= body.maxLive) return false;
      index.live[body.taskId] = body.expiry;
      index.all[body.taskId] = body.createdAt;
      await storage.put('index', index);
      return true;
    }
    case 'owner.end': {
      const index = await ownerIndex(storage);
      if (!Object.hasOwn(index.live, body.taskId)) return true;
      delete index.live[body.taskId];
      await storage.put('index', index);
      return true;
    }
    case 'owner.remove': {
      const index = await ownerIndex(storage);
      for (const id of body.taskIds) {
        delete index.live[id];
        delete index.all[id];
      }
      if (Object.keys(index.all).length === 0) await storage.deleteAll();
      else await storage.put('index', index);
      return true;
    }
    case 'owner.list':
      return Object.keys((await ownerIndex(storage)).all);
  }
}

/** The instance's task, unless it has expired (then it is dropped). */
async function live(storage: DurableObjectStorageLike): Promise<TaskRecord | undefined> {
  const r = await storage.get<TaskRecord>('task');
  if (!r) return undefined;
  if (isExpired(r, Date.now())) {
    await storage.deleteAll();
    return undefined;
  }
  return r;
}

async function ownerIndex(storage: DurableObjectStorageLike): Promise<OwnerIndex> {
  return (await storage.get<OwnerIndex>('index')) ?? { live: {}, all: {} };
}
