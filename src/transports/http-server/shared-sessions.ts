import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, ParsedFrame } from '../../jsonrpc/index.js';
import type { LegacySessionTransport } from './legacy-session.js';
import type { ClusterMessage, LegacySessionRecord, SessionLimits, SharedStores } from './shared-state.js';

/** A legacy session this node serves: its transport, its session, and how much of its recorded state it has. */
export interface SessionEntry {
  transport: LegacySessionTransport;
  connection: { close(): Promise<void> };
  /** How many recorded ops this node's copy has replayed (shared stores only). */
  ops: number;
  /** Those ops' text, to put the session back if the store loses it (a Redis restart without persistence). */
  history?: string[];
  /** When the store last confirmed the session (ms since the epoch). */
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
   * restarted well within the idle time.
   */
  private readonly leaseMs: number;

  constructor(
    readonly stores: SharedStores,
    private readonly host: SharedSessionsHost,
  ) {
    this.unsubscribe = stores.bus.subscribe((m) => this.onMessage(m));
    stores.onReconnect?.(() => void this.restoreAll());
    this.leaseMs = Math.min(1000, host.limits.idleMs / 4);
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
    const now = Date.now();
    if (local && !local.transport.closed && now - (local.checkedAt ?? 0) < this.leaseMs) {
      // A change or an end announced before this request may sit, unread, in a socket that
      // became readable with it: let this turn of the event loop read it first.
      await afterPendingIo();
      if (local.transport.closed || now - (local.checkedAt ?? 0) >= this.leaseMs)
        return this.find(id, principal);
      return local.transport.principal === principal ? local : undefined;
    }
    const record = await this.stores.sessions.touch(id, local?.ops ?? 0, this.host.limits);
    if (!record) {
      if (local) this.forget(id, local);
      return undefined;
    }
    if (record.principal !== principal) return undefined;
    if (local && !local.transport.closed) {
      this.apply(local, record);
      local.checkedAt = now;
      return local;
    }
    let pending = this.building.get(id);
    if (!pending) {
      pending = this.host.open(id, record.principal).then((entry) => {
        this.apply(entry, record);
        entry.checkedAt = now;
        return entry;
      });
      this.building.set(id, pending);
      void pending.finally(() => this.building.delete(id)).catch(() => undefined);
    }
    return pending;
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
        entry.checkedAt = 0;
      }
      // Sent before this POST is answered, so other nodes have it before the client's next request.
      await this.stores.bus.publish(null, { t: 'ops', s: id, n: count, m: text });
    }
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

  /** Ends a session on every node. */
  async end(id: string): Promise<void> {
    await this.stores.sessions.delete(id);
    await this.stores.bus.publish(null, { t: 'end', s: id });
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
    const entry = this.host.sessions.get(m.s);
    if (!entry) return;
    if (m.t === 'end') return this.forget(m.s, entry);
    if (m.t === 'ops') {
      if (m.n === entry.ops + 1 && m.m !== undefined) {
        entry.transport.replay([m.m]);
        entry.ops = m.n;
        if (entry.history && entry.history.length < MAX_HISTORY) entry.history.push(m.m);
        return;
      }
      if (m.n !== undefined && m.n <= entry.ops) return;
      entry.checkedAt = 0; // Out of step: the next request reads the store.
      Promise.resolve(this.stores.sessions.touch(m.s, entry.ops, this.host.limits)).then(
        (r) => (r ? this.apply(entry, r) : this.forget(m.s, entry)),
        () => undefined,
      );
      return;
    }
    const frame: ParsedFrame = parseFrame(m.m);
    if (frame instanceof InvalidMessage || frame instanceof ParsedBatch) return;
    void entry.transport.deliver(frame, [], {}, { json: { body: () => undefined, stream: noStream } });
  }

  close(): void {
    this.unsubscribe();
  }
}

/** Resolves after the I/O already pending in this turn of the event loop has been handled. */
function afterPendingIo(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}

function noStream(): never {
  throw new LocalError('InvalidMessage', 'A forwarded message has no response stream');
}
