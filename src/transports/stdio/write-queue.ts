import type { Writable } from 'node:stream';

/**
 * Coalesces the messages of one tick into a single write, and reports backpressure. When
 * many answers are ready at once (64 calls in flight), one syscall carries them all.
 */
export class WriteQueue {
  private lines: string[] = [];
  private scheduled = false;
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

  /** Queues one serialized message (no newline). Resolves once it may be followed by more. */
  push(line: string): Promise<void> | void {
    this.lines.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.onTick);
    }
    if (this.congested) return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Writes everything queued now (used on close). */
  readonly flush = (): void => {
    this.scheduled = false;
    this.writeQueued();
  };

  private readonly onTick = (): void => {
    this.scheduled = false;
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
