/**
 * The inspector's web server: the page, a small JSON API and a live event stream, on
 * 127.0.0.1 only. Every request passes the {@link RequestGuard}; there are no CORS
 * headers, so no other origin can read an answer, and the API wants a JSON body and the
 * token in a header, which a cross-origin page cannot send without a preflight we refuse.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostError } from '../host/index.js';
import { startSandboxProxyServer } from '../host/node.js';
import type { SandboxProxyServer } from '../host/node.js';
import { WireError } from '../jsonrpc/index.js';
import type { InspectorEvent, InspectorHost, RequestTimeouts } from './inspector-host.js';
import { playgroundOperations } from './playground.js';
import { loadLintOperations } from './load-lint-api.js';
import { OAUTH_CALLBACK_PATH, OAuthDebugger } from './oauth-debugger.js';
import { RequestGuard, cookieName, newToken } from './request-guard.js';
import type { TokenPlace } from './request-guard.js';
import { defaultUiDir, loadAssets, pageWithToken } from './static-assets.js';
import type { Asset } from './static-assets.js';

/** Options of {@link startInspectorServer}. */
export interface InspectorServerOptions {
  /** The port (default 0: any free one). */
  port?: number;
  /** The access token (default: a fresh random one). */
  token?: string;
  /** Where the built page is (default: `dist/inspector-ui`). */
  uiDir?: string;
  /** Serve the sandbox proxy MCP App views render in, on a second loopback port (default true). */
  apps?: boolean;
}

/** A running inspector server. */
export interface InspectorServer {
  /** The URL to open, token included. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const BODY_LIMIT = 4 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;
/** A page that reads its event stream slower than this much is dropped (it reconnects and resyncs). */
const STREAM_BACKLOG = 8 * 1024 * 1024;

const SECURITY_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * The page's policy: only its own scripts; images and audio from results arrive as data;
 * frames only from the sandbox proxy's origins (MCP App views render inside it).
 */
function pageCsp(proxyOrigin: string | undefined): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    // Views that declare `_meta.ui.domain` get d<hash>.localhost at the proxy's port.
    `frame-src ${proxyOrigin ? `${proxyOrigin} http://*.localhost:${new URL(proxyOrigin).port}` : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Starts the web server for an inspector session. */
export async function startInspectorServer(
  session: InspectorHost,
  options: InspectorServerOptions = {},
): Promise<InspectorServer> {
  const token = options.token ?? newToken();
  const assets = loadAssets(options.uiDir ?? defaultUiDir());
  const calls = new Map<string, AbortController>();
  const streams = new Set<ServerResponse>();
  const server: Server = createServer();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The authorization server's redirect: a navigation from its origin, checked by state.
    if (url.pathname === OAUTH_CALLBACK_PATH) return oauth.callback(req, res, url, guard.hosts);
    const api = url.pathname.startsWith('/api/');
    const place: TokenPlace = api ? 'header' : 'page';
    const refused = guard.check(req, url, place);
    if (refused) return send(res, refused.status, { error: refused.reason });
    if (!api) return page(req, res, url);
    if (url.pathname === '/api/events' && req.method === 'GET') return events(req, res);
    if (url.pathname === '/api/state' && req.method === 'GET') return send(res, 200, session.snapshot());
    if (req.method !== 'POST') return send(res, 405, { error: 'Use POST' });
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return send(res, 415, { error: 'The body must be application/json' });
    const body = await readJson(req);
    if (body === 'too-large') return send(res, 413, { error: `The body is larger than ${BODY_LIMIT} bytes` });
    if (body === undefined) return send(res, 400, { error: 'The body is not a JSON object' });
    const op = OPERATIONS[url.pathname.slice(5)];
    if (!op) return send(res, 404, { error: `No API ${url.pathname}` });
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    try {
      return send(res, 200, await op(body, ac.signal));
    } catch (e) {
      return send(res, 200, { error: describe(e) });
    }
  }

  const str = (v: unknown, name: string): string => {
    if (typeof v !== 'string' || v === '') throw new Error(`"${name}" must be a non-empty string`);
    return v;
  };
  /** A timeout setting of the page: whole milliseconds, 1 s to 24 h; absent for the default. */
  const millis = (v: unknown, name: string): number | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1000 || v > 86_400_000)
      throw new Error(`"${name}" must be a whole number of milliseconds from 1000 to 86400000`);
    return v;
  };
  /** The page's timeout settings for one request (absent ones: the server's or client's default). */
  const timeouts = (b: Record<string, unknown>): RequestTimeouts => {
    if (b.resetTimeoutOnProgress !== undefined && typeof b.resetTimeoutOnProgress !== 'boolean')
      throw new Error('"resetTimeoutOnProgress" must be true or false');
    const timeoutMs = millis(b.timeoutMs, 'timeoutMs');
    const maxTotalTimeoutMs = millis(b.maxTotalTimeoutMs, 'maxTotalTimeoutMs');
    return {
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(b.resetTimeoutOnProgress === true ? { resetTimeoutOnProgress: true } : {}),
      ...(maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs } : {}),
    };
  };
  const obj = (v: unknown): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

  const oauth = new OAuthDebugger(() => `http://127.0.0.1:${port}${OAUTH_CALLBACK_PATH}`);
  const OPERATIONS: Record<string, (b: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>> = {
    ...oauth.operations(),
    call: async (b, signal) => {
      const callId = str(b.callId, 'callId');
      const ac = new AbortController();
      const onabort = (): void => ac.abort();
      signal.addEventListener('abort', onabort);
      calls.set(callId, ac);
      const started = performance.now();
      try {
        const result = await session.callTool(
          str(b.server, 'server'),
          str(b.tool, 'tool'),
          obj(b.arguments),
          callId,
          ac.signal,
          b.caller === 'app' ? 'app' : 'inspector',
          timeouts(b),
        );
        return { result, ms: Math.round(performance.now() - started) };
      } finally {
        calls.delete(callId);
        signal.removeEventListener('abort', onabort);
      }
    },
    cancel: async (b) => {
      const call = calls.get(str(b.callId, 'callId'));
      call?.abort();
      return { cancelled: call !== undefined };
    },
    read: async (b, signal) => ({
      result: await session.readResource(str(b.server, 'server'), str(b.uri, 'uri'), signal, timeouts(b)),
    }),
    prompt: async (b, signal) => ({
      result: await session.getPrompt(
        str(b.server, 'server'),
        str(b.name, 'name'),
        obj(b.arguments) as Record<string, string>,
        signal,
        timeouts(b),
      ),
    }),
    complete: async (b, signal) => ({
      result: await session.complete(str(b.server, 'server'), obj(b.params), signal),
    }),
    ping: async (b, signal) => session.ping(str(b.server, 'server'), signal),
    // A remote server's Server Card (SEP-2127), read before connecting to it.
    'server-card': async (b, signal) => {
      // Loaded on first use: most sessions never read a card.
      const { fetchServerCard, serverCardUrl } = await import('../client/index.js');
      return { card: await fetchServerCard(serverCardUrl(str(b.url, 'url')), { signal, timeoutMs: 10_000 }) };
    },
    connect: async (b) => ({ server: await session.addServer(str(b.name, 'name'), obj(b.entry)) }),
    reconnect: async (b) => ({ server: await session.reconnect(str(b.server, 'server')) }),
    'config-snippet': async () => session.configSnippet(),
    // The session's history as a recording file (see recording.ts), for the page to save.
    recording: async () => {
      const { snapshotRecording } = await import('./session-recorder.js');
      return { text: snapshotRecording(session.snapshot()) };
    },
    'log-level': async (b, signal) => {
      await session.setLogLevel(str(b.server, 'server'), str(b.level, 'level'), signal);
      return { ok: true };
    },
    subscribe: async (b) => ({
      id: await session.subscribeResource(str(b.server, 'server'), str(b.uri, 'uri')),
    }),
    unsubscribe: async (b) => ({ ok: await session.unsubscribe(str(b.id, 'id')) }),
    answer: async (b) => ({ ok: session.ui.answer(str(b.id, 'id'), b.answer) }),
    roots: async (b) => {
      if (!Array.isArray(b.paths) || !b.paths.every((x) => typeof x === 'string'))
        throw new Error('"paths" must be an array of strings');
      return { roots: await session.setRoots(str(b.server, 'server'), b.paths as string[]) };
    },
    'tasks-list': async (b, signal) => ({ result: await session.listTasks(str(b.server, 'server'), signal) }),
    'task-get': async (b, signal) => ({
      result: await session.getTask(str(b.server, 'server'), str(b.taskId, 'taskId'), signal),
    }),
    'task-cancel': async (b, signal) => {
      await session.cancelTask(str(b.server, 'server'), str(b.taskId, 'taskId'), signal);
      return { ok: true };
    },
    ...playgroundOperations(session.playground),
    ...loadLintOperations(session),
  };

  function page(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'Use GET' });
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204, SECURITY_HEADERS);
      res.end();
      return;
    }
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    if (path === '/index.html') {
      const headers: Record<string, string | string[]> = {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': csp,
      };
      // The cookie lets the page's own assets load; it is never accepted by the API.
      if (url.searchParams.has('token'))
        headers['set-cookie'] =
          `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=604800`;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : pageWithToken(assets, token, sandbox?.url ?? ''));
      return;
    }
    const asset: Asset | undefined = assets.get(path);
    if (!asset) return send(res, 404, { error: 'Not found' });
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    const write = (e: InspectorEvent | { type: 'snapshot'; snapshot: unknown }): void => {
      if (res.writableLength > STREAM_BACKLOG) {
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(e)}\n\n`);
    };
    streams.add(res);
    const off = session.subscribe(write);
    write({ type: 'snapshot', snapshot: session.snapshot() });
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    const done = (): void => {
      off();
      clearInterval(keepalive);
      streams.delete(res);
    };
    req.on('close', done);
    res.on('close', done);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const guard = new RequestGuard(token, port);
  // Another port is another origin: views cannot reach the page, its token or its storage.
  let sandbox: SandboxProxyServer | undefined;
  if (options.apps !== false) {
    try {
      sandbox = await startSandboxProxyServer({ hostOrigin: `http://127.0.0.1:${port}`, domains: true });
    } catch (e) {
      server.close();
      throw e;
    }
  }
  const csp = pageCsp(sandbox?.origin);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: e instanceof Error ? e.message : String(e) });
      else res.destroy();
    });
  });
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const c of calls.values()) c.abort();
      for (const s of streams) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await sandbox?.close();
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The body as a JSON object; `too-large` past the limit (the rest is read and dropped, not kept). */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | 'too-large' | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  }
  if (size > BODY_LIMIT) return 'too-large';
  try {
    const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An error as the page shows it: the host's refusals and the server's JSON-RPC errors keep their codes. */
function describe(e: unknown): { message: string; code?: string | number; data?: unknown } {
  if (e instanceof HostError) return { message: e.message, code: e.code };
  if (e instanceof WireError)
    return { message: e.message, code: e.code, ...(e.data !== undefined ? { data: e.data } : {}) };
  let message = e instanceof Error ? e.message : String(e);
  for (
    let c: unknown = e instanceof Error ? e.cause : undefined, d = 0;
    c instanceof Error && d < 6;
    c = c.cause, d++
  )
    message += ` (${c.message})`;
  return { message };
}
