/**
 * The few Cloudflare Durable Object shapes the store uses, written out so the package needs no
 * Workers types and no `cloudflare:` import (the store also loads, and is tested, in Node).
 */
import type { TaskPatch, TaskRecord } from '../../server/task-store.js';

/** A Durable Object namespace binding (`env.MCP_SESSIONS`): names to stubs. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): DurableObjectStubLike;
}

/** A stub: requests to one Durable Object instance. */
export interface DurableObjectStubLike {
  fetch(
    input: string,
    init?: { method?: string; body?: string; headers?: Record<string, string> },
  ): Promise<Response>;
}

/** The storage of one instance (`state.storage`): transactional, ordered by the object's input gate. */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  deleteAll(): Promise<void>;
}

/** What the runtime hands the object's constructor. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}

/** One operation sent to an instance, as the JSON body of a POST. */
export type StoreOp =
  | { op: 'session.create'; principal: string; initialize: string; idleMs: number }
  | { op: 'session.touch'; knownOps: number; idleMs: number; lease?: { node: string; ms: number } }
  | { op: 'session.holders'; except: string }
  | { op: 'session.append'; text: string }
  | { op: 'session.delete' }
  | { op: 'events.append'; events: Array<[seq: number, json: string]>; max: number }
  | { op: 'events.replay'; after: number }
  | { op: 'events.drop' }
  | { op: 'meta.key' }
  | TaskStoreOp;

/** The task operations: on a task's instance (`task.*`) or its owner's (`owner.*`). */
export type TaskStoreOp =
  | { op: 'task.create'; record: TaskRecord }
  | { op: 'task.get' }
  | { op: 'task.update'; patch: TaskPatch }
  | { op: 'task.delete' }
  | { op: 'owner.reserve'; taskId: string; expiry: number | null; createdAt: number; maxLive: number }
  | { op: 'owner.end'; taskId: string }
  | { op: 'owner.remove'; taskIds: string[] }
  | { op: 'owner.list' };

/** Sends one operation to the instance named `name` and returns its JSON answer. */
export async function send<T>(ns: DurableObjectNamespaceLike, name: string, body: StoreOp): Promise<T> {
  const stub = ns.get(ns.idFromName(name) as never);
  const res = await stub.fetch('https://mcpkit.durable-object/op', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`Durable Object ${name} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
