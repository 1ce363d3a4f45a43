import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, ParsedFrame } from '../../jsonrpc/index.js';
import { Confirmations } from './confirmations.js';
import type { LegacySessionTransport } from './legacy-session.js';
import type {
  ClusterMessage,
  CopyLease,
  LeaseHolders,
  LegacySessionRecord,
  SessionLimits,
  SharedStores,
} from './shared-state.js';

/** A legacy session this node serves: its transport, its session, and how much of its recorded state it has. */
export interface SessionEntry {
  transport: LegacySessionTransport;
  connection: { close(): Promise<void> };
  /** How many recorded ops this node's copy has replayed (shared stores only). */
  ops: number;
  /** Those ops' text, to put the session back if the store loses it (a Redis restart without persistence). */
  history?: string[];
  /** When the store last confirmed the session (`performance.now()`); unset or -Infinity: no lease. */
  checkedAt?: number;
  /** Whom the session counts against for quotas (principal, else address). */
  client: string;
  /** Whether the client did anything after initialize. */
  used: boolean;
}

/** The most ops a node keeps per session to restore it (the store's own bound). */
const MAX_HISTORY = 10_000;

/** The client messages that change a legacy session's state, recorded so other nodes can replay them. */
const STATE_METHODS = new Set([
  'notifications/initialized',
  'initialized',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** A change event, as the server's change bus carries it. */
type ChangeEvent = Extract<ClusterMessage, { t: 'change' }>['e'];

/** A session's state change or end, as announced to the other nodes. */
type Announcement = Extract<ClusterMessage, { t: 'ops' | 'end' }>;

/** Slack (ms) on leases for clocks read in whole milliseconds. */
const LEASE_SLACK_MS = 2;

/** The `checkedAt` of a copy without a lease. */
const NO_LEASE = Number.NEGATIVE_INFINITY;

/** What {@link SharedSessions} needs from the HTTP handler. */
export interface SharedSessionsHost {
  readonly sessions: Map<string, SessionEntry>;
  readonly limits: SessionLimits;
  /** Makes this node's copy of a session (a transport connected to a new server session). */
  open(id: string, principal: string): Promise<SessionEntry>;
  /** Takes this node's copy of a session off the books (quotas included). */
  forget(id: string, entry: SessionEntry): void;
}

/**
 * The legacy sessions of a cluster, seen from one node: a session created on any node is
 * rebuilt here on first use by replaying its recorded state; a client's answer to another
 * node's request is sent to that node; cancellations and other notifications reach every
 * node that holds the session; ending a session ends it everywhere.
 */
export class SharedSessions {
  private readonly building = new Map<string, Promise<SessionEntry>>();
  private readonly changeListeners = new Set<(event: ChangeEvent) => void>();
  private readonly unsubscribe: () => void;
  /**
   * How long a confirmation from the store holds for this node's copy. Within it a request
   * costs no round trip to the store: changes made elsewhere reach the copy through the bus
   * (state changes carry their text, an end closes the copy), and the idle clock is still
   * restarted well within the idle time. The lease is recorded in the store with the touch
   * that starts it, and a node that changes the session answers only once every node with
   * a running lease has taken the change in (or its lease ran out): read-your-writes on
   * every node without a round trip per request. 0 when the store keeps no leases.
   */
  private readonly leaseMs: number;
  private readonly lease: CopyLease | undefined;
  /** This node's changes waiting for the nodes with a lease to take them in. */
  private readonly confirmations = new Confirmations();
  /**
   * Sessions being read from the store here, and the change count at the last change
   * announced for each meanwhile: a copy read while a change was announced gets no lease,
   * since the read may have been served before the change was stored.
   */
  private readonly reading = new Map<string, { readers: number; changedAt: number }>();
  private changeCount = 0;

  constructor(
    readonly stores: SharedStores,
    private readonly host: SharedSessionsHost,
  ) {
    this.unsubscribe = stores.bus.subscribe((m) => this.onMessage(m));
    stores.onReconnect?.(() => {
      // The store may have come back without the leases: none is relied on any more.
      for (const entry of host.sessions.values()) entry.checkedAt = NO_LEASE;
      void this.restoreAll();
    });
    this.leaseMs = stores.sessions.holders ? Math.min(1000, host.limits.idleMs / 4) : 0;
    this.lease =
      this.leaseMs > 0 ? { node: stores.bus.nodeId, ms: this.leaseMs + LEASE_SLACK_MS } : undefined;
  }

  /**
   * Puts every session this node serves back into the store after it came back empty
   * (a restart without persistence): the first node to restore a session wins, the others
   * find it there. Sessions no node was serving are lost; their clients get 404.
   */
  private async restoreAll(): Promise<void> {
    const restore = this.stores.sessions.restore?.bind(this.stores.sessions);
    if (!restore) return;
    for (const [id, entry] of this.host.sessions) {
      if (!entry.history?.length || entry.transport.closed) continue;
      try {
        await restore(id, entry.transport.principal, entry.history, this.host.limits);
      } catch {
        return; // Down again: the next reconnect tries again.
      }
    }
  }

  get nodeId(): string {
    return this.stores.bus.nodeId;
  }

  /** A change bus for the server: events reach this node at once and every other node through the store. */
  readonly changeBus = {
    publish: (event: ChangeEvent): void => {
      this.emitChange(event);
      void this.stores.bus.publish(null, { t: 'change', e: event });
    },
    subscribe: (listener: (event: ChangeEvent) => void): (() => void) => {
      this.changeListeners.add(listener);
      return () => this.changeListeners.delete(listener);
    },
  };

  /**
   * The session `id` as this node serves it, with every recorded change replayed; undefined
   * when no node knows it, it expired, it was ended, or it belongs to another principal.
   * Rejects with `StoreUnavailable` when the store cannot be reached.
   */
  async find(id: string, principal: string): Promise<SessionEntry | undefined> {
    const local = this.host.sessions.get(id);
    const now = performance.now();
    if (local && !local.transport.closed) {
      // Within its lease the copy has every change answered so far (see leaseMs).
      if (now - (local.checkedAt ?? NO_LEASE) < this.leaseMs)
        return local.transport.principal === principal ? local : undefined;
    } else {
      const building = this.building.get(id);
      if (building) {
        // Built by an earlier request: whether its lease holds is decided afresh.
        await building;
        return this.find(id, principal);
      }
    }
    const mark = this.beginRead(id);
    try {
      const record = await this.stores.sessions.touch(id, local?.ops ?? 0, this.host.limits, this.lease);
      if (!record) {
        if (local) this.forget(id, local);
        return undefined;
      }
      if (record.principal !== principal) return undefined;
      if (local && !local.transport.closed) {
        this.apply(local, record);
        local.checkedAt = this.leaseStart(id, mark, now);
        return local;
      }
      let pending = this.building.get(id);
      if (!pending) {
        pending = this.host.open(id, record.principal).then((entry) => {
          this.apply(entry, record);
          entry.checkedAt = this.leaseStart(id, mark, now);
          return entry;
        });
        this.building.set(id, pending);
        void pending.finally(() => this.building.delete(id)).catch(() => undefined);
      }
      return await pending;
    } finally {
      this.endRead(id);
    }
  }

  /** Notes a read of session `id` from the store; returns the change count it started at. */
  private beginRead(id: string): number {
    const r = this.reading.get(id);
    if (r) r.readers++;
    else this.reading.set(id, { readers: 1, changedAt: -1 });
    return this.changeCount;
  }

  private endRead(id: string): void {
    const r = this.reading.get(id);
    if (r && --r.readers === 0) this.reading.delete(id);
  }

  /** When a copy read from `mark` on starts its lease: not at all if a change was announced meanwhile. */
  private leaseStart(id: string, mark: number, now: number): number {
    return (this.reading.get(id)?.changedAt ?? -1) > mark ? NO_LEASE : now;
  }

  private apply(entry: SessionEntry, record: LegacySessionRecord): void {
    if (record.opCount <= entry.ops) return;
    const fresh = record.ops.slice(Math.max(0, entry.ops - record.firstOp));
    entry.transport.replay(fresh);
    entry.ops = record.opCount;
    const history = (entry.history ??= []);
    if (history.length + fresh.length <= MAX_HISTORY) history.push(...fresh);
  }

  /**
   * Records the state-changing messages of a POST before the session sees them, so every
   * other node replays them too. Rejects with `StoreUnavailable` when the store is down.
   */
  async record(id: string, entry: SessionEntry, frame: JsonRpcMessage | ParsedBatch): Promise<void> {
    const items = frame instanceof ParsedBatch ? frame.items : [frame];
    for (const m of items) {
      if (m instanceof InvalidMessage || !('method' in m) || !STATE_METHODS.has(m.method)) continue;
      const text = JSON.stringify(m);
      const count = await this.stores.sessions.appendOp(id, text);
      if (count <= 0) continue; // Gone, or at the bound: not shared.
      // Delivered here now; anything another node added meanwhile comes with the next touch.
      if (count === entry.ops + 1) {
        entry.ops = count;
        if (entry.history && entry.history.length < MAX_HISTORY) entry.history.push(text);
      } else {
        entry.checkedAt = NO_LEASE;
      }
      // Taken in by every node with a lease before this POST is answered (read-your-writes).
      await this.announce(id, { t: 'ops', s: id, n: count, m: text });
    }
  }

  /**
   * Tells every node of a change already stored, and resolves once each node with a running
   * lease on the session has confirmed it took the change in, or that lease has run out.
   * Either way no node serves the client's next request from a copy without the change.
   */
  private async announce(id: string, message: Announcement): Promise<void> {
    const ask = this.stores.sessions.holders;
    if (!ask) return this.stores.bus.publish(null, message);
    let holders: LeaseHolders;
    try {
      holders = await ask.call(this.stores.sessions, id, this.nodeId);
    } catch {
      // Who holds a lease is unknown: waiting one whole lease outlasts them all.
      holders = { nodes: [], ms: this.leaseMs + LEASE_SLACK_MS };
    }
    if (holders.nodes.length === 0 && holders.ms <= 0) return this.stores.bus.publish(null, message);
    const { key: k, confirmed } = this.confirmations.expect(holders.nodes, holders.ms);
    await this.stores.bus.publish(
      null,
      holders.nodes.length > 0 ? { ...message, w: [...holders.nodes], r: this.nodeId, k } : message,
    );
    await confirmed;
  }

  /**
   * Sends a client message on to the nodes it concerns, and returns what this node must
   * deliver itself (undefined when nothing). An answer to another node's request goes to
   * that node only; notifications also go to every other node and are delivered here too.
   * A batch (2025-03-26) is split the same way, item by item.
   */
  route(
    id: string,
    entry: SessionEntry,
    frame: JsonRpcMessage | ParsedBatch,
  ): JsonRpcMessage | ParsedBatch | undefined {
    if (!(frame instanceof ParsedBatch)) return this.routeOne(id, entry, frame) ? undefined : frame;
    const here = frame.items.filter((m) => m instanceof InvalidMessage || !this.routeOne(id, entry, m));
    if (here.length === frame.items.length) return frame;
    return here.length === 0 ? undefined : new ParsedBatch(here);
  }

  /** Routes one message; true when it belongs elsewhere only. */
  private routeOne(id: string, entry: SessionEntry, m: JsonRpcMessage): boolean {
    if (!('method' in m)) {
      if (m.id === null || entry.transport.ownRequestId(m.id) !== undefined) return false;
      const raw = String(m.id);
      void this.stores.bus.publish(raw.slice(0, raw.lastIndexOf(':')), {
        t: 'deliver',
        s: id,
        m: JSON.stringify(m),
      });
      return true;
    }
    if (!('id' in m) && !STATE_METHODS.has(m.method)) {
      void this.stores.bus.publish(null, { t: 'deliver', s: id, m: JSON.stringify(m) });
    }
    return false;
  }

  /** Ends a session on every node (each node with a lease has closed its copy when this resolves). */
  async end(id: string): Promise<void> {
    await this.stores.sessions.delete(id);
    await this.announce(id, { t: 'end', s: id });
    const local = this.host.sessions.get(id);
    if (local) this.forget(id, local);
  }

  /**
   * The idle sweep for a shared store: a copy idle here is dropped here only (other nodes
   * may be using the session; the store expires it); a busy one, or one with an open GET
   * stream, keeps the session alive in the store, and is dropped if it is gone there.
   */
  sweep(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const [id, entry] of this.host.sessions) {
      const t = entry.transport;
      if (t.busy || t.hasStandalone) {
        Promise.resolve(this.stores.sessions.touch(id, Number.MAX_SAFE_INTEGER, this.host.limits)).then(
          (r) => r || this.forget(id, entry),
          () => undefined,
        );
      } else if (t.lastActive < cutoff) {
        this.forget(id, entry);
      }
    }
  }

  private forget(id: string, entry: SessionEntry): void {
    this.host.forget(id, entry);
    void entry.connection.close();
  }

  private emitChange(event: ChangeEvent): void {
    for (const l of this.changeListeners) {
      try {
        l(event);
      } catch {
        // One failing listener must not starve the others.
      }
    }
  }

  private onMessage(m: ClusterMessage): void {
    if (m.t === 'change') return this.emitChange(m.e);
    if (m.t === 'sse' || m.t === 'sse-ack') return; // The HTTP+SSE endpoints' own.
    if (m.t === 'seen') {
      return this.confirmations.confirm(m.k, m.f);
    }
    if (m.t === 'ops' || m.t === 'end') {
      this.takeIn(m);
      // Confirmed once the copy has the change, or has lost its lease and will read the store.
      if (m.r !== undefined && m.k !== undefined && m.w?.includes(this.nodeId))
        void this.stores.bus.publish(m.r, { t: 'seen', k: m.k, f: this.nodeId });
      return;
    }
    const entry = this.host.sessions.get(m.s);
    if (!entry) return;
    const frame: ParsedFrame = parseFrame(m.m);
    if (frame instanceof InvalidMessage || frame instanceof ParsedBatch) return;
    void entry.transport.deliver(frame, [], {}, { json: { body: () => undefined, stream: noStream } });
  }

  /** Brings this node's copy of a session up to a change another node announced, or withdraws its lease. */
  private takeIn(m: Announcement): void {
    const reading = this.reading.get(m.s);
    if (reading) reading.changedAt = ++this.changeCount;
    const entry = this.host.sessions.get(m.s);
    if (!entry) return;
    if (m.t === 'end') return this.forget(m.s, entry);
    if (m.n === entry.ops + 1 && m.m !== undefined) {
      entry.transport.replay([m.m]);
      entry.ops = m.n;
      if (entry.history && entry.history.length < MAX_HISTORY) entry.history.push(m.m);
      return;
    }
    if (m.n !== undefined && m.n <= entry.ops) return;
    entry.checkedAt = NO_LEASE; // Out of step: the next request reads the store.
    Promise.resolve(this.stores.sessions.touch(m.s, entry.ops, this.host.limits)).then(
      (r) => (r ? this.apply(entry, r) : this.forget(m.s, entry)),
      () => undefined,
    );
  }

  close(): void {
    this.unsubscribe();
    this.confirmations.close();
  }
}

function noStream(): never {
  throw new LocalError('InvalidMessage', 'A forwarded message has no response stream');
}
