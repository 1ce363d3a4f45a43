import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLegacySessionStore } from './legacy-session-store.js';

test('MemoryLegacySessionStore keeps the contract of the LegacySessionStore seam', () => {
  const store = new MemoryLegacySessionStore();
  const limits = { idleMs: 60_000, maxSessions: 2 };
  assert.equal(store.shared, false);
  assert.equal(store.create('a', 'ada', '{"init":1}', limits), true);
  assert.equal(store.create('b', 'bob', '{"init":2}', limits), true);
  assert.equal(store.create('c', 'cy', '{"init":3}', limits), false, 'maxSessions holds');
  assert.equal(store.appendOp('a', '{"op":1}'), 2);
  assert.equal(store.appendOp('gone', '{"op":1}'), 0, 'an unknown session records nothing');
  assert.deepEqual(store.touch('a', 1, limits), {
    principal: 'ada',
    ops: ['{"op":1}'],
    firstOp: 1,
    opCount: 2,
  });
  assert.deepEqual(store.touch('a', 5, limits), { principal: 'ada', ops: [], firstOp: 2, opCount: 2 });
  // Idle past its time: gone on the next touch.
  assert.equal(store.touch('b', 0, { ...limits, idleMs: -1 }), undefined);
  store.delete('a');
  assert.equal(store.touch('a', 0, limits), undefined);
  assert.equal(store.size, 0);
  assert.equal(store.create('c', 'cy', '{"init":3}', limits), true, 'ended sessions free their places');
});
