import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../jsonrpc/index.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  JsonRpcRequest,
  ParsedFrame,
  RequestId,
} from '../../jsonrpc/index.js';
import { MetaKey } from '../../protocol/meta-keys.js';
import { principalKey } from '../../protocol/principal.js';
import { allowsBatch, eraOf, isLegacyVersion } from '../../protocol/versions.js';
import type { EventStore } from './event-store.js';
import { MemoryEventStore } from './event-store.js';
import type { HttpExchange, ResponseStream } from './exchange.js';
import { checkModernHeaders } from './header-checks.js';
import { HostGuard } from './host-guard.js';
import type { HostGuardOptions } from './host-guard.js';
import { LegacySessionTransport } from './legacy-session.js';
import type { JsonReply } from './legacy-session.js';
import { ModernExchangeTransport } from './modern-exchange.js';
import { LegacySseEndpoints } from './sse-endpoints.js';
import { SSE_HEADERS } from './sse-format.js';
import { refuse, refuseNonJson } from './refusals.js';
import { screenFrame } from './request-authorizer.js';
import { sendError } from './respond.js';
import { SharedSessions } from './shared-sessions.js';
import type { SessionEntry } from './shared-sessions.js';
import { MemoryLegacySessionStore } from './legacy-session-store.js';
import type { LegacySessionStore, SessionLimits } from './legacy-session-store.js';
import type { SharedStores } from './shared-state.js';
import type { McpConnector } from './respond.js';

export interface McpHttpOptions extends HostGuardOptions {
  /** The MCP endpoint path (default `/mcp`). */
  path?: string;
  /** The host the server is bound to; decides the Host/Origin defaults (default 127.0.0.1). */
  bindHost?: string;
  /** Largest request body in bytes (default 4 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
  /**
   * How legacy POSTs that carry requests are answered (default `sse`). In `json` mode a POST
   * whose handler sends a related message before its answer (a server-to-client request,
   * progress, a log) is answered on SSE, as in `sse` mode; every other POST gets one JSON body.
   */
  responseMode?: 'sse' | 'json';
  /** Legacy sessions idle longer than this are closed (default 30 minutes). */
  sessionIdleMs?: number;
  /**
   * At most this many legacy sessions at once (default 10,000). At the cap the least
   * recently used idle session is closed to make room; only when every session is busy
   * does a newcomer get 503.
   */
  maxSessions?: number;
  /** A session that did nothing after `initialize` is closed after this long (default 30 s). */
  sessionInitIdleMs?: number;
  /**
   * At most this many legacy sessions per client (its authenticated principal, else its
   * network address; default 1,000): its least recently used idle one makes room, or 429.
   */
  maxSessionsPerClient?: number;
  /** Requests one legacy session may have in flight (default 1,000); more get a JSON-RPC error. */
  maxInFlightPerSession?: number;
  /** Most messages in one JSON-RPC batch (default 100); larger batches get 400. */
  maxBatchSize?: number;
  /**
   * Bytes an SSE stream may have waiting for a client that does not read (default 4 MiB);
   * past that the stream is dropped, and a resumable client comes back with Last-Event-ID.
   */
  maxStreamBufferBytes?: number;
  /** How long the events of a stream whose client went away are kept for it to resume (default 60 s). */
  resumeWindowMs?: number;
  /** Where resumable SSE events are kept (default: in memory, bounded). */
  eventStore?: EventStore;
  /** The `retry` hint in priming events, in ms (default 1000). */
  retryMs?: number;
  /** Keep-alive comments on long-lived streams (legacy GET, `/sse`, modern listen), in ms (default 15 s). */
  keepAliveMs?: number;
  /** Serve the deprecated 2024-11-05 HTTP+SSE transport at these paths (default `/sse` and `/messages`; null to turn off). */
  legacySse?: { ssePath: string; messagesPath: string } | null;
  /**
   * State shared with other nodes behind a load balancer (sessions, resumable events,
   * answers, change events, the MRTR key), such as `connectRedisStores(url)` makes. Without
   * it every node is on its own.
   */
  stores?: SharedStores;
}

/** The frame info of a request without auth details: nothing, shared. */
const NO_INFO: FrameInfo = Object.freeze({});

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

/** The Accept value last found to take both types: a client sends the same one every time. */
let acceptedBoth = 'application/json, text/event-stream';

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  if (accept === acceptedBoth) return true;
  const a = accept.toLowerCase();
  const ok = a.includes('*/*') || (a.includes('application/json') && a.includes('text/event-stream'));
  if (ok) acceptedBoth = accept;
  return ok;
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

function isModernRequest(frame: ParsedFrame): frame is JsonRpcRequest {
  if (frame instanceof InvalidMessage || frame instanceof ParsedBatch || !('method' in frame)) return false;
  // A notification carrying `_meta` gets no answer from a server: it is accepted below (202),
  // never handled as a request whose response would never come.
  if (!('id' in frame)) return false;
  const meta = frame.params?._meta;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, MetaKey.ProtocolVersion);
}

/**
 * The Streamable HTTP server core, for both eras on one endpoint: legacy sessions
 * (2025-03-26 to 2025-11-25) with resumable SSE, stateless modern requests (2026-07-28),
 * and the deprecated HTTP+SSE transport (2024-11-05). It works on {@link HttpExchange}, so
 * any runtime binding can drive it.
 */
export class McpHttpHandler {
  private readonly path: string;
  private readonly guard: HostGuard;
  private readonly maxBody: number;
  /** Live legacy sessions, least recently used first. */
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly perClient = new Map<string, number>();
  private readonly store: EventStore;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly sse: LegacySseEndpoints | undefined;
  private readonly sessionStore: LegacySessionStore;
  private readonly shared: SharedSessions | undefined;
  private readonly limits: SessionLimits;
  /** The id of the session last moved to the end of `sessions` (most recently used). */
  private mru: string | undefined;
  private closed = false;

  constructor(
    private readonly connector: McpConnector,
    private readonly options: McpHttpOptions = {},
  ) {
    for (const key of [
      'maxBodyBytes',
      'sessionIdleMs',
      'maxSessions',
      'retryMs',
      'keepAliveMs',
      'sessionInitIdleMs',
      'maxSessionsPerClient',
      'maxInFlightPerSession',
      'maxBatchSize',
      'maxStreamBufferBytes',
      'resumeWindowMs',
    ] as const) {
      const v = options[key];
      // A zero, negative or NaN interval would turn into a 1 ms timer, or a limit into none.
      if (v !== undefined && !(typeof v === 'number' && v > 0 && Number.isFinite(v))) {
        throw new LocalError('InvalidConfiguration', `${key} must be a positive number, not ${String(v)}`);
      }
    }
    this.path = options.path ?? '/mcp';
    this.guard = new HostGuard(options.bindHost ?? '127.0.0.1', options);
    this.maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.store = options.eventStore ?? options.stores?.events ?? new MemoryEventStore();
    const idle = options.sessionIdleMs ?? 30 * 60_000;
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
    const initIdle = Math.min(idle, options.sessionInitIdleMs ?? 30_000);
    this.sweeper = setInterval(
      () => this.sweep(idle, initIdle),
      Math.max(100, Math.min(60_000, idle, Math.ceil(initIdle / 2))),
    );
    this.sweeper.unref?.();
    const sse =
      options.legacySse === undefined ? { ssePath: '/sse', messagesPath: '/messages' } : options.legacySse;
    this.sse = sse
      ? new LegacySseEndpoints(
          connector,
          sse,
          this.maxBody,
          options.keepAliveMs ?? 15_000,
          options.stores?.bus,
        )
      : undefined;
  }

  /** Live legacy sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * The DNS-rebinding check alone: answers 403 for a Host or Origin the guard refuses, and
   * says whether the request may go on. The runtime bindings call it before authentication,
   * so a request from a foreign page is refused as such (403), never challenged (401).
   */
  admit(ex: HttpExchange): boolean {
    const refused = this.guard.check(ex.header('host'), ex.header('origin'));
    if (refused === undefined) return true;
    refuse(ex, 'forbiddenHost', refused);
    return false;
  }

  /** Serves one HTTP exchange (Host and Origin checked first). Never throws: every failure is an HTTP answer. */
  async handle(ex: HttpExchange): Promise<void> {
    try {
      if (!this.admit(ex)) return;
      if (this.closed) return refuse(ex, 'shuttingDown');
      if (ex.path === this.path) {
        if (ex.method === 'POST') return await this.post(ex);
        if (ex.method === 'GET') return await this.get(ex);
        if (ex.method === 'DELETE') return await this.delete(ex);
        return refuse(ex, 'methodNotAllowed');
      }
      if (this.sse && (await this.sse.handle(ex))) return;
      refuse(ex, 'notFound', ex.path);
    } catch (e) {
      if (e instanceof LocalError && e.code === 'StoreUnavailable') {
        // The shared state is out of reach: a clear, retryable refusal rather than a hang.
        return refuse(ex, 'storeUnavailable', e.message);
      }
      try {
        refuse(ex, 'internal');
      } catch {
        // The response had already started; nothing more can be said.
      }
      console.error('[mcpkit] HTTP handler failed', e);
    }
  }

  private async post(ex: HttpExchange): Promise<void> {
    if (refuseNonJson(ex)) return;
    if (!acceptsBoth(ex.header('accept'))) {
      return refuse(ex, 'notAcceptablePost');
    }
    const length = Number(ex.header('content-length') ?? '0');
    if (length > this.maxBody) return refuse(ex, 'payloadTooLarge', this.maxBody);
    const body = await ex.readBody(this.maxBody);
    if (!body.ok) {
      if (body.reason === 'too-large') return refuse(ex, 'payloadTooLarge', this.maxBody);
      if (body.reason === 'invalid-utf8') return refuse(ex, 'invalidUtf8');
      return;
    }
    const frame = parseFrame(body.text);
    if (frame instanceof InvalidMessage) {
      return sendError(ex, 400, frame.error.code, frame.error.message, frame.id);
    }
    if (isModernRequest(frame)) return this.modern(ex, frame);
    if (
      !(frame instanceof ParsedBatch) &&
      'method' in frame &&
      !('id' in frame) &&
      !ex.header('mcp-session-id')
    ) {
      // A notification outside any session (modern clients send none on HTTP): accepted, dropped.
      return ex.respond(202, {});
    }
    const sessionId = ex.header('mcp-session-id');
    if (sessionId === undefined && isModernVersionHeader(ex.header('mcp-protocol-version'))) {
      // The header says 2026-07-28 but the body has no version: invalid params, not a missing session.
      if (
        !(frame instanceof ParsedBatch) &&
        'method' in frame &&
        'id' in frame &&
        frame.method !== 'initialize'
      ) {
        return refuse(
          ex,
          'modernMetaMissing',
          ex.header('mcp-protocol-version') ?? '',
          (frame as JsonRpcRequest).id,
        );
      }
    }
    if (sessionId === undefined) {
      const isInit = !(frame instanceof ParsedBatch) && 'method' in frame && frame.method === 'initialize';
      if (!isInit) {
        return refuse(ex, 'noSession');
      }
      const screened = screenFrame(ex, frame, this.connector, 'legacy');
      if (screened === true || (screened !== false && (await screened))) return;
      return this.initialize(ex, frame);
    }
    // Only a shared store answers asynchronously: no await (a microtask hop) for a local session.
    const found = this.sessionFor(ex, sessionId);
    const entry = found instanceof Promise ? await found : found;
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
    const screened = screenFrame(ex, frame, this.connector, 'legacy');
    if (screened === true || (screened !== false && (await screened))) return;
    return this.deliverLegacy(ex, entry, frame, sessionId);
  }

  private async initialize(ex: HttpExchange, frame: ParsedFrame): Promise<void> {
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
    return this.deliverLegacy(ex, entry, frame as JsonRpcMessage, id);
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
    return entry;
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

  private async deliverLegacy(
    ex: HttpExchange,
    entry: SessionEntry,
    frame: JsonRpcMessage | ParsedBatch,
    sessionId: string,
  ): Promise<void> {
    const t = entry.transport;
    if (this.shared) {
      await this.shared.record(sessionId, entry, frame);
      const here = this.shared.route(sessionId, entry, frame);
      if (here === undefined) return ex.respond(202, { 'mcp-session-id': sessionId });
      frame = here;
    }
    const ids = requestIdsOf(frame);
    if (!entry.used && !isInitializeTraffic(frame)) entry.used = true;
    const maxInFlight = this.options.maxInFlightPerSession ?? 1000;
    if (ids.length > 0 && t.inFlight + ids.length > maxInFlight) {
      // One answer for the POST: a single request's id, or none for a batch.
      return refuse(ex, 'tooManyInFlight', maxInFlight, ids.length === 1 ? ids[0]! : null, {
        'mcp-session-id': sessionId,
      });
    }
    const info = ex.authInfo === undefined ? NO_INFO : { authInfo: ex.authInfo };
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

  private async modern(ex: HttpExchange, msg: JsonRpcRequest): Promise<void> {
    const refused = checkModernHeaders(
      msg,
      (n) => ex.header(n),
      this.connector.toolInputSchema?.bind(this.connector),
    );
    if (refused) return sendError(ex, 400, refused.code, refused.message, msg.id);
    const screened = screenFrame(ex, msg, this.connector, 'modern');
    if (screened === true || (screened !== false && (await screened))) return;
    const transport = new ModernExchangeTransport(ex, this.options.keepAliveMs ?? 15_000, {});
    await this.connector.connect(transport);
    const sink = transport.receiver;
    if (!sink) return refuse(ex, 'internal', undefined, msg.id);
    // The client closing the stream is cancellation: closing the transport closes this
    // request's session, which cancels the handler. No AbortController per request: the
    // handler's own signal is made only if it asks for one.
    ex.onClose(() => void transport.close());
    sink.frame(msg, ex.authInfo === undefined ? NO_INFO : { authInfo: ex.authInfo });
  }

  private async get(ex: HttpExchange): Promise<void> {
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

  private async delete(ex: HttpExchange): Promise<void> {
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
    clearInterval(this.sweeper);
    this.shared?.close();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.perClient.clear();
    await Promise.all(all.map((e) => e.connection.close()));
    await this.sse?.close();
  }
}
