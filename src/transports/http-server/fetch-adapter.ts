import type { BodyResult, HttpExchange, ResponseStream } from './exchange.js';
import { FetchSseStream } from './fetch-stream.js';
import { McpHttpHandler } from './mcp-http-handler.js';
import type { McpHttpOptions } from './mcp-http-handler.js';
import type { McpConnector } from './respond.js';
import { attachAuthentication } from './request-authorizer.js';

/**
 * Whether reading `request.signal` costs a warning: Deno's `serve` marks a request whose
 * signal was read, aborts that signal on a successful response too (its legacy behaviour),
 * and warns "request.signal aborts on successful responses". There the client leaving is
 * seen only through the response body's `cancel()`, which Deno calls when the client goes
 * away while a stream is open; a client that leaves before a JSON answer is not seen, and
 * its handler runs to the end.
 */
const SIGNAL_WARNS = typeof (globalThis as { Deno?: unknown }).Deno === 'object';
const strict = new TextDecoder('utf-8', { fatal: true });

/** The path, query and authority of an absolute http(s) URL, without parsing it as a `URL`. */
function splitUrl(url: string): { path: string; query: string; host: string } {
  const start = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  if (start === -1) {
    const u = new URL(url);
    return { path: u.pathname, query: u.search.slice(1), host: u.host };
  }
  // Request.url is already serialized (no credentials, default port dropped, path encoded):
  // the pieces are what `URL` would give.
  let end = url.indexOf('#', start);
  if (end === -1) end = url.length;
  let slash = url.indexOf('/', start);
  if (slash === -1 || slash > end) slash = end;
  const q = url.indexOf('?', slash);
  const pathEnd = q === -1 || q > end ? end : q;
  return {
    host: url.slice(start, slash),
    path: slash === pathEnd ? '/' : url.slice(slash, pathEnd),
    query: pathEnd === end ? '' : url.slice(pathEnd + 1, end),
  };
}

/**
 * Binds a web `Request` to the HTTP core, answering with a web `Response`. Exported for tests.
 *
 * On Bun and Deno this is the whole per-request cost above the runtime's server, so it
 * avoids what those runtimes make dear: a body with a Content-Length is read in one
 * `arrayBuffer()` (no stream reader, no chunk copies), a close listener is one listener on
 * `request.signal` (no AbortController unless `closed` is asked for), and an SSE answer
 * that ends within its first tick leaves as one string body (see {@link FetchSseStream}).
 */
export class FetchExchange implements HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  authInfo?: unknown;
  readonly response: Promise<Response>;
  private resolve!: (r: Response) => void;
  private readonly host: string;
  private aborter: AbortController | undefined;
  /** Listeners of onClose, told once when the client goes away. */
  private listeners: Array<() => void> | undefined;
  private gone = false;
  /** Whether respond() or stream() has claimed the response (the first one wins). */
  private claimed = false;

  constructor(
    private readonly request: Request,
    private readonly maxStreamBuffer = 4 << 20,
  ) {
    this.method = request.method;
    const url = splitUrl(request.url);
    this.path = url.path;
    this.query = url.query;
    this.host = url.host;
    this.response = new Promise((r) => (this.resolve = r));
  }

  header(name: string): string | undefined {
    const value = this.request.headers.get(name);
    if (value !== null) return value;
    // Host is a forbidden header for fetch, so a Request made in process has none: its URL
    // names the authority (server runtimes build that URL from the Host header).
    return name === 'host' ? this.host : undefined;
  }

  /** Fires when the request is aborted or the client cancels the response body. */
  get closed(): AbortSignal {
    if (!this.aborter) {
      const c = (this.aborter = new AbortController());
      if (this.gone) c.abort();
      else if (!SIGNAL_WARNS) {
        const outer = this.request.signal;
        if (outer.aborted) c.abort();
        else outer.addEventListener('abort', () => c.abort(), { once: true });
      }
    }
    return this.aborter.signal;
  }

  onClose(listener: () => void): void {
    // An aborted signal fires no more events: a client already gone is told at once.
    if (this.gone) return queueMicrotask(listener);
    if (this.listeners) {
      this.listeners.push(listener);
      return;
    }
    this.listeners = [listener];
    if (SIGNAL_WARNS) return;
    const outer = this.request.signal;
    // The exchange itself listens (handleEvent): no closure per request.
    if (outer.aborted) queueMicrotask(() => this.clientGone());
    else outer.addEventListener('abort', this, { once: true });
  }

  /** The `abort` event of `request.signal`. */
  handleEvent(): void {
    this.clientGone();
  }

  /** The client went away (the request was aborted, or the response body cancelled): told once. */
  clientGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.aborter?.abort();
    const ls = this.listeners;
    if (ls) for (const l of ls) l();
  }

  async readBody(limit: number): Promise<BodyResult> {
    const request = this.request;
    const declared = request.headers.get('content-length');
    // With a Content-Length (and no chunked framing) the runtime's HTTP server delivers
    // exactly that many bytes, so a declared length within the limit bounds the read: it is
    // taken whole, which Bun and Deno do natively, rather than chunk by chunk through a
    // stream reader. The size is checked again for a hand-made Request that declares less
    // than it holds.
    if (declared !== null && Number(declared) <= limit && request.headers.get('transfer-encoding') === null) {
      let bytes: ArrayBuffer;
      try {
        bytes = await request.arrayBuffer();
      } catch {
        return { ok: false, reason: 'aborted' };
      }
      if (bytes.byteLength > limit) return { ok: false, reason: 'too-large' };
      try {
        return { ok: true, text: strict.decode(bytes) };
      } catch {
        return { ok: false, reason: 'invalid-utf8' };
      }
    }
    return this.readStreamed(limit);
  }

  /** Reads a body of unknown length chunk by chunk, stopping (and cancelling it) past `limit`. */
  private async readStreamed(limit: number): Promise<BodyResult> {
    const body = this.request.body;
    if (!body) return { ok: true, text: '' };
    const reader = body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > limit) {
          await reader.cancel();
          return { ok: false, reason: 'too-large' };
        }
        parts.push(value);
      }
    } catch {
      return { ok: false, reason: 'aborted' };
    }
    let all: Uint8Array;
    if (parts.length === 1) all = parts[0]!;
    else {
      all = new Uint8Array(size);
      let o = 0;
      for (const p of parts) {
        all.set(p, o);
        o += p.length;
      }
    }
    try {
      return { ok: true, text: strict.decode(all) };
    } catch {
      return { ok: false, reason: 'invalid-utf8' };
    }
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    if (this.claimed) return;
    this.claimed = true;
    this.resolve(
      new Response(status === 204 || status === 202 ? (body ?? null) : (body ?? ''), { status, headers }),
    );
  }

  stream(status: number, headers: Record<string, string>, whole?: Record<string, string>): ResponseStream {
    const claimed = this.claimed;
    this.claimed = true;
    return new FetchSseStream(
      claimed ? () => undefined : this.resolve,
      this,
      status,
      headers,
      whole ?? headers,
      this.maxStreamBuffer,
    );
  }
}
/**
 * The part of a runtime's execution context the fetch handler uses: Cloudflare Workers'
 * `ExecutionContext` (the third argument of a Worker's `fetch`) has this shape. Work the
 * handler does after the response is returned is handed to `waitUntil`, so the runtime
 * does not cut it off when the response ends.
 */
export interface FetchExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * A web-standard `(Request) => Promise<Response>` handler for Bun, Deno, workers and any
 * fetch-style server. It shares the core, and the tests, with the Node binding. An
 * `authenticate` hook runs after the Host and Origin checks; it returns a `Response` to
 * answer, or the principal, or an `Authentication` (the principal plus an authorizer).
 *
 * The returned `fetch` also takes a Worker's `(request, env, ctx)`: what the handler still
 * does once the response is returned goes to `ctx.waitUntil`. Building the server and the
 * handler at module scope is safe on Workers: neither draws a random number, starts a timer
 * or does I/O until the first request.
 *
 * @example
 * ```ts
 * const { fetch } = fetchHandler(server);
 * Bun.serve({ port: 3000, hostname: '127.0.0.1', fetch });
 * ```
 */
export function fetchHandler(
  connector: McpConnector,
  options: McpHttpOptions & {
    authenticate?: (request: Request) => Promise<unknown | Response> | unknown | Response;
  } = {},
): {
  fetch: (request: Request, env?: unknown, ctx?: FetchExecutionContext) => Promise<Response>;
  handler: McpHttpHandler;
} {
  const handler = new McpHttpHandler(connector, options);
  const authenticate = options.authenticate;
  const maxStreamBuffer = options.maxStreamBufferBytes ?? 4 * 1024 * 1024;
  const fetch = async (request: Request, _env?: unknown, ctx?: FetchExecutionContext): Promise<Response> => {
    const ex = new FetchExchange(request, maxStreamBuffer);
    // The Server Card and catalog are public: no authentication.
    if (authenticate && !handler.isPublicPath(ex.path)) {
      // DNS rebinding first: a foreign Host or Origin gets 403 whether or not it has a token.
      if (!handler.admit(ex)) return ex.response;
      const auth = await authenticate(request);
      if (auth instanceof Response) return auth;
      attachAuthentication(ex, auth);
    }
    const handled = handler.handle(ex);
    // Deno and Bun pass other things second and third: only a real waitUntil is used.
    if (typeof ctx?.waitUntil === 'function') ctx.waitUntil(handled);
    else void handled;
    return ex.response;
  };
  return { fetch, handler };
}
