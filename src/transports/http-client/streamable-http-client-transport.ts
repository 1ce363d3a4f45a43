import {
  ErrorCode,
  InvalidMessage,
  LocalError,
  parseFrameBytes,
  serializeMessage,
} from '../../jsonrpc/index.js';
import type {
  JsonRpcMessage,
  JsonRpcRequest,
  RequestId,
  SendOptions,
  Transport,
  TransportSink,
} from '../../jsonrpc/index.js';
import { HttpError, requestFailed } from './errors.js';
import { Exchange } from './exchange.js';
import { HttpClientCore } from './http-client-core.js';
import { legacyHttpEra, modernHttpEra } from './http-client-era.js';
import { jsonRpcErrorIn, shouldFallBackToSse } from './http-fallback.js';
import type { HeadersOption } from './http.js';
import { withRequestHeaders } from './http.js';
import { modernVersionOf } from './modern-headers.js';
import { Cancel, bodyExcerpt, isOk, mediaType, replyError } from './requester.js';
import type { HeaderRecord, HttpReply, HttpRequester, RequesterWrapper } from './requester.js';
import { SseClientTransport } from './sse-client-transport.js';
import { deleteSession, openStandalone, streamEnded } from './streams.js';

export interface StreamableHttpClientTransportOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** The fetch for every request, GET and DELETE included (auth, proxies, tests). */
  fetch?: typeof fetch;
  /**
   * How HTTP requests are made, when not through `fetch`: `undiciRequester()` (undici
   * connection pools) is the default where `mcpkit/http-client` resolves to its Node
   * build and no `fetch` is given. Takes precedence over `fetch`.
   */
  requester?: HttpRequester;
  /**
   * Authorizes every request by wrapping the requester in use: pass an `OAuthClient` from
   * `mcpkit/auth`, and the bearer token and 401/403 recovery ride on the fast requester.
   */
  auth?: RequesterWrapper;
  /** Extra headers for every request, or a function computing them each time (fresh tokens). */
  headers?: HeadersOption;
  /** Legacy resumability: reconnection attempts per stream without an event in between (5). */
  maxReconnects?: number;
  /** Wait before reconnecting when the server sent no `retry:` field, in ms (1000). */
  defaultRetryMs?: number;
  /**
   * When the `initialize` POST is answered 400, 404 or 405 without a JSON-RPC error, switch
   * to the 2024-11-05 HTTP+SSE transport on the same URL and send `initialize` there.
   */
  legacySseFallback?: boolean;
  /** Told about things worth a log line that fail nothing. Defaults to `console.warn`. */
  onwarning?: (message: string, detail?: unknown) => void;
  /** Largest response accepted: a JSON body in bytes, or one SSE event in characters (16 Mi). */
  maxMessageBytes?: number;
}

type Outgoing = JsonRpcMessage | JsonRpcMessage[];

function requestsIn(message: Outgoing): JsonRpcRequest[] {
  const list = Array.isArray(message) ? message : [message];
  return list.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m);
}

/**
 * The client end of Streamable HTTP, on `fetch` alone (browsers, workers, Node). Every
 * message is its own POST; answers come back as JSON or as an SSE stream. The transport
 * learns the era from the traffic:
 * - an `initialize` request means legacy: the `Mcp-Session-Id` it returns and the
 *   negotiated `MCP-Protocol-Version` go on every later request, a standalone GET stream
 *   opens after `notifications/initialized`, broken streams resume with `Last-Event-ID`,
 *   and `close()` sends DELETE;
 * - a request whose `_meta` names a modern version (2026-07-28) means modern: the
 *   `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}` headers, and
 *   closing a request's stream is its cancellation ({@link abortRequest} returns true).
 *
 * Errors: a JSON-RPC error body (whatever the status) is the peer's answer and reaches the
 * session as that request's response (a `WireError`). Any other failure rejects the
 * promise `send()` returned for the request (it settles when its exchange ends) with a
 * `LocalError`, often an {@link HttpError} with the status and headers; the session
 * rejects the pending request with it as the cause. A 404 on a request carrying the session
 * id closes the transport with a {@link SessionExpiredError}: start a new session.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport({
 *   url: 'https://example.com/mcp',
 *   headers: async () => ({ authorization: `Bearer ${await token()}` }),
 *   legacySseFallback: true,
 * });
 * const session = new Session({ role: 'client', info: { name: 'me', version: '1.0.0' } });
 * await session.connect(transport);
 * await session.initialize();
 * const result = await session.request('tools/call', { name: 'echo', arguments: { text: 'hi' } });
 * ```
 */
export class StreamableHttpClientTransport implements Transport {
  private readonly core: HttpClientCore;
  private fallback: SseClientTransport | undefined;

  constructor(private readonly options: StreamableHttpClientTransportOptions) {
    this.core = new HttpClientCore(options);
  }

  /** `http`, or `sse` once the legacy fallback took over. */
  get kind(): string {
    return this.fallback ? 'sse' : 'http';
  }

  /** The legacy session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.core.sid;
  }

  /** The version sent as `MCP-Protocol-Version`: negotiated (legacy) or the requests' (modern). */
  get protocolVersion(): string | undefined {
    return this.core.era.protocolVersion(this.core);
  }

  /** HTTP requests in flight, streams included (diagnostics and leak checks). */
  get activeRequests(): number {
    return this.core.live.size + (this.fallback?.activeRequests ?? 0);
  }

  /** Responses the transport is still waiting for. */
  get pendingResponses(): number {
    return this.core.byId.size;
  }

  /** Starts, or after a close starts again from scratch (no session id, era unknown). */
  start(sink: TransportSink): void {
    if (this.core.state === 'open') {
      throw new LocalError('AlreadyConnected', 'This HTTP transport is already started');
    }
    this.fallback = undefined;
    this.core.reset(sink);
  }

  /**
   * POSTs one message (or a 2025-03-26 batch). For a notification or a response the
   * promise settles with the POST. For requests it settles when the exchange ends:
   * resolved once every response arrived (or the request was aborted), rejected with a
   * `LocalError` when the transport could not get them.
   */
  send(message: Outgoing, options?: SendOptions): Promise<void> {
    if (this.fallback) return this.fallback.send(message);
    const core = this.core;
    if (core.state !== 'open') {
      const code = core.state === 'new' ? 'NotConnected' : 'ConnectionClosed';
      return Promise.reject(new LocalError(code, 'The HTTP transport is not open'));
    }
    const requests = requestsIn(message);
    for (const r of requests) {
      if (r.method === 'initialize') {
        core.era = legacyHttpEra;
        core.sid = core.negotiated = undefined;
        continue;
      }
      const v = modernVersionOf(r);
      if (v !== undefined) {
        core.era = modernHttpEra;
        core.modernVersion = v;
      }
    }
    if (requests.length === 0) return this.postOnly(message);
    const ex = new Exchange();
    for (const r of requests) {
      ex.owed.set(r.id, r.method);
      core.byId.set(r.id, ex);
    }
    void this.post(ex, message, requests[0]!.method === 'initialize', options?.headers);
    return ex.promise;
  }

  /**
   * Modern era: aborts the request's HTTP exchange, which is its cancellation, and returns
   * true. Legacy era: returns false, so the session sends `notifications/cancelled`; the
   * transport stops owing the response (no resumption for it) but leaves the stream open.
   */
  abortRequest(id: RequestId): boolean {
    if (this.fallback) return false;
    const core = this.core;
    const cancels = core.era.abortCancels;
    const ex = core.byId.get(id);
    if (ex) {
      core.byId.delete(id);
      ex.owed.delete(id);
      if (ex.owed.size === 0) {
        if (cancels) ex.controller?.abort();
        core.settle(ex);
      }
    }
    return cancels;
  }

  /** Aborts every request and stream, then (legacy) DELETEs the session; 405 is fine. */
  async close(): Promise<void> {
    const core = this.core;
    if (this.fallback) {
      core.state = 'closed';
      return this.fallback.close();
    }
    if (core.state !== 'open') return;
    const ending = core.era.deletesSession && core.sid !== undefined;
    core.shutdown(undefined);
    if (ending) await deleteSession(core);
  }

  /** A notification or response: one POST, expecting 202. */
  private async postOnly(message: Outgoing): Promise<void> {
    const core = this.core;
    const controller = new Cancel();
    core.live.add(controller);
    try {
      const headers = await core.headersFor('POST', message);
      const body = serializeMessage(message);
      const reply = await core.request('POST', headers, controller, body);
      if (isOk(reply) && mediaType(reply) === 'text/event-stream') {
        reply.discard();
      } else {
        const text = await bodyExcerpt(reply);
        if (!isOk(reply)) {
          if (reply.status === 404 && headers['mcp-session-id'] !== undefined) core.expire();
          throw replyError('POST', core.url, reply, text);
        }
      }
      const m = Array.isArray(message) ? undefined : message;
      if (m && 'method' in m && m.method === 'notifications/initialized') openStandalone(core);
    } catch (e) {
      if (core.state !== 'open') {
        throw new LocalError('ConnectionClosed', 'The HTTP transport closed', { cause: e });
      }
      throw requestFailed('POST', core.url, e);
    } finally {
      core.live.delete(controller);
    }
  }

  /** A POST carrying requests, through to the end of its response stream. */
  private async post(
    ex: Exchange,
    message: Outgoing,
    initialize: boolean,
    extra: SendOptions['headers'],
  ): Promise<void> {
    const core = this.core;
    const controller = core.track(ex, false);
    let error: unknown;
    try {
      let headers = core.headersFor('POST', message);
      if (headers instanceof Promise) headers = await headers;
      withRequestHeaders(headers, extra);
      if (ex.settled) return;
      const reply = await core.request('POST', headers, controller, serializeMessage(message));
      const sid = initialize && core.era.keepsSessionId ? reply.header('mcp-session-id') : null;
      if (sid !== null) core.sid = sid;
      if (!isOk(reply)) {
        const body = await bodyExcerpt(reply);
        return await this.refused(ex, message, reply, body, headers, initialize);
      }
      const type = mediaType(reply);
      if (type === 'text/event-stream') {
        error = await core.consume(ex, reply);
      } else if (type === 'application/json') {
        this.deliverJson(ex, await reply.bytes(core.maxBytes));
      } else {
        const body = await bodyExcerpt(reply);
        const what = `answered ${ex.describe()} with ${type || 'no content type'}`;
        error = new HttpError('POST', core.url, reply.status, what, { body });
      }
    } catch (e) {
      error = requestFailed('POST', core.url, e);
    } finally {
      core.untrack(ex, controller);
    }
    streamEnded(core, ex, ex, error);
  }

  /** A JSON body: the answer. A broken one fails the request it answers, never gets answered. */
  private deliverJson(ex: Exchange, bytes: Uint8Array): void {
    let frame = parseFrameBytes(bytes);
    if (frame instanceof InvalidMessage) {
      const id = frame.id ?? ex.owed.keys().next().value ?? null;
      frame = new InvalidMessage(frame.error, id, false, true);
    }
    this.core.deliver(frame);
  }

  /** A non-2xx answer to a POST carrying requests. */
  private async refused(
    ex: Exchange,
    message: Outgoing,
    reply: HttpReply,
    body: string,
    headers: HeaderRecord,
    initialize: boolean,
  ): Promise<void> {
    const core = this.core;
    if (reply.status === 404 && headers['mcp-session-id'] !== undefined) return core.expire();
    const wire = jsonRpcErrorIn(body);
    const failure = replyError('POST', core.url, reply, body);
    if (initialize && !wire && this.options.legacySseFallback && shouldFallBackToSse(reply.status)) {
      return this.fallBack(ex, message, failure);
    }
    const only = ex.owed.size === 1 ? ex.owed.keys().next().value : undefined;
    // The peer's own answer to this request: a wire error, delivered as its response.
    if (wire && only !== undefined) return core.deliver({ jsonrpc: '2.0', id: only, error: wire });
    // A server that predates server/discover (a legacy Streamable HTTP server, or an HTTP+SSE
    // one that takes no POST here) refuses it at the HTTP level. That is its answer: the
    // method is not served, so an `auto` client goes on with `initialize` (and from there,
    // on the same statuses, to HTTP+SSE) instead of giving up on the connection.
    if (only !== undefined && ex.owed.get(only) === 'server/discover' && shouldFallBackToSse(reply.status)) {
      const status = `HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''}`;
      const error = {
        code: ErrorCode.MethodNotFound,
        message: `${status}: the server does not serve server/discover`,
      };
      return core.deliver({ jsonrpc: '2.0', id: only, error });
    }
    core.settle(ex, failure);
  }

  /** Switches to HTTP+SSE (2024-11-05) on the same URL and sends `initialize` there. */
  private async fallBack(ex: Exchange, message: Outgoing, first: HttpError): Promise<void> {
    const core = this.core;
    const sse = new SseClientTransport({
      url: core.url,
      requester: core.requester,
      headers: this.options.headers,
      onwarning: core.warn,
      maxMessageChars: core.maxBytes,
    });
    try {
      await sse.start(core.sink!);
    } catch (e) {
      const why = `${first.message}; the HTTP+SSE fallback failed too: ${(e as Error).message}`;
      return core.settle(ex, new LocalError('ConnectionClosed', why, { cause: e }));
    }
    if (core.state !== 'open' || ex.settled) return sse.close();
    this.fallback = sse;
    for (const id of ex.owed.keys()) core.byId.delete(id);
    try {
      await sse.send(message);
      core.settle(ex);
    } catch (e) {
      core.settle(ex, e);
    }
  }
}
