// Preloaded into every catalog benchmark server (node --expose-gc --import): on SIGUSR2 it
// collects garbage and writes the heap in use to stderr, so every peer is measured the same
// way without changing its code.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write(`catalog-heap ${process.memoryUsage().heapUsed}\n`);
});
