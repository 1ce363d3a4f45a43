// What every HTTP benchmark server shares: reading a body, and the IPC side channel to
// bench/http.mjs (ports once listening; on request, the heap after a forced GC or the CPU
// time used so far), so that
// measuring never goes through the HTTP path being measured. Run with --expose-gc.

/** Reads a whole request body as a string. */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()),
    );
    req.on('error', reject);
  });
}

/** Heap in use after full collections (needs --expose-gc). */
async function settledHeap() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

/** Tells the parent the ports, then answers `heap` and `cpu` requests until it goes away. */
export function ready(ports) {
  process.on('message', async (m) => {
    if (m?.type === 'heap') process.send({ type: 'heap', seq: m.seq, value: await settledHeap() });
    if (m?.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ type: 'cpu', seq: m.seq, value: user + system });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', ...ports });
}
