import { InvalidMessage, ParsedBatch } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../../jsonrpc/index.js';
import { principalKey } from '../../protocol/principal.js';
import { allowsBatch, eraOf, isLegacyVersion } from '../../protocol/versions.js';
import type { EventStore } from './event-store.js';
import type { HttpExchange, ResponseStream } from './exchange.js';
import { LegacySessionTransport } from './legacy-session.js';
import type { JsonReply } from './legacy-session.js';
import { refuse } from './refusals.js';
import { frameInfoOf } from './respond.js';
import { screenFrame } from './request-authorizer.js';
import type { McpConnector } from './respond.js';
import { SharedSessions } from './shared-sessions.js';
import type { SessionEntry } from './shared-sessions.js';
import { MemoryLegacySessionStore } from './legacy-session-store.js';
import type { LegacySessionStore, SessionLimits } from './legacy-session-store.js';
import { SSE_HEADERS } from './sse-format.js';
import type { SharedStores } from './shared-state.js';

/** What the legacy endpoint takes from the handler's options. */
export interface LegacyEndpointOptions {
  responseMode?: 'sse' | 'json' | undefined;
  sessionIdleMs?: number | undefined;
  maxSessions?: number | undefined;
  sessionInitIdleMs?: number | undefined;
  maxSessionsPerClient?: number | undefined;
  maxInFlightPerSession?: number | undefined;
  maxBatchSize?: number | undefined;
  resumeWindowMs?: number | undefined;
  retryMs?: number | undefined;
  keepAliveMs?: number | undefined;
  stores?: SharedStores | undefined;
}

/** A notification-only POST is answered 202 at once; the session never replies to it. */
const NO_REPLY: { json: JsonReply } = {
  json: {
    body: () => undefined,
    stream: () => {
      throw new Error('a POST without requests has no response stream');
    },
  },
};

/**
 * A JSON-mode POST's answer: one `application/json` body, or an SSE stream when a message
 * related to its requests comes before the answer. One object per POST, nothing more
 * unless it streams.
 */
class JsonPost implements JsonReply {
  constructor(
    private readonly ex: HttpExchange,
    private readonly transport: LegacySessionTransport,
  ) {}

  body(text: string): void {
    if (text === '') return refuse(this.ex, 'sessionClosed');
    this.ex.respond(200, headersOf(this.transport).json, text);
  }

  stream(): ResponseStream {
    return openSessionStream(this.ex, this.transport);
  }
}

/**
 * A session's response headers, made once per session rather than once per response:
 * `sse` for a live stream, `whole` for an SSE answer that leaves complete in one write (no
 * buffering or caching hints for intermediaries, which a complete body does not need;
 * every header costs Node a validation and a formatting per response), `json` for JSON.
 */
interface SessionHeaders {
  sse: Record<string, string>;
  whole: Record<string, string>;
  json: Record<string, string>;
}

const sessionHeaders = new WeakMap<LegacySessionTransport, SessionHeaders>();

function headersOf(t: LegacySessionTransport): SessionHeaders {
  let h = sessionHeaders.get(t);
  if (!h) {
    h = {
      sse: Object.freeze({ ...SSE_HEADERS, 'mcp-session-id': t.sessionId }),
      whole: Object.freeze({ 'content-type': SSE_HEADERS['content-type']!, 'mcp-session-id': t.sessionId }),
      json: Object.freeze({ 'content-type': 'application/json', 'mcp-session-id': t.sessionId }),
    };
    sessionHeaders.set(t, h);
  }
  return h;
}

/** Starts a session's SSE response, detached from the session if the client leaves. */
function openSessionStream(ex: HttpExchange, t: LegacySessionTransport): ResponseStream {
  const out = ex.stream(200, headersOf(t).sse);
  ex.onClose(() => t.detach(out));
  return out;
}

function newSessionId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}

function requestIdsOf(frame: JsonRpcMessage | ParsedBatch): RequestId[] {
  const items = frame instanceof ParsedBatch ? frame.items : [frame];
  const ids: RequestId[] = [];
  for (const m of items) if (!(m instanceof InvalidMessage) && 'method' in m && 'id' in m) ids.push(m.id);
  return ids;
}

/** Whether an MCP-Protocol-Version header names a stateless (2026-07-28 or later) revision. */
function isModernVersionHeader(value: string | undefined): boolean {
  return value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) && eraOf(value) === 'modern';
}

/** Whom a session counts against for quotas: its principal, else its network address. */
function clientKey(principal: string, address: string | undefined): string {
  return principal !== '' ? `p:${principal}` : `a:${address ?? ''}`;
}

/** `initialize` and `notifications/initialized`: what every session does, used or not. */
function isInitializeTraffic(frame: JsonRpcMessage | ParsedBatch): boolean {
  if (frame instanceof ParsedBatch || !('method' in frame)) return false;
  return frame.method === 'initialize' || frame.method === 'notifications/initialized';
}

/**
 * The legacy (2025-03-26 to 2025-11-25) half of the Streamable HTTP endpoint: sessions made
 * by `initialize` and named by `Mcp-Session-Id`, their caps and eviction, resumable SSE,
 * and the GET and DELETE that only sessions have.
 */
export class LegacyEndpoint {
  /** Live legacy sessions, least recently used first. */
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly perClient = new Map<string, number>();
  /** Started with the first session, never at construction: Workers forbid timers at global scope. */
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly sessionStore: LegacySessionStore;
  private readonly shared: SharedSessions | undefined;
  private readonly limits: SessionLimits;
  private readonly idleMs: number;
  private readonly initIdleMs: number;
  /** The id of the session last moved to the end of `sessions` (most recently used). */
  private mru: string | undefined;
  private closed = false;

  constructor(
    private readonly connector: McpConnector,
    private readonly store: EventStore,
    private readonly options: LegacyEndpointOptions,
  ) {
    const idle = (this.idleMs = options.sessionIdleMs ?? 30 * 60_000);
    this.initIdleMs = Math.min(idle, options.sessionInitIdleMs ?? 30_000);
    this.limits = { idleMs: idle, maxSessions: options.maxSessions ?? 10_000 };
    this.sessionStore = options.stores?.sessions ?? new MemoryLegacySessionStore();
    if (options.stores) {
      const shared = (this.shared = new SharedSessions(options.stores, {
        sessions: this.sessions,
        limits: this.limits,
        open: (id, principal) => this.open(id, principal, clientKey(principal, undefined)),
        forget: (id, entry) => this.forget(id, entry),
      }));
      connector.joinCluster?.({
        changeBus: shared.changeBus,
        requestStateKey: options.stores.requestStateKey,
        ...(options.stores.taskStore !== undefined ? { taskStore: options.stores.taskStore } : {}),
      });
    }
  }

  /** Live legacy sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * A POST that is not a modern request: a session's message, or `initialize` to make one.
   * Synchronous for a session of this node with nothing to wait for: an async function here
   * (and in `deliver`) cost a promise and three microtask jobs per POST, for nothing.
   */
  post(ex: HttpExchange, frame: JsonRpcMessage | ParsedBatch): void | Promise<void> {
    const sessionId = ex.header('mcp-session-id');
    if (sessionId === undefined) return this.postWithoutSession(ex, frame);
    // Only a shared store answers asynchronously.
    const found = this.sessionFor(ex, sessionId);
    if (found instanceof Promise) return found.then((entry) => this.postTo(ex, frame, sessionId, entry));
    return this.postTo(ex, frame, sessionId, found);
  }

  private postTo(
    ex: HttpExchange,
    frame: JsonRpcMessage | ParsedBatch,
    sessionId: string,
    entry: SessionEntry | undefined,
  ): void | Promise<void> {
    if (!entry) return refuse(ex, 'sessionNotFound');
    // Any legacy version we speak is accepted: clients in the wild send the header loosely.
    const version = ex.header('mcp-protocol-version');
    if (version !== undefined && !isLegacyVersion(version)) {
      return refuse(ex, 'unsupportedVersion', version);
    }
    const maxBatch = this.options.maxBatchSize ?? 100;
    if (frame instanceof ParsedBatch && frame.items.length > maxBatch) {
      return refuse(ex, 'batchTooLarge', { size: frame.items.length, limit: maxBatch });
    }
    if (frame instanceof ParsedBatch && !allowsBatch(entry.transport.version)) {
      // Refused here: the session's answer to a refused batch has no id, so no stream would carry it.
      return refuse(ex, 'batchesUnsupported', entry.transport.version);
    }
    // Mirrored headers checked and scopes decided on the parsed body, before anything runs.
    const screened = screenFrame(ex, frame, this.connector, true);
    if (screened === true) return;
    if (screened !== false) {
      return screened.then((refused) => (refused ? undefined : this.deliver(ex, entry, frame, sessionId)));
    }
    return this.deliver(ex, entry, frame, sessionId);
  }

  private async postWithoutSession(ex: HttpExchange, frame: JsonRpcMessage | ParsedBatch): Promise<void> {
    const single = frame instanceof ParsedBatch ? undefined : frame;
    if (single && 'method' in single && !('id' in single)) {
      // A notification outside any session (modern clients send none on HTTP): accepted, dropped.
      return ex.respond(202, {});
    }
    const version = ex.header('mcp-protocol-version');
    if (single && 'method' in single && single.method !== 'initialize' && isModernVersionHeader(version)) {
      // The header says 2026-07-28 but the body has no version: invalid params, not a missing session.
      return refuse(ex, 'modernMetaMissing', version ?? '', (single as JsonRpcRequest).id);
    }
    if (!single || !('method' in single) || single.method !== 'initialize') {
      return refuse(ex, 'noSession');
    }
    const screened = screenFrame(ex, frame, this.connector, true);
    if (screened === true || (screened !== false && (await screened))) return;
    return this.initialize(ex, single);
  }

  private async initialize(ex: HttpExchange, frame: JsonRpcMessage): Promise<void> {
    const principal = principalKey(ex.authInfo);
    const client = clientKey(principal, ex.remoteAddress);
    const perClient = this.options.maxSessionsPerClient ?? 1000;
    if ((this.perClient.get(client) ?? 0) >= perClient && !this.evictIdle(client)) {
      return refuse(ex, 'tooManyClientSessions');
    }
    // At the cap the least recently used idle session here makes room; with shared stores the
    // cap is the cluster's, which the store enforces.
    if (!this.shared && this.sessions.size >= this.limits.maxSessions) this.evictIdle(undefined);
    const id = newSessionId();
    const initText = this.shared ? JSON.stringify(frame) : '';
    const created = await this.sessionStore.create(id, principal, initText, this.limits);
    if (!created) {
      return refuse(ex, 'tooManySessions');
    }
    const entry = await this.open(id, principal, client);
    entry.ops = 1;
    if (this.shared) entry.history = [initText];
    return this.deliver(ex, entry, frame, id);
  }

  /** This node's copy of a session: a transport connected to a new server session. */
  private async open(id: string, principal: string, client: string): Promise<SessionEntry> {
    const transport = new LegacySessionTransport(id, principal, {
      eventStore: this.store,
      retryMs: this.options.retryMs ?? 1000,
      keepAliveMs: this.options.keepAliveMs ?? 15_000,
      resumeWindowMs: this.options.resumeWindowMs ?? 60_000,
      ...(this.shared ? { nodeId: this.shared.nodeId } : {}),
    });
    const connection = await this.connector.connect(transport);
    const entry: SessionEntry = { transport, connection, ops: 0, client, used: false };
    transport.onclosed = () => this.forget(id, entry);
    this.sessions.set(id, entry);
    this.mru = id;
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    if (!this.closed) this.sweeper ??= this.startSweeper();
    return entry;
  }

  private startSweeper(): ReturnType<typeof setInterval> {
    const idle = this.idleMs;
    const initIdle = this.initIdleMs;
    const timer = setInterval(
      () => this.sweep(idle, initIdle),
      Math.max(100, Math.min(60_000, idle, Math.ceil(initIdle / 2))),
    );
    timer.unref?.();
    return timer;
  }

  /** Unknown ids and another principal's ids get the same 404: no oracle for valid ids. */
  private sessionFor(
    ex: HttpExchange,
    id: string,
  ): SessionEntry | undefined | Promise<SessionEntry | undefined> {
    if (this.shared) return id.length <= 128 ? this.shared.find(id, principalKey(ex.authInfo)) : undefined;
    const entry = id.length <= 128 ? this.sessions.get(id) : undefined;
    if (!entry || entry.transport.closed || entry.transport.principal !== principalKey(ex.authInfo))
      return undefined;
    // Most recently used last: the map's order is the eviction order. A session used again
    // at once is already last, and moving it would churn the map's table for nothing.
    if (id !== this.mru) {
      this.sessions.delete(id);
      this.sessions.set(id, entry);
      this.mru = id;
    }
    return entry;
  }

  /**
   * Removes this node's copy of a session from the books (once), whoever closed it. Without
   * shared stores that ends the session; with them, only `SharedSessions.end` does.
   */
  private forget(id: string, entry: SessionEntry): void {
    if (this.sessions.get(id) !== entry) return;
    this.sessions.delete(id);
    if (!this.shared) void this.sessionStore.delete(id);
    const n = (this.perClient.get(entry.client) ?? 1) - 1;
    if (n <= 0) this.perClient.delete(entry.client);
    else this.perClient.set(entry.client, n);
  }

  /** Closes the least recently used idle session (of one client, or of anyone); false when all are busy. */
  private evictIdle(client: string | undefined): boolean {
    for (const [id, entry] of this.sessions) {
      if (client !== undefined && entry.client !== client) continue;
      if (entry.transport.busy || entry.transport.hasStandalone) continue;
      this.forget(id, entry);
      void entry.connection.close();
      return true;
    }
    return false;
  }

  private deliver(
    ex: HttpExchange,
    entry: SessionEntry,
    frame: JsonRpcMessage | ParsedBatch,
    sessionId: string,
  ): void | Promise<void> {
    if (this.shared) return this.deliverShared(ex, entry, frame, sessionId, this.shared);
    return this.deliverHere(ex, entry, frame, sessionId);
  }

  /** Shared stores: the message is recorded for the other nodes, and maybe routed to one of them. */
  private async deliverShared(
    ex: HttpExchange,
    entry: SessionEntry,
    frame: JsonRpcMessage | ParsedBatch,
    sessionId: string,
    shared: SharedSessions,
  ): Promise<void> {
    await shared.record(sessionId, entry, frame);
    const here = shared.route(sessionId, entry, frame);
    if (here === undefined) return ex.respond(202, { 'mcp-session-id': sessionId });
    return this.deliverHere(ex, entry, here, sessionId);
  }

  private deliverHere(
    ex: HttpExchange,
    entry: SessionEntry,
    frame: JsonRpcMessage | ParsedBatch,
    sessionId: string,
  ): void {
    const t = entry.transport;
    const ids = requestIdsOf(frame);
    if (!entry.used && !isInitializeTraffic(frame)) entry.used = true;
    const maxInFlight = this.options.maxInFlightPerSession ?? 1000;
    if (ids.length > 0 && t.inFlight + ids.length > maxInFlight) {
      // One answer for the POST: a single request's id, or none for a batch.
      return refuse(ex, 'tooManyInFlight', maxInFlight, ids.length === 1 ? ids[0]! : null, {
        'mcp-session-id': sessionId,
      });
    }
    const info = frameInfoOf(ex);
    if (ids.length === 0) {
      t.deliver(frame, ids, info, NO_REPLY);
      return ex.respond(202, { 'mcp-session-id': sessionId });
    }
    if (this.options.responseMode === 'json') {
      return t.deliver(frame, ids, info, { json: new JsonPost(ex, t) });
    }
    // No close listener here: these streams usually end within the tick, and a write to a
    // stream whose client left returns false, which detaches it just the same.
    const h = headersOf(t);
    return t.deliver(frame, ids, info, { sse: ex.stream(200, h.sse, h.whole) });
  }

  /** GET: a session's standalone SSE stream, or the resumption of one of its streams. */
  async get(ex: HttpExchange): Promise<void> {
    const sessionId = ex.header('mcp-session-id');
    // The modern era has no GET stream; without a session there is nothing to stream.
    if (sessionId === undefined) return refuse(ex, 'postOnly');
    const entry = await this.sessionFor(ex, sessionId);
    if (!entry) return refuse(ex, 'sessionNotFound');
    const accept = ex.header('accept') ?? '';
    if (!accept.includes('text/event-stream') && !accept.includes('*/*')) {
      return refuse(ex, 'notAcceptableGet');
    }
    const t = entry.transport;
    t.lastActive = Date.now();
    entry.used = true;
    const lastEventId = ex.header('last-event-id');
    if (lastEventId === undefined && t.hasStandalone) {
      return refuse(ex, 'streamConflict');
    }
    if (lastEventId !== undefined && !t.ownsEvent(lastEventId)) {
      return refuse(ex, 'foreignEventId');
    }
    const open = (): ResponseStream => ex.stream(200, headersOf(t).sse);
    if (lastEventId !== undefined) {
      // The 200 goes out only once the event store knows the id, so an unknown one still gets a 400.
      let real: ResponseStream | undefined;
      const out: ResponseStream = {
        write: (chunk) => (real ??= open()).write(chunk),
        end: () => (real ??= open()).end(),
        get ended() {
          return real?.ended ?? false;
        },
      };
      ex.onClose(() => t.detach(out));
      if (await t.resume(lastEventId, out)) real ??= open();
      else if (real) real.end();
      else refuse(ex, 'unknownEventId');
      return;
    }
    t.openStandalone(openSessionStream(ex, t));
  }

  /** DELETE: ends a session. */
  async delete(ex: HttpExchange): Promise<void> {
    const sessionId = ex.header('mcp-session-id');
    if (sessionId === undefined) return refuse(ex, 'postOnly');
    const entry = await this.sessionFor(ex, sessionId);
    if (!entry) return refuse(ex, 'sessionNotFound');
    if (this.shared) await this.shared.end(sessionId);
    this.forget(sessionId, entry);
    await entry.connection.close();
    ex.respond(200, {});
  }

  private sweep(idleMs: number, initIdleMs: number): void {
    if (this.shared) return this.shared.sweep(idleMs);
    const now = Date.now();
    for (const [id, entry] of this.sessions) {
      const t = entry.transport;
      if (t.busy) continue;
      const limit = entry.used || t.hasStandalone ? idleMs : initIdleMs;
      if (t.lastActive < now - limit) {
        this.forget(id, entry);
        void entry.connection.close();
      }
    }
  }

  /** Closes every session and stops the idle sweeper. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.shared?.close();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.perClient.clear();
    await Promise.all(all.map((e) => e.connection.close()));
  }
}
