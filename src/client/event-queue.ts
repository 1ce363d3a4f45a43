/**
 * A single-consumer async queue of change events. Identical events still waiting are
 * merged (a change notification only says "refetch"), so a slow consumer holds at most
 * one event per kind and URI.
 */
import type { ChangeEvent } from './types.js';

/** Most distinct events kept for a consumer that does not read (the oldest are dropped). */
const MAX_PENDING = 1024;

export class EventQueue implements AsyncIterator<ChangeEvent, undefined> {
  private readonly items: ChangeEvent[] = [];
  private waiter: ((r: IteratorResult<ChangeEvent, undefined>) => void) | undefined;
  private failWaiter: ((e: unknown) => void) | undefined;
  private ended = false;
  private error: unknown;

  constructor(private readonly onReturn: () => Promise<void>) {}

  get isEnded(): boolean {
    return this.ended;
  }

  push(event: ChangeEvent): void {
    if (this.ended) return;
    const w = this.waiter;
    if (w) {
      this.waiter = this.failWaiter = undefined;
      w({ value: event, done: false });
      return;
    }
    if (this.items.some((e) => sameChange(e, event))) return;
    if (this.items.length >= MAX_PENDING) this.items.shift();
    this.items.push(event);
  }

  /** Ends the stream: queued events are still delivered, then `done` (or `error`). */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    if (this.items.length > 0) return;
    const w = this.waiter;
    const f = this.failWaiter;
    this.waiter = this.failWaiter = undefined;
    if (!w) return;
    if (error !== undefined) {
      this.error = undefined; // reported to the waiting consumer; later calls see done
      f?.(error);
    } else {
      w({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<ChangeEvent, undefined>> {
    const item = this.items.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.ended) {
      if (this.error !== undefined) {
        const e = this.error;
        this.error = undefined; // report once, then plain done
        return Promise.reject(e);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    if (this.waiter)
      return Promise.reject(
        new Error('A subscription has a single consumer; await the previous next() first'),
      );
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  /** `break` in `for await`: closes the subscription. */
  async return(): Promise<IteratorResult<ChangeEvent, undefined>> {
    await this.onReturn();
    this.items.length = 0;
    return { value: undefined, done: true };
  }
}

/** Two events name the same change (a list, or one resource's URI). */
function sameChange(a: ChangeEvent, b: ChangeEvent): boolean {
  return a.kind === b.kind && (a.kind !== 'resource' || a.uri === (b as { uri: string }).uri);
}
