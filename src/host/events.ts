/** A small typed event emitter (no `node:events`, so the host core runs anywhere). */
import type { AuditEntry } from './policy/audit.js';
import type { CatalogChange } from './catalog/catalog.js';
import type { ServerHealth } from './supervision/server-connection.js';

/** A log message a server sent (`notifications/message`). */
export interface ServerLog {
  server: string;
  level: string;
  logger: string | undefined;
  data: unknown;
}

/** Everything a UI can listen to. */
export interface HostEvents {
  /** A server's health changed (state, restarts, last error). */
  health: ServerHealth;
  /** Tools, resources or prompts of a server changed; `problems` lists what was held back and why. */
  catalog: CatalogChange;
  /** One audit entry (also sent to the configured sinks). */
  audit: AuditEntry;
  /** A log message from a server (floods are throttled; see `dropped`). */
  log: ServerLog;
  /** Something worth telling the user that is not a server's fault: a refused start, a dropped flood. */
  notice: { server: string | undefined; message: string };
}

type Listener<T> = (value: T) => void;

/**
 * Listeners by event name. A listener that throws is reported through `onerror` and
 * never breaks the emitter or the other listeners.
 */
export class Emitter<E extends object> {
  private readonly listeners = new Map<keyof E, Set<Listener<never>>>();
  onerror: ((error: unknown) => void) | undefined;

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Whether anything listens to `event` (so a caller can skip building what it would emit). */
  has<K extends keyof E>(event: K): boolean {
    const set = this.listeners.get(event);
    return set !== undefined && set.size > 0;
  }

  emit<K extends keyof E>(event: K, value: E[K]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        (l as Listener<E[K]>)(value);
      } catch (e) {
        this.onerror?.(e);
      }
    }
  }
}
