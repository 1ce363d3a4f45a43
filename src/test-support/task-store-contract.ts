/**
 * Test-only support: the behaviour every {@link TaskStore} must have, as a reusable suite.
 * A store (the in-memory default, a Redis store) runs it with
 * `taskStoreContract('name', () => makeStore())`.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskRecord, TaskStore } from '../server/task-store.js';
import { waitFor } from './waiting.js';

/** A fresh working record. */
export function taskRecord(over: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: crypto.randomUUID(),
    owner: 'p:alice',
    generation: 'modern',
    method: 'tools/call',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    ...over,
  };
}

/** Registers the contract tests for one store implementation. */
export function taskStoreContract(name: string, make: () => TaskStore | Promise<TaskStore>): void {
  const withStore = (title: string, fn: (store: TaskStore) => Promise<void>) =>
    test(`${name}: ${title}`, async () => {
      const store = await make();
      try {
        await fn(store);
      } finally {
        await store.close();
      }
    });

  withStore('create and get round-trip plain JSON', async (store) => {
    const r = taskRecord();
    assert.equal(await store.create(r, 10), true);
    assert.deepEqual(await store.get(r.taskId), r);
    assert.equal(await store.get('missing'), undefined);
  });

  withStore('create refuses past the per-owner cap of live tasks, counting only live ones', async (store) => {
    const a = taskRecord();
    assert.equal(await store.create(a, 2), true);
    assert.equal(await store.create(taskRecord(), 2), true);
    assert.equal(await store.create(taskRecord(), 2), false);
    assert.equal(await store.create(taskRecord({ owner: 'p:bob' }), 2), true);
    await store.update(a.taskId, { status: 'completed', result: { content: [] } });
    assert.equal(await store.create(taskRecord(), 2), true);
  });

  withStore(
    'questions make the task input_required; answers only for asked keys; the last answer resumes it',
    async (store) => {
      const r = taskRecord();
      await store.create(r, 10);
      const q = { method: 'elicitation/create', params: { message: 'x' } };
      let now = await store.update(r.taskId, { ask: { k1: q, k2: q } });
      assert.equal(now!.status, 'input_required');
      now = await store.update(r.taskId, {
        answer: { k1: { action: 'accept' }, nope: { action: 'accept' } },
      });
      assert.equal(now!.status, 'input_required');
      assert.deepEqual(Object.keys(now!.inputRequests!), ['k2']);
      assert.deepEqual(now!.inputResponses, { k1: { action: 'accept' } });
      now = await store.update(r.taskId, { answer: { k2: { action: 'decline' } } });
      assert.equal(now!.status, 'working');
      assert.equal(now!.inputRequests, undefined);
      now = await store.update(r.taskId, { consume: ['k1', 'k2'] });
      assert.equal(now!.inputResponses, undefined);
    },
  );

  withStore('a terminal task never changes again', async (store) => {
    const r = taskRecord();
    await store.create(r, 10);
    const done = await store.update(r.taskId, { status: 'cancelled', statusMessage: 'stop' });
    const after = await store.update(r.taskId, { status: 'completed', result: { content: [] } });
    assert.deepEqual(after, done);
    assert.equal((await store.get(r.taskId))!.status, 'cancelled');
  });

  withStore('expired tasks are gone', async (store) => {
    const r = taskRecord({ createdAt: Date.now() - 10_000, ttlMs: 5_000 });
    await store.create(r, 10);
    assert.equal(await store.get(r.taskId), undefined);
    assert.equal(await store.update(r.taskId, { statusMessage: 'x' }), undefined);
    const forever = taskRecord({ createdAt: 0, ttlMs: null });
    await store.create(forever, 10);
    assert.equal((await store.get(forever.taskId))!.taskId, forever.taskId);
  });

  withStore('list pages through one owner’s tasks; a bad cursor is undefined', async (store) => {
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = taskRecord({ createdAt: Date.now() + i });
      mine.push(r.taskId);
      await store.create(r, 10);
    }
    await store.create(taskRecord({ owner: 'p:bob' }), 10);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await store.list('p:alice', cursor, 2))!;
      assert.ok(page.tasks.length <= 2);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual(seen, [...mine].reverse());
    assert.equal(await store.list('p:alice', 'bogus', 2), undefined);
  });

  withStore('watch reports every change until unsubscribed, and deletion', async (store) => {
    const r = taskRecord();
    await store.create(r, 10);
    const seen: Array<string | undefined> = [];
    const stop = store.watch(r.taskId, (t) => seen.push(t?.statusMessage ?? t?.status));
    await store.update(r.taskId, { statusMessage: 'one' });
    await store.update(r.taskId, { statusMessage: 'two' });
    await waitFor(() => seen.length >= 2);
    await store.delete(r.taskId);
    await waitFor(() => seen.length >= 3);
    stop();
    assert.deepEqual(seen, ['one', 'two', undefined]);
  });
}
