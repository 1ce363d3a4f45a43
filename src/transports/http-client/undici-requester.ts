/**
 * The fastest Node binding of the client transports: undici's dispatcher API, the HTTP
 * engine under Node's own `fetch`, without fetch's web objects. It costs about half of
 * `node:http` per request here (and a fifth of `fetch`). Node only.
 */
import type { Dispatcher } from 'undici';
import { LocalError } from '../../jsonrpc/index.js';
import { Utf8Feed, unsupportedScheme } from './requester.js';
import { nonNodeRuntime } from './runtime.js';
import type { Cancel, HttpReply, HttpRequest, HttpRequester } from './requester.js';

export interface UndiciRequesterOptions {
  /** The dispatcher (an undici `Agent`, `Pool`, `ProxyAgent`…). Defaults to a shared keep-alive `Agent`. */
  dispatcher?: Dispatcher;
}

/** Bytes a reply buffers before anyone reads it; past this the socket is paused. */
const UNREAD_LIMIT = 1024 * 1024;

/** The shared keep-alive Agent; undici loads on the first request that needs it, not at import. */
let shared: Dispatcher | undefined;
let loading: Promise<Dispatcher> | undefined;

function sharedAgent(): Promise<Dispatcher> {
  return (loading ??= import('undici').then(({ Agent }) => (shared = new Agent())));
}

type Sink = (chunk: Buffer) => boolean | void;

/** One request's dispatch handler, and its reply once the head arrived. */
class UndiciReply implements HttpReply, Dispatcher.DispatchHandlers {
  status = 0;
  statusText = '';
  private raw: Buffer[] = [];
  private names: Record<string, string> | undefined;
  private resumeSocket: (() => void) | undefined;
  /** Body chunks that came before a reader. */
  private early: Buffer[] | undefined;
  private earlyBytes = 0;
  private sink: Sink | undefined;
  private finish: ((error?: unknown) => void) | undefined;
  private ended = false;
  private failure: unknown;
  private taken = false;
  private abortFn: ((reason?: Error) => void) | undefined;

  constructor(
    private readonly cancel: Cancel,
    private readonly settle: (reply: UndiciReply | undefined, error?: unknown) => void,
  ) {}

  // ---- the dispatch handler

  onConnect(abort: (err?: Error) => void): void {
    this.abortFn = abort;
    if (this.cancel.aborted) abort(this.cancel.reason as Error);
  }

  onHeaders(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    if (status < 200) return true; // 1xx: the real head follows.
    this.status = status;
    this.statusText = statusText;
    this.raw = headers;
    this.resumeSocket = resume;
    this.settle(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.sink) {
      if (this.sink(chunk) === false) {
        this.stop();
        return false;
      }
      return true;
    }
    (this.early ??= []).push(chunk);
    this.earlyBytes += chunk.length;
    return this.earlyBytes < UNREAD_LIMIT;
  }

  onComplete(): void {
    this.ended = true;
    this.cancel.onAbort(undefined);
    this.finish?.();
  }

  onError(err: Error): void {
    const error = this.cancel.aborted ? this.cancel.reason : err;
    if (this.status === 0) {
      this.settle(undefined, error);
      return;
    }
    // Ended already: this is the error of our own abort in stop(), which settles the reader.
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.finish?.(error);
  }

  /**
   * The request's Cancel fired: abort it now; when it is still waiting for a connection,
   * reject at once, and onConnect aborts it when undici gets to it.
   */
  onAbortRequested(reason: unknown): void {
    if (this.abortFn) this.abortFn(reason as Error);
    else this.settle(undefined, reason);
  }

  // ---- the reply

  header(name: string): string | null {
    if (this.names === undefined) {
      const names: Record<string, string> = Object.create(null) as Record<string, string>;
      const raw = this.raw;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const key = raw[i]!.toString('latin1').toLowerCase();
        const value = raw[i + 1]!.toString('latin1');
        names[key] = names[key] === undefined ? value : `${names[key]}, ${value}`;
      }
      this.names = names;
    }
    return this.names[name] ?? null;
  }

  headers(): Headers {
    const out = new Headers();
    const raw = this.raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      try {
        out.append(raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1'));
      } catch {
        // A header the web Headers refuses stays out of the error's copy.
      }
    }
    return out;
  }

  private stop(): void {
    this.ended = true;
    this.cancel.onAbort(undefined);
    this.abortFn?.(new LocalError('ConnectionClosed', 'The reader stopped reading'));
    this.finish?.();
  }

  private consume(sink: Sink): Promise<void> {
    if (this.taken) return Promise.reject(new LocalError('InvalidMessage', 'The body was read already'));
    this.taken = true;
    const early = this.early;
    this.early = undefined;
    if (early) {
      for (const chunk of early) {
        if (sink(chunk) === false) {
          if (!this.ended) this.stop();
          return Promise.resolve();
        }
      }
    }
    if (this.ended) return this.failure === undefined ? Promise.resolve() : Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.sink = sink;
      this.finish = (error) => {
        this.finish = undefined;
        if (error === undefined) resolve();
        else reject(error);
      };
      if (this.earlyBytes >= UNREAD_LIMIT) this.resumeSocket?.();
    });
  }

  async bytes(max: number): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    await this.consume((chunk) => {
      size += chunk.length;
      if (size > max) return !(over = true);
      chunks.push(chunk);
    });
    if (over) throw new LocalError('MessageTooLarge', `The response body exceeded ${max} bytes`);
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  }

  async read(onText: (text: string) => boolean | void): Promise<void> {
    const feed = new Utf8Feed(onText);
    await this.consume((chunk) => feed.chunk(chunk));
    feed.end();
  }

  discard(): void {
    if (this.taken) return;
    this.taken = true;
    this.early = undefined;
    if (this.ended) return;
    // Drop the rest: undici closes the connection, which is cheap next to reading an
    // endless SSE stream.
    this.stop();
  }
}

/**
 * The requester on undici's dispatcher: the default of the transports imported on Node
 * (the `node` export condition of `mcpkit/http-client`). No redirects are followed here,
 * and no timeouts are set: the session owns timeouts, and SSE streams may idle for long.
 * Throws `CapabilityNotSupported` on Bun, whose built-in `undici` cannot dispatch, and for a
 * dispatcher without `dispatch()`. Deno runs undici from npm.
 *
 * @example
 * ```ts
 * import { ProxyAgent } from 'undici';
 * const requester = undiciRequester({ dispatcher: new ProxyAgent('http://proxy.internal:3128') });
 * const transport = new StreamableHttpClientTransport({ url, requester });
 * ```
 */
export function undiciRequester(options: UndiciRequesterOptions = {}): HttpRequester {
  // Bun answers `import('undici')` with a stand-in whose Agent has no dispatch(): say so now,
  // not with a TypeError on the first request.
  const given = options.dispatcher;
  if (given !== undefined ? typeof given.dispatch !== 'function' : nonNodeRuntime() === 'bun') {
    throw new LocalError(
      'CapabilityNotSupported',
      `undiciRequester needs undici's dispatcher, which ${given !== undefined ? 'this dispatcher lacks' : "Bun's built-in undici lacks"}; use fetchRequester() (the default on Bun) or nodeRequester()`,
    );
  }
  return (request: HttpRequest): Promise<HttpReply> => {
    const { url, cancel } = request;
    if (cancel.aborted) return Promise.reject(cancel.reason);
    const refused = unsupportedScheme(url);
    if (refused) return Promise.reject(refused);
    const dispatcher = options.dispatcher ?? shared;
    if (dispatcher === undefined) return sharedAgent().then((agent) => send(request, agent));
    return send(request, dispatcher);
  };
}

/** Dispatches one request; resolves with its reply once the head arrives. */
function send(request: HttpRequest, dispatcher: Dispatcher): Promise<HttpReply> {
  const { url, cancel } = request;
  if (cancel.aborted) return Promise.reject(cancel.reason);
  return new Promise<HttpReply>((resolve, reject) => {
    const handler = new UndiciReply(cancel, (reply, error) => (reply ? resolve(reply) : reject(error)));
    cancel.onAbort((reason) => handler.onAbortRequested(reason));
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.pathname + url.search,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      handler,
    );
  });
}
