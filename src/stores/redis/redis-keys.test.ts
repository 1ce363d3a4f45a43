/**
 * The Redis key layout is Redis Cluster compatible: the keys one script or command touches
 * together share a slot. Checked twice: by computing slots as Redis Cluster does, and by
 * running the session and task stores against a real redis-server in cluster mode (one node
 * holding every slot), which refuses any multi-key operation that spans slots (CROSSSLOT).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyTaskPatch } from '../../server/task-store.js';
import type { TaskRecord } from '../../server/task-store.js';
import { startRedis } from '../../test-support/cluster.js';
import { missing } from '../../test-support/services.js';
import { taskRecord } from '../../test-support/task-store-contract.js';
import { WAIT_MS, waitFor } from '../../test-support/waiting.js';
import { connectRedisStores } from './connect-redis.js';
import type { RedisStores } from './connect-redis.js';
import { hashSlotOf, hashTagOf, redisKeys } from './redis-keys.js';

describe('Redis key layout: slots', () => {
  test('hash tags and slots are computed as Redis Cluster does', () => {
    // Values from the Redis Cluster specification.
    assert.equal(hashSlotOf('123456789'), 0x31c3 % 16384);
    assert.equal(hashTagOf('{user1000}.following'), 'user1000');
    assert.equal(hashTagOf('foo{}{bar}'), 'foo{}{bar}');
    assert.equal(hashTagOf('foo{{bar}}zap'), '{bar');
    assert.equal(hashSlotOf('{user1000}.following'), hashSlotOf('{user1000}.followers'));
  });

  test("a session's keys share a slot, an owner's task indexes share a slot, and different ones spread", () => {
    for (const prefix of ['mcp:', 'weather:', '']) {
      const k = redisKeys(prefix);
      const sessionSlots = new Set<number>();
      const ownerSlots = new Set<number>();
      for (let i = 0; i < 50; i++) {
        const id = `${i.toString(16).padStart(4, '0')}c0ffee`;
        assert.equal(hashSlotOf(k.session(id)), hashSlotOf(k.sessionOps(id)), id);
        assert.equal(hashSlotOf(k.session(id)), hashSlotOf(k.sessionHolders(id)), id);
        sessionSlots.add(hashSlotOf(k.session(id)));
        const owner = i % 2 ? `p:user-${i}` : `s:${id}`;
        assert.equal(hashSlotOf(k.ownerLive(owner)), hashSlotOf(k.ownerIndex(owner)), owner);
        ownerSlots.add(hashSlotOf(k.ownerLive(owner)));
      }
      // Sessions and owners are spread over the cluster, not piled on one slot.
      assert.ok(sessionSlots.size > 40, `sessions on ${sessionSlots.size} slots`);
      assert.ok(ownerSlots.size > 40, `owners on ${ownerSlots.size} slots`);
    }
    // An owner string with braces still keeps its two keys together.
    const k = redisKeys('mcp:');
    assert.equal(hashSlotOf(k.ownerLive('p:a}b{c')), hashSlotOf(k.ownerIndex('p:a}b{c')));
  });
});

/** redis-server in cluster mode, owning every slot, on a free loopback port. */
async function startClusterModeRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-redis-cluster-'));
  const redis = await startRedis([
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    join(dir, 'nodes.conf'),
    '--dir',
    dir,
  ]);
  const port = redis.port;
  const stop = async (): Promise<void> => {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { Redis } = await import('ioredis');
    const admin = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
    await admin.connect();
    await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    // The node says the cluster is ok once it has taken its slots in.
    await waitFor(
      async () => String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok'),
      2 * WAIT_MS,
      'cluster_state:ok',
    );
    admin.disconnect();
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

describe(
  'Redis key layout: the stores on redis-server in cluster mode (CROSSSLOT is refused there)',
  { skip: missing('redis') },
  () => {
    let redis: { url: string; stop(): Promise<void> };
    let stores: RedisStores;
    before(async () => {
      redis = await startClusterModeRedis();
      stores = await connectRedisStores({ url: redis.url, keyPrefix: 'kl:' });
    });
    after(async () => {
      await stores?.close();
      await redis?.stop();
    });

    test('legacy sessions: create under the cap, touch, append, restore, delete', async () => {
      const s = stores.sessions;
      const limits = { idleMs: 60_000, maxSessions: 2 };
      assert.equal(await s.create('aa01', 'ada', '{"init":1}', limits), true);
      assert.equal(await s.create('aa02', 'ada', '{"init":2}', limits), true);
      assert.equal(await s.create('aa03', 'ada', '{"init":3}', limits), false, 'the cap holds');
      assert.equal(await s.appendOp('aa01', '{"op":1}'), 2);
      const r = await s.touch('aa01', 1, limits);
      assert.deepEqual(r, { principal: 'ada', ops: ['{"op":1}'], firstOp: 1, opCount: 2 });
      await s.delete('aa02');
      assert.equal(await s.touch('aa02', 0, limits), undefined);
      assert.equal(
        await s.create('aa03', 'ada', '{"init":3}', limits),
        true,
        'a deleted session frees its place',
      );
      await s.delete('aa01');
      assert.equal(await s.restore!('aa01', 'ada', ['{"init":1}', '{"op":1}'], limits), true);
      assert.equal((await s.touch('aa01', 0, limits))?.opCount, 2);
    });

    test('legacy sessions: a touch with a lease makes its node a holder until the lease runs out', async () => {
      const s = stores.sessions;
      const limits = { idleMs: 60_000, maxSessions: 10 };
      assert.equal(await s.create('bb01', 'ada', '{"init":1}', limits), true);
      assert.deepEqual(await s.holders!('bb01', 'w'), { nodes: [], ms: 0 }, 'no lease yet');
      await s.touch('bb01', 1, limits, { node: 'n1', ms: 60_000 });
      await s.touch('bb01', 1, limits, { node: 'w', ms: 60_000 });
      await s.touch('bb01', 1, limits);
      const held = await s.holders!('bb01', 'w');
      assert.deepEqual(held.nodes, ['n1'], 'the asking node is left out; a touch without a lease adds none');
      assert.ok(held.ms > 50_000 && held.ms <= 60_001, `until the lease runs out: ${held.ms} ms`);
      // A deleted session keeps its leases: their nodes must still hear of the end.
      await s.delete('bb01');
      assert.deepEqual((await s.holders!('bb01', 'w')).nodes, ['n1']);
      assert.equal(await s.touch('bb01', 0, limits, { node: 'n2', ms: 60_000 }), undefined);
      assert.deepEqual((await s.holders!('bb01', 'w')).nodes, ['n1'], 'no lease on a session that is gone');
      // A lease that ran out is no longer a holder.
      assert.equal(await s.create('bb02', 'ada', '{"init":1}', limits), true);
      await s.touch('bb02', 1, limits, { node: 'n1', ms: 1 });
      await waitFor(
        async () => (await s.holders!('bb02', 'w')).nodes.length === 0,
        WAIT_MS,
        'the lease ran out',
      );
    });

    test('tasks: create under the owner cap, update, list, delete', async () => {
      const t = stores.taskStore;
      const now = Date.now();
      const record = (taskId: string): TaskRecord =>
        taskRecord({ taskId, owner: 'p:ada', createdAt: now, lastUpdatedAt: now });
      assert.equal(await t.create(record('t1'), 2), true);
      assert.equal(await t.create(record('t2'), 2), true);
      assert.equal(await t.create(record('t3'), 2), false, 'the owner cap holds');
      const done = await t.update('t1', { status: 'completed', result: { content: [] } });
      assert.equal(done?.status, 'completed');
      assert.deepEqual(
        done,
        applyTaskPatch(record('t1'), { status: 'completed', result: { content: [] } }, done!.lastUpdatedAt),
      );
      assert.equal(await t.create(record('t3'), 2), true, 'an ended task frees its place');
      const page = await t.list('p:ada', undefined, 10);
      assert.deepEqual(page?.tasks.map((x) => x.taskId).sort(), ['t1', 't2', 't3']);
      await t.delete('t2');
      assert.equal(await t.get('t2'), undefined);
      assert.equal((await t.list('p:ada', undefined, 10))?.tasks.length, 2);
    });
  },
);
