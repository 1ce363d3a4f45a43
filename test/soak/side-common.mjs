// What the two side-by-side servers of versus-sdk-load.mjs share: the IPC side channel
// (memory after GC, notifications to publish, held tool calls to release), so that
// measuring never goes through the HTTP path being measured. Run with --expose-gc.

/** Heap in use after full collections, memory outside the heap (buffers), and RSS. */
async function settledMemory() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setImmediate(r));
  }
  const { heapUsed, rss, external } = process.memoryUsage();
  return { heap: heapUsed, rss, external };
}

/**
 * The state of the tools both servers register: `held` calls wait for a release, `running`
 * counts calls of `slow` and `held` that have not returned yet.
 */
export const tools = {
  running: 0,
  waiting: [],
  /** Waits until released over IPC (or the call is aborted). */
  hold(signal) {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      signal?.addEventListener('abort', resolve, { once: true });
    });
  },
};

/**
 * Tells the parent the port, then answers until it goes away: `mem` (after GC, with the
 * live session count from `sessions()`), `notify` (calls `publish()` n times, in slices of
 * 1,000 with a turn of the event loop between them so sockets can flush), `release`.
 */
export function ready(port, { publish, sessions }) {
  process.on('message', async (m) => {
    if (m?.type === 'mem') {
      const mem = await settledMemory();
      process.send({ seq: m.seq, ...mem, sessions: sessions(), running: tools.running });
    } else if (m?.type === 'notify') {
      for (let i = 0; i < m.n; i++) {
        publish();
        if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
      }
      process.send({ seq: m.seq });
    } else if (m?.type === 'release') {
      const w = tools.waiting.splice(0);
      for (const resolve of w) resolve();
      process.send({ seq: m.seq, released: w.length });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', port });
}

/** Sleeps `ms`, or less if `signal` aborts. */
export function pause(ms, signal) {
  return new Promise((resolve) => {
    const onAbort = () => (clearTimeout(t), resolve());
    const t = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
