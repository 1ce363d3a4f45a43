import { LocalError, parseFrame, serializeMessage } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';
import { HttpError, displayUrl, requestFailed } from './errors.js';
import { callerHeaders, defaultWarn, requesterFor } from './http.js';
import type { HeadersOption } from './http.js';
import { Cancel, bodyExcerpt, isOk, mediaType, replyError, requestSameOrigin } from './requester.js';
import type { HttpReply, HttpRequester, RequesterWrapper } from './requester.js';
import { DEFAULT_MAX_EVENT_CHARS, readSse } from './sse-reader.js';
import type { EventSourceMessage } from './sse-reader.js';

export interface SseClientTransportOptions {
  /** The SSE URL (a GET on it opens the stream). */
  url: string | URL;
  /** The fetch to use for every request (auth, proxies, tests). Defaults to the global one. */
  fetch?: typeof fetch;
  /** How HTTP requests are made, when not through `fetch` (see `nodeRequester`). Takes precedence over `fetch`. */
  requester?: HttpRequester;
  /** Authorizes every request by wrapping the requester in use (an `OAuthClient`). */
  auth?: RequesterWrapper;
  /** Extra headers for every request, or a function computing them each time. */
  headers?: HeadersOption;
  /** Told about things worth a log line that fail nothing. Defaults to `console.warn`. */
  onwarning?: (message: string, detail?: unknown) => void;
  /** Largest SSE event accepted, in characters (16 Mi). */
  maxMessageChars?: number;
}

/**
 * The client end of the deprecated HTTP+SSE transport of protocol 2024-11-05: a GET on the
 * SSE URL opens a stream whose first event, `endpoint`, names the URL to POST messages to;
 * everything the server says arrives as `message` events. `start()` resolves once the
 * endpoint is known. An endpoint on another origin than the SSE URL is refused.
 *
 * Prefer {@link StreamableHttpClientTransport} with `legacySseFallback: true`, which uses
 * this transport only when the server speaks nothing newer.
 *
 * @example
 * ```ts
 * const transport = new SseClientTransport({ url: 'http://127.0.0.1:3001/sse' });
 * const session = new Session({ role: 'client', info: { name: 'me', version: '1.0.0' } });
 * await session.connect(transport);
 * await session.initialize({ protocolVersion: '2024-11-05' });
 * ```
 */
export class SseClientTransport implements Transport {
  readonly kind = 'sse';
  private readonly url: URL;
  private readonly requester: HttpRequester;
  private readonly warn: (message: string, detail?: unknown) => void;
  private sink: TransportSink | undefined;
  private state: 'new' | 'starting' | 'open' | 'closed' = 'new';
  private endpointUrl: URL | undefined;
  private stream: Cancel | undefined;
  private readonly posts = new Set<Cancel>();
  private ready: { resolve: () => void; reject: (e: unknown) => void } | undefined;

  constructor(private readonly options: SseClientTransportOptions) {
    this.url = new URL(options.url);
    this.requester = requesterFor(options);
    this.warn = options.onwarning ?? defaultWarn;
  }

  /** The URL messages are POSTed to, once the server named it. */
  get endpoint(): URL | undefined {
    return this.endpointUrl;
  }

  /** HTTP requests in flight, the stream included (for diagnostics and leak checks). */
  get activeRequests(): number {
    return this.posts.size + (this.stream ? 1 : 0);
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.state === 'starting' || this.state === 'open') {
      throw new LocalError('AlreadyConnected', 'This SSE transport is already started');
    }
    this.sink = sink;
    this.state = 'starting';
    this.endpointUrl = undefined;
    const controller = new Cancel();
    this.stream = controller;
    let reply: HttpReply;
    try {
      const headers = await callerHeaders(this.options.headers);
      headers.accept = 'text/event-stream';
      reply = await requestSameOrigin(this.requester, {
        method: 'GET',
        url: this.url,
        headers,
        cancel: controller,
      });
    } catch (e) {
      this.stream = undefined;
      this.state = 'closed';
      throw requestFailed('GET', this.url, e);
    }
    if (!isOk(reply) || mediaType(reply) !== 'text/event-stream') {
      this.stream = undefined;
      this.state = 'closed';
      const text = await bodyExcerpt(reply);
      throw isOk(reply)
        ? new HttpError('GET', this.url, reply.status, 'did not open an SSE stream', {
            headers: reply.headers(),
            body: text,
          })
        : replyError('GET', this.url, reply, text);
    }
    await new Promise<void>((resolve, reject) => {
      this.ready = { resolve, reject };
      void this.read(reply, controller);
    });
  }

  private async read(reply: HttpReply, controller: Cancel): Promise<void> {
    const error = await readSse(
      reply,
      { event: (ev) => this.onEvent(ev, controller) },
      this.options.maxMessageChars ?? DEFAULT_MAX_EVENT_CHARS,
    );
    if (this.stream === controller) this.stream = undefined;
    if (this.state === 'closed') return;
    const what = this.endpointUrl ? 'The SSE stream ended' : 'The SSE stream ended before its endpoint event';
    this.fail(new LocalError('ConnectionClosed', `${what} (${displayUrl(this.url)})`, { cause: error }));
  }

  private onEvent(ev: EventSourceMessage, controller: Cancel): void {
    if (this.state === 'closed') return;
    if (ev.event === 'endpoint') {
      if (this.endpointUrl) {
        this.warn('Ignored a second endpoint event on the SSE stream');
        return;
      }
      let url: URL;
      try {
        url = new URL(ev.data.trim(), this.url);
      } catch {
        controller.abort();
        this.fail(new LocalError('InvalidMessage', `The endpoint event is not a URL: ${ev.data}`));
        return;
      }
      if (url.origin !== this.url.origin) {
        controller.abort();
        this.fail(
          new LocalError(
            'InvalidMessage',
            `The endpoint event names another origin (${url.origin}) than the SSE URL (${this.url.origin}); refused`,
          ),
        );
        return;
      }
      this.endpointUrl = url;
      this.state = 'open';
      this.ready?.resolve();
      this.ready = undefined;
      return;
    }
    if ((ev.event !== undefined && ev.event !== 'message') || ev.data === '') return;
    if (!this.endpointUrl) {
      this.warn('Dropped a message that came before the endpoint event');
      return;
    }
    try {
      this.sink?.frame(parseFrame(ev.data));
    } catch (e) {
      this.warn('The session failed to take a message', e);
    }
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    const endpoint = this.endpointUrl;
    if (this.state !== 'open' || !endpoint) {
      throw new LocalError(
        this.state === 'closed' ? 'ConnectionClosed' : 'NotConnected',
        'The SSE transport is not open',
      );
    }
    const controller = new Cancel();
    this.posts.add(controller);
    try {
      const headers = await callerHeaders(this.options.headers);
      headers['content-type'] = 'application/json';
      const reply = await requestSameOrigin(this.requester, {
        method: 'POST',
        url: endpoint,
        headers,
        body: serializeMessage(message),
        cancel: controller,
      });
      const text = await bodyExcerpt(reply);
      if (!isOk(reply)) throw replyError('POST', endpoint, reply, text);
    } catch (e) {
      if (this.isClosed()) throw new LocalError('ConnectionClosed', 'The SSE transport closed');
      throw requestFailed('POST', endpoint, e);
    } finally {
      this.posts.delete(controller);
    }
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Ends the stream (the server drops the session) and every POST in flight. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.abortAll();
    this.ready?.reject(new LocalError('ConnectionClosed', 'The SSE transport closed while starting'));
    this.ready = undefined;
    this.sink?.closed();
  }

  private fail(error: LocalError): void {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    this.abortAll();
    if (this.ready) {
      this.ready.reject(error);
      this.ready = undefined;
    }
    if (wasOpen) this.sink?.closed(error);
  }

  private abortAll(): void {
    this.stream?.abort();
    this.stream = undefined;
    for (const c of this.posts) c.abort();
  }
}
