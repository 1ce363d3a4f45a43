import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatencyReservoir } from './latency-reservoir.js';

test('percentiles by nearest rank while every sample fits; count, max and mean exact', () => {
  const r = new LatencyReservoir(1000);
  for (let i = 100; i >= 1; i--) r.add(i);
  assert.deepEqual(r.summary(), { p50: 50, p95: 95, p99: 99, max: 100, mean: 50.5 });
  assert.equal(r.count, 100);
  assert.equal(r.held, 100);
});

test('memory stays bounded: past capacity it holds a uniform subset, count and max stay exact', () => {
  const r = new LatencyReservoir(2000);
  for (let i = 1; i <= 200_000; i++) r.add(i % 1000);
  r.add(5000);
  assert.equal(r.held, 2000);
  assert.equal(r.count, 200_001);
  const s = r.summary();
  assert.equal(s.max, 5000);
  // A uniform sample of 0..999: the median lands near 500 (loose bounds, no flakes).
  assert.ok(s.p50 > 350 && s.p50 < 650, String(s.p50));
  assert.ok(s.p99 > 900, String(s.p99));
});

test('an empty reservoir reports zeros; a bad capacity is refused', () => {
  assert.deepEqual(new LatencyReservoir().summary(), { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 });
  assert.throws(() => new LatencyReservoir(0), RangeError);
});
