import type { BodyResult, HttpExchange, ResponseStream } from './exchange.js';
import { McpHttpHandler } from './mcp-http-handler.js';
import type { McpHttpOptions } from './mcp-http-handler.js';
import type { McpConnector } from './respond.js';
import { attachAuthentication } from './request-authorizer.js';

const enc = new TextEncoder();

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

/** Binds a web `Request` to the HTTP core, answering with a web `Response`. Exported for tests. */
export class FetchExchange implements HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  authInfo?: unknown;
  readonly response: Promise<Response>;
  private resolve!: (r: Response) => void;
  private readonly host: string;
  private aborter: AbortController | undefined;
  private gone = false;

  constructor(
    private readonly request: Request,
    private readonly maxStreamBuffer = 4 << 20,
  ) {
    this.method = request.method;
    const url = new URL(request.url);
    this.path = url.pathname;
    this.query = url.search.slice(1);
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
    const closed = this.closed;
    // An aborted signal fires no more events: a client already gone is told at once.
    if (closed.aborted) queueMicrotask(listener);
    else closed.addEventListener('abort', listener, { once: true });
  }

  async readBody(limit: number): Promise<BodyResult> {
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
    const all = new Uint8Array(size);
    let o = 0;
    for (const p of parts) {
      all.set(p, o);
      o += p.length;
    }
    try {
      return { ok: true, text: strict.decode(all) };
    } catch {
      return { ok: false, reason: 'invalid-utf8' };
    }
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    this.resolve(
      new Response(status === 204 || status === 202 ? (body ?? null) : (body ?? ''), { status, headers }),
    );
  }

  stream(status: number, headers: Record<string, string>): ResponseStream {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let ended = false;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        cancel: () => {
          ended = true;
          this.gone = true;
          this.aborter?.abort();
        },
      },
      // Counted in bytes, so desiredSize says how far over the cap an unread stream is.
      { highWaterMark: this.maxStreamBuffer, size: (chunk) => chunk.byteLength },
    );
    this.resolve(new Response(body, { status, headers }));
    return {
      write: (chunk) => {
        if (ended) return false;
        controller.enqueue(enc.encode(chunk));
        if ((controller.desiredSize ?? 0) < 0) {
          // The client does not read: drop the stream rather than buffer on.
          ended = true;
          this.gone = true;
          controller.error(new Error('stream buffer cap exceeded'));
          this.aborter?.abort();
          return false;
        }
        return true;
      },
      end: () => {
        if (ended) return;
        ended = true;
        controller.close();
      },
      get ended() {
        return ended;
      },
    };
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
    if (authenticate) {
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
