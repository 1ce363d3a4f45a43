/**
 * Where legacy sessions live: the {@link LegacySessionStore} seam of the HTTP handler and its
 * in-memory default.
 */

/**
 * What a node needs to serve a legacy session it did not create: who owns it, and the
 * client messages that shaped its state (`initialize` first, then `notifications/initialized`,
 * `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe`, in order). Another
 * node rebuilds the session by replaying them, so the session engine needs no serialised form.
 */
export interface LegacySessionRecord {
  /** Who owns it: the opener's `principalKey` (`''` when anonymous), an opaque string to compare. */
  readonly principal: string;
  /** Every recorded message from `firstOp` on, as JSON text. */
  readonly ops: readonly string[];
  /** The index of `ops[0]` in the session's whole history. */
  readonly firstOp: number;
  /** How many messages the history holds in all. */
  readonly opCount: number;
}

/**
 * A node's claim, made with a `touch`, to serve a session from its own copy for a while
 * without asking the store again (see {@link LegacySessionStore.holders}).
 */
export interface CopyLease {
  /** The node's id on the cluster bus. */
  readonly node: string;
  /** How long the node may serve from its copy (ms), counted from before the touch was sent. */
  readonly ms: number;
}

/** The nodes whose {@link CopyLease} on a session still runs, as the store saw them last. */
export interface LeaseHolders {
  readonly nodes: readonly string[];
  /** Time (ms) until the last of those leases has surely run out. */
  readonly ms: number;
}

/** The limits a store enforces when a session is created or used. */
export interface SessionLimits {
  /** A session not used for this long is gone (ms). */
  readonly idleMs: number;
  /** At most this many sessions at once, across every node that shares the store. */
  readonly maxSessions: number;
}

/**
 * The seam between the Streamable HTTP handler and wherever legacy sessions (2025-03-26 to
 * 2025-11-25, `Mcp-Session-Id`) live: the handler asks it to create a session at
 * `initialize`, to find (and keep alive) one on every later request, to record the messages
 * that change a session's state, and to end it on `DELETE` or expiry. The in-memory
 * {@link MemoryLegacySessionStore} is the default; a shared one (Redis, see `mcpkit/redis`)
 * lets every node behind a load balancer serve every session.
 *
 * The policy (idle time, the cap) is decided above the store and handed to it; the store
 * only keeps records and enforces what it is told, atomically when several nodes share it.
 * Methods may answer synchronously (in memory) or not (Redis); a shared store that cannot
 * be reached rejects with a `StoreUnavailable` `LocalError`, which the handler answers 503.
 *
 * A session's state is its history, not a serialised engine: another node rebuilds a
 * session by replaying its recorded messages ({@link LegacySessionRecord}).
 */
export interface LegacySessionStore {
  /** True when other nodes see the same sessions (sessions must then be rebuilt and routed). */
  readonly shared: boolean;
  /** Records a new session; false when `maxSessions` are already live. */
  create(
    id: string,
    principal: string,
    initialize: string,
    limits: SessionLimits,
  ): boolean | Promise<boolean>;
  /**
   * The session, its idle clock restarted; undefined when unknown, expired or deleted.
   * Only the ops from index `knownOps` on are returned, so a node that holds the session
   * reads only what it has not replayed yet. With a `lease`, a store that implements
   * {@link LegacySessionStore.holders} records that the node may serve the session from its copy for a while.
   */
  touch(
    id: string,
    knownOps: number,
    limits: SessionLimits,
    lease?: CopyLease,
  ): LegacySessionRecord | undefined | Promise<LegacySessionRecord | undefined>;
  /** Adds a state-changing client message; returns the new number of ops. */
  appendOp(id: string, op: string): number | Promise<number>;
  /** Ends the session for every node. */
  delete(id: string): void | Promise<void>;
  /**
   * The nodes other than `except` whose lease on a copy of the session still runs. Asked
   * after a change (an op appended, the session deleted) is stored, it must include every
   * lease taken by a touch the store served before that change; the node that made the
   * change then waits until each of them has heard of it, or its lease has run out, before
   * it answers (read-your-writes on every node). Optional: without it, nodes take no lease
   * and read the store on every request.
   */
  holders?(id: string, except: string): LeaseHolders | Promise<LeaseHolders>;
  /**
   * Puts a session back with its whole history, unless it is there already (after the store
   * lost its data). Optional: a store that never loses data does not need it.
   */
  restore?(id: string, principal: string, ops: readonly string[], limits: SessionLimits): Promise<boolean>;
}

interface MemoryRecord {
  principal: string;
  ops: string[];
  lastActive: number;
}

/**
 * The in-memory {@link LegacySessionStore}, for one node: nothing is shared, so a session
 * is served only where it was created. It enforces the cap and idle time it is given.
 */
export class MemoryLegacySessionStore implements LegacySessionStore {
  readonly shared = false;
  private readonly records = new Map<string, MemoryRecord>();

  create(id: string, principal: string, initialize: string, limits: SessionLimits): boolean {
    // Idle sessions are swept by the handler, which knows which ones are still busy.
    if (this.records.size >= limits.maxSessions) return false;
    this.records.set(id, { principal, ops: [initialize], lastActive: Date.now() });
    return true;
  }

  touch(id: string, knownOps: number, limits: SessionLimits): LegacySessionRecord | undefined {
    const r = this.records.get(id);
    if (!r) return undefined;
    const now = Date.now();
    if (now - r.lastActive > limits.idleMs) {
      this.records.delete(id);
      return undefined;
    }
    r.lastActive = now;
    const from = Math.min(knownOps, r.ops.length);
    return { principal: r.principal, ops: r.ops.slice(from), firstOp: from, opCount: r.ops.length };
  }

  appendOp(id: string, op: string): number {
    const r = this.records.get(id);
    if (!r) return 0;
    r.ops.push(op);
    return r.ops.length;
  }

  delete(id: string): void {
    this.records.delete(id);
  }

  /** Sessions held (for tests and metrics). */
  get size(): number {
    return this.records.size;
  }
}
