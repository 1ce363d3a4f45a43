/**
 * How tests wait: on a condition, on a promise, or on the event loop draining. The one home of
 * these helpers (they used to be written once per area). Waits on time itself (`delay`) are for
 * the few tests whose subject is time, or for a handler that must still be busy; a test that
 * waits for something to happen uses `waitFor` or an event, never a fixed sleep.
 *
 * Limits are generous on purpose: `waitFor` returns as soon as its condition holds, so a long
 * limit costs nothing when the test passes and keeps a loaded CI machine from failing it.
 */

/** The default limit of `waitFor`: long enough for a loaded 2-core machine. */
export const WAIT_MS = 10_000;

/** Resolves after `ms` of wall-clock time. */
export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `check` (which may be async) until it returns a truthy value, and returns that; fails
 * with `what` after `timeoutMs`. (Truthy, so `() => list.length` waits for a first item.)
 */
export async function waitFor<T>(
  check: () => T | undefined | null | false | 0 | '' | Promise<T | undefined | null | false | 0 | ''>,
  timeoutMs = WAIT_MS,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`waitFor: ${what} did not hold within ${timeoutMs} ms`);
    await delay(10);
  }
}

/** Rejects when `promise` does not settle within `ms`; the timer never outlives it. */
export async function within<T>(promise: Promise<T>, ms: number, what = 'the promise'): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One turn of the event loop (a `setImmediate`): queued I/O callbacks and microtasks run. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Lets every queued microtask and immediate run (not affected by mocked `setTimeout`). */
export async function settle(turns = 4): Promise<void> {
  for (let i = 0; i < turns; i++) await turn();
}

/** A promise with its resolve and reject exposed. */
export function deferred<T = unknown>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
