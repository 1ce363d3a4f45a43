/**
 * The server's change fan-out: who hears of a change (a `list_changed`, a
 * `resources/updated`), and how it reaches them. Legacy sessions hear list changes their
 * capabilities announce and updates of the resources they subscribed to; modern
 * `subscriptions/listen` streams hear what their filter asked for, and task changes. Events
 * travel on a {@link ChangeBus}, so every node of a cluster delivers changes made on any.
 */
import { WireError } from '../jsonrpc/index.js';
import type { Params, RequestId } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { Session } from '../session/index.js';
import type { RequestContext } from '../session/index.js';
import type { ChangeBus, ChangeEvent } from './change-bus.js';
import { serverEraOf } from './server-era.js';
import type { TaskRuntime } from './task-runtime.js';
import { declaresTasksExtension, missingTasksExtension, modernTask } from './task-wire.js';
import { callerOf } from './visibility.js';
import type { VisibilityCheck } from './visibility.js';

/** What the fan-out reads from its server. */
export interface FanoutHost {
  /** The server's live connections. */
  readonly sessions: ReadonlySet<Session>;
  /** The capabilities the server declares now. */
  capabilities(): Record<string, unknown>;
  /** The task runtime, when the server runs tasks. */
  tasks(): TaskRuntime | undefined;
  /** Whether the caller with `authInfo` may read `uri` (a hidden resource's updates are not its business). */
  resourceVisible?(uri: string, authInfo: unknown): boolean;
}

/** Who hears of a change: everyone who asked (null), or only callers passing one of the checks. */
type Audience = readonly VisibilityCheck[] | null;

interface ListenStream {
  readonly session: Session;
  readonly id: RequestId;
  readonly filter: Record<string, unknown>;
  /** The auth info of the request that opened it: who listens. */
  readonly authInfo: unknown;
  end(): void;
  /** Stops watching the tasks this stream follows. */
  unwatch?: () => void;
}

/** Delivers change events to the sessions and listen streams that asked for them. */
export class ChangeFanout {
  private readonly legacySubscriptions = new WeakMap<Session, Set<string>>();
  private readonly listeners = new Set<ListenStream>();
  /** List kinds with a change waiting to go out, and who is to hear it. */
  private readonly pendingLists = new Map<string, Audience>();
  /** The audience of each change published here, while it crosses the bus (events from other nodes have none). */
  private readonly audiences = new WeakMap<ChangeEvent, readonly VisibilityCheck[]>();
  /** The auth info of each legacy connection's latest list, once some item has a visibility rule. */
  private readonly callers = new WeakMap<Session, unknown>();
  private unsubscribeBus: () => void;
  private closing = false;

  constructor(
    private bus: ChangeBus,
    private readonly host: FanoutHost,
  ) {
    this.unsubscribeBus = bus.subscribe((e) => this.deliverChange(e));
  }

  /** Moves to another bus (a cluster's, when the server joins one). */
  useBus(bus: ChangeBus): void {
    this.unsubscribeBus();
    this.bus = bus;
    this.unsubscribeBus = bus.subscribe((e) => this.deliverChange(e));
  }

  /**
   * Announces a change on the bus: every node delivers it to its own clients. With an
   * `audience`, this node tells only the connections whose caller passes one of its checks
   * (or whose caller it does not know yet); the notification names nothing either way.
   */
  publish(event: ChangeEvent, audience?: readonly VisibilityCheck[]): void {
    if (audience) this.audiences.set(event, audience);
    this.bus.publish(event);
  }

  /** Remembers who a legacy connection's caller is (its lists tell), to filter its list changes. */
  noteCaller(rc: RequestContext): void {
    const session = rc.session;
    if (session instanceof Session) this.callers.set(session, rc.authInfo);
  }

  /** Whether any listen stream is open here. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** A connection closed: its listen streams are gone. */
  forget(session: Session): void {
    for (const l of this.listeners) if (l.session === session) this.listeners.delete(l);
  }

  /** Ends every listen stream gracefully; later ones are answered at once (the server is closing). */
  endAll(): void {
    this.closing = true;
    for (const l of [...this.listeners]) l.end();
  }

  /** Stops hearing the bus. */
  close(): void {
    this.unsubscribeBus();
  }

  /** `resources/subscribe` and `resources/unsubscribe` of a legacy session. */
  subscribe(params: Params, rc: RequestContext, on: boolean): unknown {
    const uri = params.uri;
    if (typeof uri !== 'string' || uri.length === 0) throw WireError.invalidParams('A uri is required');
    const session = this.sessionOf(rc);
    if (!session) return {};
    let set = this.legacySubscriptions.get(session);
    if (on) {
      if (!set) this.legacySubscriptions.set(session, (set = new Set()));
      if (set.size >= 10_000 && !set.has(uri))
        throw WireError.invalidParams('Too many subscriptions on this connection');
      set.add(uri);
      this.callers.set(session, rc.authInfo);
    } else {
      set?.delete(uri);
    }
    return {};
  }

  private sessionOf(rc: RequestContext): Session | undefined {
    const s = rc.session;
    return s instanceof Session && this.host.sessions.has(s) ? s : undefined;
  }

  /** `subscriptions/listen` (modern): a stream of the changes the caller asked for, until it is cancelled. */
  listen(params: Params, rc: RequestContext): Promise<unknown> | unknown {
    if (!serverEraOf(rc.era).subscribesByListen) throw WireError.methodNotFound('subscriptions/listen');
    const session = this.sessionOf(rc);
    const requested = (params.notifications ?? {}) as Record<string, unknown>;
    if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
      throw WireError.invalidParams('notifications must be an object');
    }
    const caps = this.host.capabilities();
    const filter: Record<string, unknown> = {};
    if (requested.toolsListChanged === true && caps.tools) filter.toolsListChanged = true;
    if (requested.promptsListChanged === true && caps.prompts) filter.promptsListChanged = true;
    if (requested.resourcesListChanged === true && caps.resources) filter.resourcesListChanged = true;
    if (Array.isArray(requested.resourceSubscriptions) && caps.resources) {
      const uris = requested.resourceSubscriptions
        .filter((u): u is string => typeof u === 'string')
        .slice(0, 10_000);
      filter.resourceSubscriptions = uris;
    }
    let taskIds: string[] | undefined;
    if (requested.taskIds !== undefined) {
      if (!this.host.tasks()) throw WireError.invalidParams('This server runs no tasks');
      if (!declaresTasksExtension(rc.peerCapabilities)) throw missingTasksExtension('taskIds');
      if (!Array.isArray(requested.taskIds)) throw WireError.invalidParams('taskIds must be an array');
      taskIds = requested.taskIds.filter((t): t is string => typeof t === 'string').slice(0, 1000);
      filter.taskIds = taskIds;
    }
    const id = rc.requestId;
    rc.notify('notifications/subscriptions/acknowledged', {
      _meta: { [MetaKey.SubscriptionId]: id },
      notifications: filter,
    });
    if (!session || this.closing) return { _meta: { [MetaKey.SubscriptionId]: id } };
    return new Promise((resolve) => {
      const stream: ListenStream = {
        session,
        id,
        filter,
        authInfo: rc.authInfo,
        end: () => {
          stream.unwatch?.();
          this.listeners.delete(stream);
          resolve({ _meta: { [MetaKey.SubscriptionId]: id } });
        },
      };
      this.listeners.add(stream);
      if (taskIds && this.host.tasks()) stream.unwatch = this.watchTasks(stream, taskIds, rc);
      rc.signal.addEventListener('abort', () => stream.end(), { once: true });
    });
  }

  /** `notifications/tasks` on a listen stream, for the caller's own tasks among `taskIds`. */
  private watchTasks(stream: ListenStream, taskIds: readonly string[], rc: RequestContext): () => void {
    const runtime = this.host.tasks()!;
    const owner = runtime.ownerOf(rc);
    const stops = taskIds.map((id) =>
      runtime.store.watch(id, (record) => {
        if (!record || record.owner !== owner) return;
        const params = { ...modernTask(record, true), _meta: { [MetaKey.SubscriptionId]: stream.id } };
        stream.session.sendRelated(stream.id, 'notifications/tasks', params);
      }),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }

  /**
   * Coalesces list changes: while one `list_changed` of a kind waits to go out, more of the
   * same kind add nothing (a client refetches the whole list anyway). A burst of 1,000
   * registrations sends one notification, not 1,000 for a slow client to buffer.
   *
   * The wait is a microtask, never a timer: Cloudflare Workers cancel a request's timers
   * when its response ends, so a timer set by a tool that registers another would never
   * fire, and its pending mark would block every later change of that kind. A microtask
   * runs before the handler's answer is written, and the mark is cleared before delivery,
   * so a delivery that throws cannot leave it behind either.
   */
  private deliverChange(event: ChangeEvent): void {
    if (event.kind === 'resource') return this.deliverNow(event, null);
    const audience = this.audiences.get(event) ?? null;
    const kind = event.kind;
    if (this.pendingLists.has(kind)) {
      // Coalesced: whoever was to hear the waiting change, and whoever is to hear this one.
      const waiting = this.pendingLists.get(kind)!;
      if (waiting !== null) this.pendingLists.set(kind, audience === null ? null : [...waiting, ...audience]);
      return;
    }
    this.pendingLists.set(kind, audience);
    queueMicrotask(() => {
      const who = this.pendingLists.get(kind) ?? null;
      this.pendingLists.delete(kind);
      this.deliverNow(event, who);
    });
  }

  /** Whether the caller with `authInfo` is to hear `event`. */
  private hears(event: ChangeEvent, audience: Audience, authInfo: unknown, known: boolean): boolean {
    if (event.kind === 'resource') return this.host.resourceVisible?.(event.uri, authInfo) ?? true;
    // A connection whose caller is not known yet (it has not listed under rules) hears it.
    if (audience === null || !known) return true;
    const caller = callerOf(authInfo);
    return audience.some((check) => check(caller));
  }

  private deliverNow(event: ChangeEvent, audience: Audience): void {
    const method =
      event.kind === 'resource'
        ? 'notifications/resources/updated'
        : `notifications/${event.kind}/list_changed`;
    const params: Params = event.kind === 'resource' ? { uri: event.uri } : {};
    for (const s of this.host.sessions) {
      // Connections that subscribe by listening hear changes on their streams (below) only.
      if (s.era === undefined || serverEraOf(s.era).subscribesByListen || s.legacyState === 'new') continue;
      if (event.kind === 'resource' && !this.legacySubscriptions.get(s)?.has(event.uri)) continue;
      if (event.kind !== 'resource' && !s.capabilities[event.kind]) continue;
      if (
        (audience !== null || event.kind === 'resource') &&
        !this.hears(event, audience, this.callers.get(s), this.callers.has(s))
      )
        continue;
      s.notify(method, params).catch(() => undefined);
    }
    for (const l of this.listeners) {
      const wanted =
        event.kind === 'resource'
          ? (l.filter.resourceSubscriptions as string[] | undefined)?.includes(event.uri)
          : l.filter[`${event.kind}ListChanged`] === true;
      if (!wanted) continue;
      if ((audience !== null || event.kind === 'resource') && !this.hears(event, audience, l.authInfo, true))
        continue;
      l.session.sendRelated(l.id, method, { ...params, _meta: { [MetaKey.SubscriptionId]: l.id } });
    }
  }
}
