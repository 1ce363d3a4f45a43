import type { Writable } from 'node:stream';

/**
 * Coalesces the messages of one tick into a single write, and reports backpressure. When
 * many answers are ready at once (64 calls in flight), one syscall carries them all.
 *
 * One exception, see {@link WriteQueue.push}'s `notBefore`: a response can be held back a
 * few milliseconds so it never reaches the reader in the same read as a progress
 * notification of its own request.
 */
export class WriteQueue {
  private lines: string[] = [];
  private scheduled = false;
  /** While set, nothing is written before this time (performance.now()). */
  private holdUntil = 0;
  private holdTimer: ReturnType<typeof setTimeout> | undefined;
  private waiters: Array<() => void> = [];
  /** True while the stream's buffer is over its high-water mark. */
  congested = false;

  constructor(
    private readonly out: Writable,
    private readonly onCongestion?: (congested: boolean) => void,
    private readonly write: (data: string) => boolean = (data) => out.write(data),
  ) {
    out.on('drain', () => {
      this.congested = false;
      this.onCongestion?.(false);
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    });
  }

  /**
   * Queues one serialized message (no newline). Resolves once it may be followed by more.
   * With `notBefore` (a performance.now() time), what is queued so far is written at once
   * and this line, with everything after it, waits until then.
   */
  push(line: string, notBefore?: number): Promise<void> | void {
    if (notBefore !== undefined && this.holdTimer === undefined) {
      const wait = notBefore - performance.now();
      if (wait > 0) {
        this.writeQueued();
        this.holdUntil = notBefore;
        this.holdTimer = setTimeout(this.release, Math.ceil(wait));
      }
    }
    this.lines.push(line);
    if (!this.scheduled && this.holdTimer === undefined) {
      this.scheduled = true;
      queueMicrotask(this.onTick);
    }
    if (this.congested) return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes everything queued now, held lines included (used on close). */
  readonly flush = (): void => {
    this.scheduled = false;
    if (this.holdTimer !== undefined) clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.writeQueued();
  };

  private readonly onTick = (): void => {
    this.scheduled = false;
    if (this.holdTimer === undefined) this.writeQueued();
  };

  private readonly release = (): void => {
    // Timers may fire a little early relative to performance.now(): wait out the rest.
    const left = this.holdUntil - performance.now();
    if (left > 0.05) {
      this.holdTimer = setTimeout(this.release, Math.ceil(left));
      return;
    }
    this.holdTimer = undefined;
    this.writeQueued();
  };

  private writeQueued(): void {
    if (this.lines.length === 0) return;
    const data = this.lines.length === 1 ? this.lines[0] + '\n' : this.lines.join('\n') + '\n';
    this.lines = [];
    if (this.out.destroyed || this.out.writableEnded) return;
    if (!this.write(data)) {
      this.congested = true;
      this.onCongestion?.(true);
    }
  }
}
