import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../jsonrpc/index.js';
import type { JsonRpcRequest, ParsedFrame } from '../../jsonrpc/index.js';
import { MetaKey } from '../../protocol/meta-keys.js';
import type { EventStore } from './event-store.js';
import { MemoryEventStore } from './event-store.js';
import type { HttpExchange } from './exchange.js';
import { HostGuard } from './host-guard.js';
import type { HostGuardOptions } from './host-guard.js';
import { LegacyEndpoint } from './legacy-endpoint.js';
import { ModernEndpoint } from './modern-exchange.js';
import { LegacySseEndpoints } from './sse-endpoints.js';
import { refuse, refuseNonJson } from './refusals.js';
import { sendError } from './respond.js';
import type { SharedStores } from './shared-state.js';
import type { McpConnector } from './respond.js';
import { ServerCardEndpoint } from './server-card.js';
import type { ServerCardOptions } from './server-card.js';

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
  /**
   * Where the endpoint reports its own failures (a handler that threw, a shared store out of
   * reach): a pino-compatible logger, or a function as the server's `logger` option takes;
   * `false` for none (default: stderr).
   */
  logger?: HttpLogger | false;
  /**
   * Publishes a Server Card (SEP-2127, a draft extension; off by default) at
   * `<path>/server-card`, and an AI Catalog pointing at it at `/.well-known/ai-catalog.json`,
   * built from the server's `info`; an object overrides or adds members (`name` in
   * reverse-DNS form, `description`, the public `url`, ...). Both are public: answered after
   * the Host check but before any authentication, with `Access-Control-Allow-Origin: *`.
   */
  serverCard?: boolean | ServerCardOptions;
}

/** The logger shapes the HTTP endpoint takes: pino's (`warn`/`error`), or a function. */
export type HttpLogger =
  | { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void }
  | ((level: 'debug' | 'warning' | 'error', message: string, detail?: unknown) => void);

/** Shared-store outages are reported at most this often: every request would say the same. */
const STORE_REPORT_MS = 10_000;

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

function isModernRequest(frame: ParsedFrame): frame is JsonRpcRequest {
  if (frame instanceof InvalidMessage || frame instanceof ParsedBatch || !('method' in frame)) return false;
  // A notification carrying `_meta` gets no answer from a server: it is accepted by the
  // legacy endpoint (202), never handled as a request whose response would never come.
  if (!('id' in frame)) return false;
  const meta = frame.params?._meta;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, MetaKey.ProtocolVersion);
}

/** The options that must be positive numbers when given. */
const POSITIVE = [
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
] as const;

/**
 * The Streamable HTTP server, for both eras on one endpoint: legacy sessions (2025-03-26 to
 * 2025-11-25) with resumable SSE, stateless modern requests (2026-07-28), and the
 * deprecated HTTP+SSE transport (2024-11-05). It is the router: it checks Host and Origin,
 * reads and parses a POST, and hands it to the `ModernEndpoint` or the
 * `LegacyEndpoint` by the era the body names. It works on {@link HttpExchange}, so any
 * runtime binding can drive it. Construction starts no timer and draws no random number:
 * on Cloudflare Workers it may be built at global scope.
 */
export class McpHttpHandler {
  private readonly path: string;
  private readonly guard: HostGuard;
  private readonly maxBody: number;
  private readonly modern: ModernEndpoint;
  private readonly legacy: LegacyEndpoint;
  private readonly sse: LegacySseEndpoints | undefined;
  private closed = false;
  private readonly logger: HttpLogger | false;
  private storeReportedAt = -Infinity;
  private storeSuppressed = 0;
  /** The Server Card endpoint, when `serverCard` is on. */
  private readonly serverCard: ServerCardEndpoint | undefined;

  constructor(connector: McpConnector, options: McpHttpOptions = {}) {
    for (const key of POSITIVE) {
      const v = options[key];
      // A zero, negative or NaN interval would turn into a 1 ms timer, or a limit into none.
      if (v !== undefined && !(typeof v === 'number' && v > 0 && Number.isFinite(v))) {
        throw new LocalError('InvalidConfiguration', `${key} must be a positive number, not ${String(v)}`);
      }
    }
    this.logger =
      options.logger ?? ((_level, message, detail) => console.error(`[mcpkit] ${message}`, detail));
    this.path = options.path ?? '/mcp';
    this.guard = new HostGuard(options.bindHost ?? '127.0.0.1', options);
    this.maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
    const keepAliveMs = options.keepAliveMs ?? 15_000;
    const store: EventStore = options.eventStore ?? options.stores?.events ?? new MemoryEventStore();
    this.modern = new ModernEndpoint(connector, keepAliveMs);
    this.legacy = new LegacyEndpoint(connector, store, options);
    const sse =
      options.legacySse === undefined ? { ssePath: '/sse', messagesPath: '/messages' } : options.legacySse;
    this.sse = sse
      ? new LegacySseEndpoints(connector, sse, this.maxBody, keepAliveMs, options.stores?.bus)
      : undefined;
    const card = options.serverCard;
    this.serverCard =
      card === undefined || card === false
        ? undefined
        : new ServerCardEndpoint(connector.info, card === true ? {} : card, this.path, sse?.ssePath);
  }

  /**
   * Whether `path` is a public document (the Server Card or the AI Catalog, with
   * `serverCard`): the runtime bindings serve it without authentication.
   */
  isPublicPath(path: string): boolean {
    return this.serverCard?.owns(path) ?? false;
  }

  /** Live legacy sessions. */
  get sessionCount(): number {
    return this.legacy.sessionCount;
  }

  /**
   * The DNS-rebinding check alone: answers 403 for a Host or Origin the guard refuses, and
   * says whether the request may go on. The runtime bindings call it before authentication,
   * so a request from a foreign page is refused as such (403), never challenged (401).
   */
  admit(ex: HttpExchange): boolean {
    const host = ex.header('host');
    const origin = ex.header('origin');
    // The usual request: the Host last allowed again, and no Origin (not from a browser).
    if (origin === undefined && host === this.guard.lastHost && host !== undefined) return true;
    const refused = this.guard.check(host, origin);
    if (refused === undefined) return true;
    refuse(ex, 'forbiddenHost', refused);
    return false;
  }

  /** Serves one HTTP exchange (Host and Origin checked first). Never throws: every failure is an HTTP answer. */
  async handle(ex: HttpExchange): Promise<void> {
    try {
      if (this.serverCard?.owns(ex.path)) return this.card(ex, this.serverCard);
      if (!this.admit(ex)) return;
      if (this.closed) return refuse(ex, 'shuttingDown');
      if (ex.path === this.path) {
        if (ex.method === 'POST') return await this.post(ex);
        if (ex.method === 'GET') return await this.legacy.get(ex);
        if (ex.method === 'DELETE') return await this.legacy.delete(ex);
        return refuse(ex, 'methodNotAllowed');
      }
      if (this.sse && (await this.sse.handle(ex))) return;
      refuse(ex, 'notFound', ex.path);
    } catch (e) {
      if (e instanceof LocalError && e.code === 'StoreUnavailable') {
        // The shared state is out of reach: a clear, retryable refusal rather than a hang.
        this.reportStoreFailure(e);
        return refuse(ex, 'storeUnavailable', e.message);
      }
      try {
        refuse(ex, 'internal');
      } catch {
        // The response had already started; nothing more can be said.
      }
      this.report('error', 'HTTP handler failed', { err: e, method: ex.method, path: ex.path });
    }
  }

  private report(level: 'warning' | 'error', message: string, fields: Record<string, unknown>): void {
    const log = this.logger;
    if (log === false) return;
    if (typeof log === 'function') log(level, message, fields.err);
    else if (level === 'error') log.error(fields, message);
    else log.warn(fields, message);
  }

  private reportStoreFailure(e: LocalError): void {
    const now = Date.now();
    if (now - this.storeReportedAt < STORE_REPORT_MS) {
      this.storeSuppressed++;
      return;
    }
    const suppressed = this.storeSuppressed;
    this.storeReportedAt = now;
    this.storeSuppressed = 0;
    this.report('warning', 'Shared store unavailable; answering 503', { err: e, suppressed });
  }

  /**
   * The card is public and read by browsers on any page (CORS `*`): only the Host is
   * checked (DNS rebinding), not the Origin.
   */
  private card(ex: HttpExchange, endpoint: ServerCardEndpoint): void {
    const refused = this.guard.check(ex.header('host'), undefined);
    if (refused !== undefined) return refuse(ex, 'forbiddenHost', refused);
    endpoint.handle(ex);
  }

  /** A POST's checks common to both eras (type, Accept, size, UTF-8, JSON-RPC), then its era's endpoint. */
  private async post(ex: HttpExchange): Promise<void> {
    // The usual Content-Type is checked here; any other goes to refuseNonJson's full check.
    if (ex.header('content-type') !== 'application/json' && refuseNonJson(ex)) return;
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
    if (isModernRequest(frame)) return this.modern.post(ex, frame);
    return this.legacy.post(ex, frame);
  }

  /** Closes every session and stops the idle sweeper. */
  async close(): Promise<void> {
    this.closed = true;
    await this.legacy.close();
    await this.sse?.close();
  }
}
