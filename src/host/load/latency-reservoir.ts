/**
 * Latency samples for `mcpkit load`, in bounded memory: a fixed-size uniform reservoir
 * (Vitter's algorithm R). The count and the maximum are exact; the percentiles come from
 * the reservoir, which holds every sample until it fills and a uniform random subset after.
 */
export class LatencyReservoir {
  private readonly samples: Float64Array;
  private seen = 0;
  private kept = 0;
  private maxMs = 0;
  private sumMs = 0;

  constructor(readonly capacity = 10_000) {
    if (!Number.isInteger(capacity) || capacity <= 0)
      throw new RangeError('capacity must be a positive integer');
    this.samples = new Float64Array(capacity);
  }

  /** Adds one latency in milliseconds. */
  add(ms: number): void {
    this.seen++;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    if (this.kept < this.capacity) {
      this.samples[this.kept++] = ms;
      return;
    }
    // Keep the new sample with probability capacity/seen, replacing a random one.
    const j = Math.floor(Math.random() * this.seen);
    if (j < this.capacity) this.samples[j] = ms;
  }

  /** Samples added (exact). */
  get count(): number {
    return this.seen;
  }

  /** Samples held for the percentiles (at most `capacity`). */
  get held(): number {
    return this.kept;
  }

  /** p50, p95, p99 (nearest rank over the sorted reservoir), exact max and mean, in ms. */
  summary(): { p50: number; p95: number; p99: number; max: number; mean: number } {
    if (this.kept === 0) return { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
    const sorted = this.samples.slice(0, this.kept).sort();
    const rank = (p: number): number =>
      sorted[Math.min(this.kept - 1, Math.ceil((p / 100) * this.kept) - 1)]!;
    return { p50: rank(50), p95: rank(95), p99: rank(99), max: this.maxMs, mean: this.sumMs / this.seen };
  }
}
