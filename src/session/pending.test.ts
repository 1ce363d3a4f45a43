import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import type { Progress } from './options.js';
import { PendingRequest } from './pending.js';

interface Made {
  p: PendingRequest;
  fired: number[];
  seen: Progress[];
  fire: (p: PendingRequest) => void;
}

function make(
  opts: {
    timeoutMs?: number;
    maxTotalMs?: number;
    resetOnProgress?: boolean;
    onprogress?: ((p: Progress) => void) | null;
    startedAt?: number;
  } = {},
): Made {
  const fired: number[] = [];
  const seen: Progress[] = [];
  const onprogress =
    opts.onprogress === null ? undefined : (opts.onprogress ?? ((x: Progress) => seen.push(x)));
  const p = new PendingRequest({
    id: 4,
    method: 'tools/call',
    startedAt: opts.startedAt ?? Date.now(),
    timeoutMs: opts.timeoutMs ?? 100,
    maxTotalMs: opts.maxTotalMs ?? 1000,
    resetOnProgress: opts.resetOnProgress ?? false,
    onprogress,
    resolve: () => undefined,
    reject: () => undefined,
  });
  return { p, fired, seen, fire: () => fired.push(Date.now()) };
}

describe('PendingRequest: timers', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
  afterEach(() => mock.timers.reset());

  test('arm() fires after timeoutMs and passes the request to the callback', () => {
    const { p } = make({ timeoutMs: 100 });
    let got: PendingRequest | undefined;
    p.arm(Date.now(), (x) => (got = x));
    mock.timers.tick(99);
    assert.equal(got, undefined);
    mock.timers.tick(1);
    assert.equal(got, p);
  });

  test('re-arming replaces the old timer instead of adding one', () => {
    const m = make({ timeoutMs: 100 });
    m.p.arm(0, m.fire);
    mock.timers.tick(50);
    m.p.arm(Date.now(), m.fire);
    mock.timers.tick(50);
    assert.deepEqual(m.fired, [], 'the first timer still fired');
    mock.timers.tick(50);
    assert.deepEqual(m.fired, [150]);
    mock.timers.tick(1000);
    assert.equal(m.fired.length, 1);
  });

  test('never waits past startedAt + maxTotalMs', () => {
    const m = make({ timeoutMs: 100, maxTotalMs: 250, startedAt: 0 });
    mock.timers.tick(200);
    m.p.arm(Date.now(), m.fire);
    mock.timers.tick(49);
    assert.deepEqual(m.fired, []);
    mock.timers.tick(1);
    assert.deepEqual(m.fired, [250]);
  });

  test('a maximum already passed fires on the next turn (wait 0)', () => {
    const m = make({ timeoutMs: 100, maxTotalMs: 50, startedAt: 0 });
    mock.timers.tick(80);
    m.p.arm(Date.now(), m.fire);
    mock.timers.tick(0);
    assert.deepEqual(m.fired, [80]);
  });

  test('a maximum below the timeout wins from the start', () => {
    const m = make({ timeoutMs: 1000, maxTotalMs: 300, startedAt: 0 });
    m.p.arm(0, m.fire);
    mock.timers.tick(299);
    assert.deepEqual(m.fired, []);
    mock.timers.tick(1);
    assert.deepEqual(m.fired, [300]);
  });

  test('settle() marks it done and clears the timer', () => {
    const m = make({ timeoutMs: 100 });
    m.p.arm(0, m.fire);
    m.p.settle();
    assert.equal(m.p.done, true);
    assert.equal(m.p.timer, undefined);
    mock.timers.tick(1000);
    assert.deepEqual(m.fired, []);
  });

  test('progress resets the timer only with resetOnProgress', () => {
    const keep = make({ timeoutMs: 100, resetOnProgress: false, startedAt: 0 });
    const reset = make({ timeoutMs: 100, resetOnProgress: true, startedAt: 0 });
    keep.p.arm(0, keep.fire);
    reset.p.arm(0, reset.fire);
    mock.timers.tick(90);
    keep.p.progress({ progress: 1 }, Date.now(), keep.fire);
    reset.p.progress({ progress: 1 }, Date.now(), reset.fire);
    mock.timers.tick(10);
    assert.deepEqual(keep.fired, [100]);
    assert.deepEqual(reset.fired, []);
    mock.timers.tick(80);
    assert.deepEqual(reset.fired, [], 'fired before 100 ms after the progress');
    mock.timers.tick(10);
    assert.deepEqual(reset.fired, [190]);
  });

  test('non-increasing progress neither resets the timer nor reaches the callback', () => {
    const m = make({ timeoutMs: 100, resetOnProgress: true, startedAt: 0 });
    m.p.arm(0, m.fire);
    mock.timers.tick(50);
    m.p.progress({ progress: 5 }, Date.now(), m.fire); // re-armed to 150
    mock.timers.tick(60);
    m.p.progress({ progress: 5 }, Date.now(), m.fire); // equal: ignored
    m.p.progress({ progress: 4 }, Date.now(), m.fire); // lower: ignored
    m.p.progress({ progress: Number.NaN }, Date.now(), m.fire); // NaN: ignored
    mock.timers.tick(40);
    assert.deepEqual(m.fired, [150]);
    assert.deepEqual(m.seen, [{ progress: 5 }]);
  });
});

describe('PendingRequest: progress', () => {
  test('passes increasing updates through as they are', () => {
    const m = make();
    m.p.progress({ progress: 0 }, 0, m.fire);
    m.p.progress({ progress: 0.5, total: 1, message: 'half' }, 0, m.fire);
    m.p.progress({ progress: 0.25 }, 0, m.fire);
    m.p.progress({ progress: 1, total: 1 }, 0, m.fire);
    assert.deepEqual(m.seen, [
      { progress: 0 },
      { progress: 0.5, total: 1, message: 'half' },
      { progress: 1, total: 1 },
    ]);
  });

  test('negative first values are accepted (the floor is -Infinity)', () => {
    const m = make();
    m.p.progress({ progress: -10 }, 0, m.fire);
    assert.deepEqual(m.seen, [{ progress: -10 }]);
  });

  test('nothing reaches the callback once settled', () => {
    const m = make();
    m.p.settle();
    m.p.progress({ progress: 1 }, 0, m.fire);
    assert.deepEqual(m.seen, []);
  });

  test('a throwing callback is contained', () => {
    let calls = 0;
    const m = make({
      onprogress: () => {
        calls++;
        throw new Error('callback bug');
      },
    });
    assert.doesNotThrow(() => m.p.progress({ progress: 1 }, 0, m.fire));
    assert.doesNotThrow(() => m.p.progress({ progress: 2 }, 0, m.fire));
    assert.equal(calls, 2);
  });

  test('works without a callback', () => {
    const m = make({ onprogress: null });
    assert.doesNotThrow(() => m.p.progress({ progress: 1 }, 0, m.fire));
  });
});

describe('PendingRequest: abort listener and errors', () => {
  test('handleEvent() asks the owner to cancel, once the request is not done', () => {
    const m = make();
    const cancelled: PendingRequest[] = [];
    m.p.owner = { cancelFromSignal: (x) => cancelled.push(x) };
    m.p.handleEvent();
    assert.deepEqual(cancelled, [m.p]);
    m.p.settle();
    m.p.handleEvent();
    assert.equal(cancelled.length, 1);
  });

  test('handleEvent() without an owner does nothing', () => {
    const m = make();
    assert.doesNotThrow(() => m.p.handleEvent());
  });

  test('it can be an AbortSignal listener object', () => {
    const m = make();
    const cancelled: PendingRequest[] = [];
    m.p.owner = { cancelFromSignal: (x) => cancelled.push(x) };
    const ac = new AbortController();
    ac.signal.addEventListener('abort', m.p, { once: true });
    ac.abort();
    assert.deepEqual(cancelled, [m.p]);
  });

  test('timeoutError() is a LocalError RequestTimeout naming the method and id', () => {
    const m = make();
    const e = m.p.timeoutError();
    assert.ok(e instanceof LocalError);
    assert.equal(e.code, 'RequestTimeout');
    assert.match(e.message, /tools\/call/);
    assert.match(e.message, /id 4/);
  });

  // An awaited request is real work: over an in-memory transport nothing else holds the
  // event loop, and an unref'd timer would let the process exit in the middle of a call.
  test('the timer keeps the process alive while the request waits, and settle releases it', () => {
    const m = make({ timeoutMs: 60_000 });
    m.p.arm(Date.now(), m.fire);
    const t = m.p.timer as unknown as { hasRef(): boolean };
    assert.equal(t.hasRef(), true);
    m.p.settle();
    assert.equal(m.p.timer, undefined);
  });
});
