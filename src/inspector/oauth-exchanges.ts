/**
 * The OAuth debugger's record of HTTP exchanges: every request the flow sends (through the
 * OAuth client's own guarded fetch, or the MCP transport's fetch) with its answer, secrets
 * redacted before anything is kept, bodies bounded. The page shows these; nothing here
 * changes what is sent.
 */
import { GuardedFetch } from '../auth/client/guarded-fetch.js';
import type { GuardedFetchOptions, GuardedRequest } from '../auth/client/guarded-fetch.js';
import { nodeGuardOptions } from '../auth/node-network.js';
import { Client } from '../client/client.js';
import { StreamableHttpClientTransport } from '../transports/http-client/streamable-http-client-transport.js';

/** One HTTP request and its answer, as the page shows it. */
export interface HttpExchange {
  method: string;
  url: string;
  /** What the request was for (`protected resource metadata`, `MCP request`...). */
  what: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** The body as kept: redacted, and cut at {@link KEPT_BODY_CHARS}. */
  responseBody?: string;
  /** The length of the whole body, in characters (more than the kept part when cut). */
  responseChars?: number;
  ms: number;
  /** Why the request failed (no answer, a timeout, a refused address, a body too large). */
  error?: string;
}

/** Bodies are kept up to this many characters; the page shows less until asked for all of it. */
export const KEPT_BODY_CHARS = 256 * 1024;

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'dpop']);
const SECRET_FIELDS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'code',
  'code_verifier',
  'assertion',
  'client_assertion',
  'subject_token',
  'registration_access_token',
]);

/** A secret as shown: its first characters and its length, never the whole of it. */
export function mask(value: string): string {
  if (value.length <= 12) return `(redacted, ${value.length} chars)`;
  return `${value.slice(0, 4)}…(redacted, ${value.length} chars)`;
}

function headerValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name)) return name === 'location' ? redactUrl(value) : value;
  const space = value.indexOf(' ');
  // Keep the scheme (`Bearer`, `Basic`): which kind of credential was sent is worth seeing.
  return space > 0 && space < 16 ? `${value.slice(0, space)} ${mask(value.slice(space + 1))}` : mask(value);
}

/** Headers as a plain object, secrets masked. */
export function redactHeaders(headers: HeadersInit | Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  new Headers(headers).forEach((value, name) => {
    out[name] = headerValue(name, value);
  });
  return out;
}

/** A URL with secret query parameters (a `code` in a redirect) masked. */
export function redactUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  let changed = false;
  for (const [k, v] of [...url.searchParams]) {
    if (SECRET_FIELDS.has(k)) {
      url.searchParams.set(k, mask(v));
      changed = true;
    }
  }
  return changed ? url.href : value;
}

function redactJson(value: unknown, depth = 0): unknown {
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_FIELDS.has(k) && typeof v === 'string' ? mask(v) : redactJson(v, depth + 1);
  }
  return out;
}

/** A body with its secret fields masked: JSON objects and form bodies; other text as it is. */
export function redactBody(text: string, contentType = ''): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactJson(JSON.parse(text)), null, 2);
    } catch {
      return text;
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType) || /^[\w.~-]+=[^\s]*(&|$)/.test(trimmed)) {
    const params = new URLSearchParams(text);
    for (const [k, v] of [...params]) if (SECRET_FIELDS.has(k)) params.set(k, mask(v));
    return params.toString();
  }
  return text;
}

function keep(ex: HttpExchange, text: string, contentType: string): void {
  ex.responseChars = text.length;
  const cut = text.length > KEPT_BODY_CHARS ? text.slice(0, KEPT_BODY_CHARS) : text;
  ex.responseBody = text.length > KEPT_BODY_CHARS ? cut : redactBody(cut, contentType);
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return `(${Object.prototype.toString.call(body)})`;
}

/** Why a request failed, in words: a timeout says how long was waited. */
export function failureOf(e: unknown, timeoutMs: number): string {
  for (let c: unknown = e, d = 0; c instanceof Error && d < 6; c = c.cause, d++) {
    if (c.name === 'TimeoutError') return `No answer within ${timeoutMs / 1000} s (the debugger's timeout)`;
  }
  let message = e instanceof Error ? e.message : String(e);
  const cause = e instanceof Error ? e.cause : undefined;
  if (cause instanceof Error && !message.includes(cause.message)) message += ` (${cause.message})`;
  return message;
}

/** Where a recording fetch reports each exchange. */
export type ExchangeSink = (exchange: HttpExchange) => void;

/**
 * The OAuth client's guarded fetch (Node's checked network: names resolved, addresses
 * checked against the policy) that reports each request. Everything the discovery,
 * registration and token code sends goes through {@link GuardedFetch.fetch}, so this is
 * the one place to watch.
 */
export class RecordingGuardedFetch extends GuardedFetch {
  constructor(
    options: GuardedFetchOptions,
    private readonly sink: ExchangeSink,
    private readonly limitMs: number,
  ) {
    super(nodeGuardOptions({ ...options, timeoutMs: limitMs }));
  }

  override async fetch(url: URL, request: GuardedRequest): Promise<Response> {
    const started = performance.now();
    const method = (request.method ?? 'GET').toUpperCase();
    const requestHeaders = redactHeaders(request.headers);
    const ex: HttpExchange = { method, url: redactUrl(url.href), what: request.what, requestHeaders, ms: 0 };
    const body = bodyText(request.body);
    if (body !== undefined) ex.requestBody = redactBody(body, requestHeaders['content-type'] ?? '');
    try {
      const response = await super.fetch(url, request);
      ex.status = response.status;
      ex.responseHeaders = redactHeaders(response.headers);
      // The guarded fetch has read the whole (bounded) body already: a copy costs no wait.
      keep(ex, await response.clone().text(), response.headers.get('content-type') ?? '');
      return response;
    } catch (e) {
      ex.error = failureOf(e, this.limitMs);
      throw e;
    } finally {
      ex.ms = Math.round(performance.now() - started);
      this.sink(ex);
    }
  }
}

/**
 * A fetch for the MCP transport that adds the current access token (when there is one) and
 * reports each exchange. Event streams are not read (a GET stream stays open); the body of
 * a POST answer is copied as it arrives, so the transport is never held up.
 */
export function recordingMcpFetch(
  sink: ExchangeSink,
  token: () => string | undefined,
  timeoutMs: number,
): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    const t = token();
    if (t !== undefined) headers.set('authorization', `Bearer ${t}`);
    const method = (init?.method ?? 'GET').toUpperCase();
    const ex: HttpExchange = {
      method,
      url,
      what: 'MCP request',
      requestHeaders: redactHeaders(headers),
      ms: 0,
    };
    const body = bodyText(init?.body);
    if (body !== undefined) ex.requestBody = redactBody(body);
    // A timer of our own (not AbortSignal.any over AbortSignal.timeout, which Node may collect).
    const ac = new AbortController();
    const outer = init?.signal;
    const onabort = (): void => ac.abort(outer?.reason);
    if (outer?.aborted) onabort();
    else outer?.addEventListener('abort', onabort, { once: true });
    const timer =
      method === 'GET'
        ? undefined
        : setTimeout(() => ac.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onabort);
    };
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers, signal: ac.signal });
    } catch (e) {
      done();
      ex.error = failureOf(ac.signal.reason ?? e, timeoutMs);
      ex.ms = Math.round(performance.now() - started);
      sink(ex);
      throw e;
    }
    ex.status = response.status;
    ex.responseHeaders = redactHeaders(response.headers);
    ex.ms = Math.round(performance.now() - started);
    const type = response.headers.get('content-type') ?? '';
    if (method === 'GET' && /event-stream/.test(type)) {
      ex.responseBody = '(an event stream, left open for the server)';
    } else if (response.body) {
      // Read a copy before handing the answer on: the reader waits at most the timeout.
      try {
        keep(ex, await response.clone().text(), type);
      } catch (e) {
        ex.error = failureOf(ac.signal.reason ?? e, timeoutMs);
      }
    }
    if (method !== 'GET') done();
    sink(ex);
    return response;
  };
}

/** Our Client connected to `url` in `era` through a recording fetch (the debugger's MCP requests). */
export async function connectRecorded(
  url: URL,
  era: 'legacy' | 'modern',
  fetch: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<Client> {
  const client = new Client({ name: 'mcpkit-oauth-debugger', version: '1.0.0' }, { era, timeoutMs });
  const transport = new StreamableHttpClientTransport({ url, fetch, onwarning: () => undefined });
  await client.connect(transport, { timeoutMs });
  return client;
}
