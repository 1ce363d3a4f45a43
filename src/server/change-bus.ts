import type { ChangeEvent } from '../protocol/change-event.js';

export type { ChangeEvent };

/**
 * Fans change events out to every node that serves clients. The default is in-process;
 * a deployment with several nodes plugs in a shared one (Redis pub/sub, for instance).
 */
export interface ChangeBus {
  publish(event: ChangeEvent): void;
  /** Returns a function that stops the subscription. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

/** The in-process {@link ChangeBus}. */
export class LocalChangeBus implements ChangeBus {
  private readonly listeners = new Set<(event: ChangeEvent) => void>();

  publish(event: ChangeEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // One failing listener must not starve the others.
      }
    }
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
