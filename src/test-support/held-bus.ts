import type { ClusterBus, ClusterMessage } from '../transports/http-server/shared-state.js';

/**
 * A node's cluster bus whose incoming messages can be held back: what the node would have
 * heard arrives only on `release()`. A test holds it to show that a guarantee does not rest
 * on a pub/sub message arriving in time, whatever the machine's load.
 */
export interface HoldableBus extends ClusterBus {
  /** From now on, incoming messages wait. */
  hold(): void;
  /** Delivers what waited, in order, and lets later messages through at once. */
  release(): void;
  /** The messages waiting now. */
  readonly held: readonly ClusterMessage[];
}

/** Wraps `bus` so its incoming messages can be held back (see {@link HoldableBus}). */
export function holdable(bus: ClusterBus): HoldableBus {
  const listeners = new Set<(m: ClusterMessage) => void>();
  const held: ClusterMessage[] = [];
  let holding = false;
  const deliver = (m: ClusterMessage): void => {
    for (const l of listeners) l(m);
  };
  bus.subscribe((m) => (holding ? held.push(m) : deliver(m)));
  return {
    nodeId: bus.nodeId,
    publish: (to, message) => bus.publish(to, message),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const m of held.splice(0)) deliver(m);
    },
    held,
  };
}
