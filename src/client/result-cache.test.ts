import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TTL_MS, ResultCache, freshnessOf } from './result-cache.js';

function clock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const A = { namespace: 'srv', authContext: 'alice' };
const B = { namespace: 'srv', authContext: 'bob' };
const OTHER = { namespace: 'other', authContext: 'alice' };

describe('ResultCache', () => {
  test('serves a result while fresh, then forgets it', () => {
    const c = clock();
    const cache = new ResultCache({ now: c.now });
    assert.equal(cache.set(A, 'tools/list', {}, { tools: [], ttlMs: 100 }), true);
    assert.deepEqual(cache.get(A, 'tools/list', {}), { tools: [], ttlMs: 100 });
    c.advance(99);
    assert.ok(cache.get(A, 'tools/list', {}));
    c.advance(1);
    assert.equal(cache.get(A, 'tools/list', {}), undefined);
    assert.equal(cache.size, 0);
  });

  test('ttlMs absent, zero, negative or not a number: not cached', () => {
    const cache = new ResultCache();
    for (const ttlMs of [undefined, 0, -5, NaN, Infinity, '100']) {
      assert.equal(cache.set(A, 'm', {}, { ttlMs }), false, String(ttlMs));
    }
    assert.equal(freshnessOf({ ttlMs: 1e15 }), MAX_TTL_MS);
  });

  test('the key is method plus params, never _meta', () => {
    const cache = new ResultCache();
    cache.set(A, 'resources/read', { uri: 'x', _meta: { a: 1 } }, { contents: [], ttlMs: 1000 });
    assert.ok(cache.get(A, 'resources/read', { uri: 'x' }));
    assert.ok(cache.get(A, 'resources/read', { _meta: { b: 2 }, uri: 'x' }));
    assert.equal(cache.get(A, 'resources/read', { uri: 'y' }), undefined);
    assert.equal(cache.get(A, 'tools/list', { uri: 'x' }), undefined);
    cache.set(A, 'tools/list', { cursor: 'p2' }, { tools: [1], ttlMs: 1000 });
    assert.equal(cache.get(A, 'tools/list', {}), undefined);
    assert.equal(cache.get(A, 'tools/list', undefined), undefined);
  });

  test('public results are shared within a namespace; private ones stay in their auth context', () => {
    const cache = new ResultCache();
    cache.set(A, 'tools/list', {}, { tools: ['pub'], ttlMs: 1000, cacheScope: 'public' });
    cache.set(A, 'resources/read', { uri: 'x' }, { contents: ['mine'], ttlMs: 1000, cacheScope: 'private' });
    cache.set(A, 'prompts/list', {}, { prompts: [], ttlMs: 1000 }); // absent scope: private
    assert.ok(cache.get(B, 'tools/list', {}));
    assert.equal(cache.get(B, 'resources/read', { uri: 'x' }), undefined);
    assert.equal(cache.get(B, 'prompts/list', {}), undefined);
    assert.equal(cache.get(OTHER, 'tools/list', {}), undefined);
  });

  test('invalidation by method, by resource, and clear', () => {
    const cache = new ResultCache();
    cache.set(A, 'tools/list', {}, { ttlMs: 1000 });
    cache.set(A, 'tools/list', { cursor: '2' }, { ttlMs: 1000 });
    cache.set(A, 'resources/read', { uri: 'file:///d/a.txt' }, { ttlMs: 1000 });
    cache.set(A, 'resources/read', { uri: 'file:///e' }, { ttlMs: 1000 });
    cache.set(OTHER, 'tools/list', {}, { ttlMs: 1000 });
    cache.invalidateMethods('srv', ['tools/list']);
    assert.equal(cache.get(A, 'tools/list', {}), undefined);
    assert.equal(cache.get(A, 'tools/list', { cursor: '2' }), undefined);
    assert.ok(cache.get(OTHER, 'tools/list', {}));
    cache.invalidateResource('srv', 'file:///d/');
    assert.equal(cache.get(A, 'resources/read', { uri: 'file:///d/a.txt' }), undefined);
    assert.ok(cache.get(A, 'resources/read', { uri: 'file:///e' }));
    cache.clear('srv');
    assert.equal(cache.size, 1);
    cache.clear();
    assert.equal(cache.size, 0);
  });

  test('bounded: the oldest entries go first; values are copies', () => {
    const cache = new ResultCache({ maxEntries: 2 });
    const v = { n: [1], ttlMs: 1000 };
    cache.set(A, 'a', {}, v);
    cache.set(A, 'b', {}, { ttlMs: 1000 });
    cache.set(A, 'c', {}, { ttlMs: 1000 });
    assert.equal(cache.size, 2);
    assert.equal(cache.get(A, 'a', {}), undefined);
    v.n.push(2);
    const got = cache.get(A, 'b', {})!;
    (got as { x?: number }).x = 1;
    assert.equal((cache.get(A, 'b', {}) as { x?: number }).x, undefined);
  });
});
