import { LocalError } from '../jsonrpc/index.js';
import type { RequestId } from '../jsonrpc/index.js';
import type { Progress } from './options.js';

/**
 * One outbound request waiting for its answer. A class rather than a bag of closures: the
 * only per-request functions are the promise's own resolve and reject.
 */
/** What a {@link PendingRequest} is made of. */
export interface PendingRequestInit {
  id: RequestId;
  method: string;
  startedAt: number;
  timeoutMs: number;
  /** The hard maximum from `startedAt`, progress or not. */
  maxTotalMs: number;
  /** Progress re-arms the timeout (never past `maxTotalMs`). */
  resetOnProgress: boolean;
  onprogress: ((p: Progress) => void) | undefined;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

export class PendingRequest implements EventListenerObject {
  /** The session to tell when `signal` fires; set only when there is a signal. */
  owner: { cancelFromSignal(p: PendingRequest): void } | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  progressToken: string | number | undefined;
  done = false;
  /** What the session's observer returned for this request (see SessionObserver). */
  observed: unknown = undefined;
  private lastProgress = -Infinity;

  readonly id: RequestId;
  readonly method: string;
  readonly startedAt: number;
  readonly timeoutMs: number;
  readonly maxTotalMs: number;
  readonly resetOnProgress: boolean;
  readonly onprogress: ((p: Progress) => void) | undefined;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;

  constructor(init: PendingRequestInit) {
    this.id = init.id;
    this.method = init.method;
    this.startedAt = init.startedAt;
    this.timeoutMs = init.timeoutMs;
    this.maxTotalMs = init.maxTotalMs;
    this.resetOnProgress = init.resetOnProgress;
    this.onprogress = init.onprogress;
    this.resolve = init.resolve;
    this.reject = init.reject;
  }

  /** Arms (or re-arms) the timeout, never past the hard maximum. */
  arm(now: number, fire: (p: PendingRequest) => void): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const left = this.startedAt + this.maxTotalMs - now;
    const wait = Math.max(0, Math.min(this.timeoutMs, left));
    // Not unref'd: a caller awaiting an answer is real work, and an in-memory peer holds no socket.
    this.timer = setTimeout(fire, wait, this);
  }

  progress(p: Progress, now: number, fire: (p: PendingRequest) => void): void {
    if (this.done) return;
    if (!(p.progress > this.lastProgress)) return; // progress must increase; ignore the rest
    this.lastProgress = p.progress;
    if (this.resetOnProgress) this.arm(now, fire);
    if (this.onprogress) {
      try {
        this.onprogress(p);
      } catch {
        // A throwing progress callback must not break the session.
      }
    }
  }

  /** The AbortSignal listener: the request itself, so no closure per call. */
  handleEvent(): void {
    if (!this.done) this.owner?.cancelFromSignal(this);
  }

  settle(): void {
    this.done = true;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  timeoutError(): LocalError {
    return new LocalError(
      'RequestTimeout',
      `Request ${this.method} (id ${String(this.id)}) timed out after ${Date.now() - this.startedAt} ms`,
    );
  }
}
