/**
 * Test-only support for the HTTP server tests: the demo server on a real socket, raw
 * `node:http` requests (any Host, any header), an SSE reader for `fetch` responses, and the
 * JSON-RPC bodies and headers of both eras. Named `*.test.helpers.ts` so it is neither run
 * as a test nor shipped in the package.
 */
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { MetaKey } from '../protocol/meta-keys.js';
import { createEverythingServer } from '../demo/everything-server.js';
import type { McpServer } from '../server/index.js';
import { assertWireMessage } from './wire-schema.js';
import { serve } from '../serve/index.js';
import type { RunningServer, ServeOptions } from '../serve/index.js';
import { WAIT_MS } from './waiting.js';

export type Obj = Record<string, unknown>;

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';
export const ACCEPT_BOTH = 'application/json, text/event-stream';
export const POST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  accept: ACCEPT_BOTH,
});

// ------------------------------------------------------------------ the server

export interface Fixture {
  readonly server: McpServer;
  readonly running: RunningServer;
  /** The MCP endpoint URL. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** The everything server, served on an ephemeral 127.0.0.1 port. */
export async function startEverything(options: ServeOptions = {}, stepMs = 20): Promise<Fixture> {
  const server = createEverythingServer({ stepMs });
  return fixtureOf(server, await serve(server, { port: 0, ...options }));
}

/** A served everything server as a {@link Fixture}: closing it stops both. */
export function fixtureOf(server: McpServer, running: RunningServer): Fixture {
  return {
    server,
    running,
    url: running.url,
    origin: `http://127.0.0.1:${running.port}`,
    close: async () => {
      await running.close();
      await server.close();
    },
  };
}

// ------------------------------------------------------------------ raw requests

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: Obj | undefined;
}

/**
 * One request with node:http and a fresh connection, so every header (Host included) is
 * sent exactly as given. The whole answer is read; use `fetch` for streams.
 */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'POST',
      headers: options.headers,
      agent: false,
    });
    req.on('error', reject);
    // A hung answer fails the test in seconds rather than at the runner's timeout.
    req.setTimeout(options.timeoutMs ?? 10_000, () =>
      req.destroy(new Error(`${options.method ?? 'POST'} ${url}: no complete answer in time`)),
    );
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: Obj | undefined;
        try {
          json = body ? (JSON.parse(body) as Obj) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    req.end(options.body);
  });
}

/** POSTs a JSON-RPC body (an object, or a raw string) with the usual headers. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return request(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC error code of a raw answer's body. */
export const errorCode = (r: RawResponse): unknown => (r.json?.error as Obj | undefined)?.code;

// ------------------------------------------------------------------ SSE

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** Reads an SSE response body as it arrives, keeping every event and comment. */
export class SseReader {
  readonly events: SseEvent[] = [];
  comments = 0;
  ended = false;
  readonly done: Promise<void>;
  /** Waiters woken by the next chunk or the end of the stream. */
  private readonly wakers = new Set<() => void>();

  constructor(body: ReadableStream<Uint8Array>) {
    this.done = this.pump(body);
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          this.parse(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
        this.wake();
      }
    } catch {
      // Aborted by the test, or cut by the server: either way the stream is over.
    } finally {
      this.ended = true;
      this.wake();
    }
  }

  private wake(): void {
    for (const wake of this.wakers) wake();
    this.wakers.clear();
  }

  private parse(block: string): void {
    const event: SseEvent = { data: '' };
    let fields = 0;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields++;
      if (name === 'id') event.id = value;
      else if (name === 'event') event.event = value;
      else if (name === 'retry') event.retry = Number(value);
      else if (name === 'data') data.push(value);
    }
    if (fields === 0) return;
    event.data = data.join('\n');
    this.events.push(event);
  }

  /** The JSON-RPC messages carried so far (`message` events with data; not `/sse`'s `endpoint`). */
  messages(): Obj[] {
    return this.events
      .filter((e) => e.data !== '' && (e.event === undefined || e.event === 'message'))
      .map((e) => JSON.parse(e.data) as Obj);
  }

  /** Waits for the first message matching `match`; fails when the stream ends without one. */
  async next(match: (m: Obj) => boolean, timeoutMs = WAIT_MS): Promise<Obj> {
    let late = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        late = true;
        resolve();
      }, timeoutMs);
    });
    try {
      for (;;) {
        const found = this.messages().find(match);
        if (found) return found;
        if (this.ended || late) {
          const why = this.ended ? 'the stream ended' : `${timeoutMs} ms passed`;
          throw new Error(
            `No matching SSE message: ${why}; seen ${JSON.stringify(this.messages()).slice(0, 500)}`,
          );
        }
        // Woken by the next chunk, the end of the stream or the limit: no polling.
        await Promise.race([new Promise<void>((wake) => this.wakers.add(wake)), limit]);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for the response with this id. */
  response(id: unknown, timeoutMs = WAIT_MS): Promise<Obj> {
    return this.next((m) => m.id === id && m.method === undefined, timeoutMs);
  }
}

/** A `fetch` whose response body is read as SSE; `abort()` closes the connection. */
export async function openStream(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ response: Response; sse: SseReader; abort(): void }> {
  const ac = new AbortController();
  const response = await fetch(url, {
    method: init.method ?? 'POST',
    headers:
      init.method === 'GET'
        ? { accept: 'text/event-stream', ...init.headers }
        : { ...POST_HEADERS, ...init.headers },
    ...(init.body === undefined
      ? {}
      : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    signal: ac.signal,
  });
  if (!response.body) throw new Error(`no body (status ${response.status})`);
  return { response, sse: new SseReader(response.body), abort: () => ac.abort() };
}

// ------------------------------------------------------------------ JSON-RPC bodies

let nextId = 1;
/** A fresh request id. */
export const newId = (): number => nextId++;

export const rpc = (method: string, params?: Obj, id: number | string = newId()): Obj => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

export const notification = (method: string, params?: Obj): Obj => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});

export const initializeRequest = (version = LEGACY, capabilities: Obj = {}): Obj =>
  rpc('initialize', {
    protocolVersion: version,
    capabilities,
    clientInfo: { name: 'http-server-tests', version: '1.0.0' },
  });

/**
 * Opens a legacy session by hand: initialize (answered on SSE or JSON, either way) and
 * `notifications/initialized`. Returns the session id.
 */
export async function openLegacySession(
  url: string,
  capabilities: Obj = {},
  version = LEGACY,
): Promise<string> {
  const init = await postJson(url, initializeRequest(version, capabilities));
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${init.body}`);
  const sid = init.headers['mcp-session-id'];
  if (typeof sid !== 'string') throw new Error('initialize answered without Mcp-Session-Id');
  const done = await postJson(url, notification('notifications/initialized'), {
    'mcp-session-id': sid,
    'mcp-protocol-version': version,
  });
  if (done.status !== 202) throw new Error(`notifications/initialized answered ${done.status}`);
  return sid;
}

/** The JSON-RPC messages of a complete SSE body. */
export function sseMessages(body: string): Obj[] {
  return body
    .split('\n\n')
    .flatMap((block) => block.split('\n').filter((l) => l.startsWith('data:')))
    .map((l) => l.slice(5).trim())
    .filter((d) => d !== '')
    .map((d) => JSON.parse(d) as Obj);
}

/** Modern `_meta` for a request of protocol `version`. */
export const modernMeta = (version = MODERN, extra: Obj = {}): Obj => ({
  [MetaKey.ProtocolVersion]: version,
  [MetaKey.ClientInfo]: { name: 'http-server-tests', version: '1.0.0' },
  [MetaKey.ClientCapabilities]: {},
  ...extra,
});

/** A modern request and the headers that mirror it. */
export function modern(
  method: string,
  params: Obj = {},
  options: { version?: string; meta?: Obj } = {},
): { body: Obj; headers: Record<string, string> } {
  const version = options.version ?? MODERN;
  const body = rpc(method, { ...params, _meta: modernMeta(version, options.meta) });
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method };
  const name =
    method === 'resources/read'
      ? params.uri
      : method === 'tools/call' || method === 'prompts/get'
        ? params.name
        : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return { body, headers };
}

/** Checks a message the server sent against the official schema of `revision`. */
export function assertServerMessage(revision: string, message: Obj, respondingTo?: string): void {
  // JSON-RPC needs `id: null` on errors about unreadable requests; the MCP schema has no null id.
  if (message.id === null && message.error !== undefined) return;
  assertWireMessage(revision, message, { sender: 'server', ...(respondingTo ? { respondingTo } : {}) });
}
