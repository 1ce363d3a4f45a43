/**
 * mcpkit's shared-state seams over a Durable Object namespace, for Cloudflare Workers:
 * legacy sessions, resumable SSE events, tasks and the MRTR key live in {@link McpSessionObject}
 * instances, so any isolate of the Worker can serve any legacy session or task. Stateless 2026-07-28
 * (the modern era) needs none of it.
 *
 * Limits, by design of the platform: isolates cannot message each other, so the cluster bus
 * is local to the isolate. A client's answer to a server request (legacy elicitation,
 * sampling), a cancellation, or a list_changed announced by another isolate reaches only the
 * isolate that made it; a stream resumed on another isolate replays what was stored and ends
 * (it is not followed live). `maxSessions` is not enforced across instances (each session is
 * its own object). An isolate serves a session from its own copy for up to a second after
 * the object confirmed it (a lease, recorded in the object): a change made on another isolate
 * (`logging/setLevel`, `resources/subscribe`, DELETE) cannot reach that copy, so the isolate
 * that made it waits out the other leases (at most a second) before it answers. A task's handler runs in the isolate that started it; other isolates see
 * its changes by polling (`DurableObjectTaskStore`), and a task whose isolate is evicted
 * mid-run stays `working` until its TTL (there are no runner leases, as with Redis).
 */
import type { JsonRpcMessage } from '../../jsonrpc/index.js';
import { streamOfEventId } from '../../transports/http-server/event-store.js';
import type { AppendOptions, EventStore } from '../../transports/http-server/event-store.js';
import type {
  ClusterBus,
  ClusterMessage,
  CopyLease,
  FollowableEventStore,
  LeaseHolders,
  LegacySessionRecord,
  LegacySessionStore,
  SessionLimits,
  SharedStores,
} from '../../transports/http-server/shared-state.js';
import { send, type DurableObjectNamespaceLike } from './durable-object-types.js';
import { DurableObjectTaskStore } from './durable-object-task-store.js';
import type { DurableObjectTaskStoreOptions } from './durable-object-task-store.js';

/** Legacy sessions, one Durable Object instance each (`session:<id>`). */
export class DurableObjectSessionStore implements LegacySessionStore {
  readonly shared = true;
  constructor(private readonly ns: DurableObjectNamespaceLike) {}

  create(id: string, principal: string, initialize: string, limits: SessionLimits): Promise<boolean> {
    return send(this.ns, `session:${id}`, {
      op: 'session.create',
      principal,
      initialize,
      idleMs: limits.idleMs,
    });
  }

  async touch(
    id: string,
    knownOps: number,
    limits: SessionLimits,
    lease?: CopyLease,
  ): Promise<LegacySessionRecord | undefined> {
    const r = await send<LegacySessionRecord | null>(this.ns, `session:${id}`, {
      op: 'session.touch',
      knownOps,
      idleMs: limits.idleMs,
      ...(lease ? { lease: { node: lease.node, ms: Math.ceil(lease.ms) } } : {}),
    });
    return r ?? undefined;
  }

  /**
   * The isolates other than `except` whose copy lease still runs. With it, an isolate serves
   * a session from its copy for up to a second without a round trip to the object (the
   * object's own clock starts the lease later than the isolate's, never sooner).
   */
  holders(id: string, except: string): Promise<LeaseHolders> {
    return send(this.ns, `session:${id}`, { op: 'session.holders', except });
  }

  appendOp(id: string, op: string): Promise<number> {
    return send(this.ns, `session:${id}`, { op: 'session.append', text: op });
  }

  async delete(id: string): Promise<void> {
    await send(this.ns, `session:${id}`, { op: 'session.delete' });
  }
}

/** Options of {@link DurableObjectEventStore}. */
export interface DurableObjectEventStoreOptions {
  /** Events kept per stream (default 1000, as in memory). */
  maxEventsPerStream?: number;
}

/**
 * Resumable SSE events, one instance per stream (`stream:<id>`). Only the isolate that writes a
 * stream numbers its events, so ids are made here. Events a client reads live (`deferred`)
 * stay in the isolate's memory and are written only if the client leaves (`flush`): a call
 * whose client stays costs no write.
 */
export class DurableObjectEventStore implements EventStore, FollowableEventStore {
  private readonly next = new Map<string, number>();
  private readonly held = new Map<string, Array<[number, string]>>();
  private readonly max: number;

  constructor(
    private readonly ns: DurableObjectNamespaceLike,
    options: DurableObjectEventStoreOptions = {},
  ) {
    this.max = options.maxEventsPerStream ?? 1000;
  }

  async append(streamId: string, message: JsonRpcMessage | null, options?: AppendOptions): Promise<string> {
    const seq = this.next.get(streamId) ?? 0;
    if (options?.last) this.next.delete(streamId);
    else this.next.set(streamId, seq + 1);
    const event: [number, string] = [seq, message === null ? '' : JSON.stringify(message)];
    if (options?.deferred) {
      let held = this.held.get(streamId);
      if (!held) this.held.set(streamId, (held = []));
      held.push(event);
      if (held.length > this.max) held.splice(1, 1); // the priming event stays
      return `${streamId}.${seq}`;
    }
    const events = [...(this.held.get(streamId) ?? []), event];
    this.held.delete(streamId);
    await send(this.ns, `stream:${streamId}`, { op: 'events.append', events, max: this.max });
    return `${streamId}.${seq}`;
  }

  /** Writes the events kept back: the client left, and may resume on another isolate. */
  flush(streamId: string): void {
    const events = this.held.get(streamId);
    if (!events) return;
    this.held.delete(streamId);
    // Best effort: the flush has no caller to wait for it (see the module's limits).
    send(this.ns, `stream:${streamId}`, { op: 'events.append', events, max: this.max }).catch(
      () => undefined,
    );
  }

  async replayAfter(
    lastEventId: string,
    deliver: (eventId: string, message: JsonRpcMessage) => void,
  ): Promise<string | undefined> {
    const streamId = streamOfEventId(lastEventId);
    if (streamId === undefined) return undefined;
    const text = lastEventId.slice(streamId.length + 1);
    const after = /^\d{1,15}$/.test(text) ? Number(text) : -1;
    if (after < 0) return undefined;
    const events = await send<Array<[number, string]> | null>(this.ns, `stream:${streamId}`, {
      op: 'events.replay',
      after,
    });
    if (!events) return undefined;
    for (const [seq, json] of events) deliver(`${streamId}.${seq}`, JSON.parse(json) as JsonRpcMessage);
    return streamId;
  }

  async drop(streamId: string): Promise<void> {
    this.next.delete(streamId);
    if (this.held.delete(streamId)) return; // never written

    await send(this.ns, `stream:${streamId}`, { op: 'events.drop' });
  }

  /** Replays what is stored and ends: isolates cannot carry a stream's later events to each other. */
  async follow(
    lastEventId: string,
    deliver: (eventId: string | undefined, message: JsonRpcMessage) => void,
    end: () => void,
  ): Promise<(() => void) | undefined> {
    const streamId = await this.replayAfter(lastEventId, deliver);
    if (streamId === undefined) return undefined;
    end();
    return () => undefined;
  }
}

/** The bus of one isolate: nothing crosses to other isolates (see the module's limits). */
class IsolateBus implements ClusterBus {
  readonly nodeId: string;
  private readonly listeners = new Set<(m: ClusterMessage) => void>();
  constructor() {
    this.nodeId = `isolate-${crypto.randomUUID()}`;
  }
  publish(to: string | null, message: ClusterMessage): Promise<void> {
    // Only messages addressed to this isolate itself have anyone to reach.
    if (to === this.nodeId) for (const l of this.listeners) l(message);
    return Promise.resolve();
  }
  subscribe(listener: (m: ClusterMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Options of {@link connectDurableObjectStores}. */
export type DurableObjectStoresOptions = DurableObjectEventStoreOptions & DurableObjectTaskStoreOptions;

/**
 * The shared stores for `fetchHandler(server, { stores })` over a Durable Object
 * namespace bound to {@link McpSessionObject}. Call it inside a request (it reads the MRTR
 * key from the namespace), once per isolate. Its `taskStore` reaches the server through
 * the HTTP layer (a server given its own `tasks.store` keeps that one).
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpkit';
 * import { fetchHandler } from 'mcpkit/http-server';
 * import { connectDurableObjectStores, type DurableObjectNamespaceLike } from 'mcpkit/durable-object';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * let handler: Promise<(request: Request) => Promise<Response>> | undefined;
 *
 * const worker = {
 *   async fetch(request: Request, env: { MCP_SESSIONS: DurableObjectNamespaceLike }): Promise<Response> {
 *     handler ??= connectDurableObjectStores(env.MCP_SESSIONS).then(
 *       (stores) => fetchHandler(server, { stores }).fetch,
 *     );
 *     return (await handler)(request);
 *   },
 * };
 * ```
 */
export async function connectDurableObjectStores(
  ns: DurableObjectNamespaceLike,
  options: DurableObjectStoresOptions = {},
): Promise<SharedStores> {
  const key = await send<number[]>(ns, 'meta', { op: 'meta.key' });
  return {
    sessions: new DurableObjectSessionStore(ns),
    events: new DurableObjectEventStore(ns, options),
    bus: new IsolateBus(),
    requestStateKey: Uint8Array.from(key),
    taskStore: new DurableObjectTaskStore(ns, options),
    close: () => Promise.resolve(),
  };
}
