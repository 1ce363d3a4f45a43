/** Small fetch helpers shared by the HTTP client transports. No Node APIs. */
import { LocalError } from '../../jsonrpc/index.js';
import { HttpError } from './errors.js';

/** Extra request headers: fixed, or computed before every HTTP request (auth tokens). */
export type HeadersOption =
  Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** A `fetch` as the transports call it: never as a method, so browsers accept the global one. */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

export function fetchFrom(custom: typeof fetch | undefined): FetchLike {
  return custom ? (input, init) => custom(input, init) : (input, init) => fetch(input, init);
}

/** A fresh Headers holding the caller's extra headers. */
export async function callerHeaders(option: HeadersOption | undefined): Promise<Headers> {
  if (option === undefined) return new Headers();
  return new Headers(typeof option === 'function' ? await option() : option);
}

const MAX_REDIRECTS = 5;

/**
 * Fetches without following redirects to another origin: a redirect can carry the session
 * id, the body and the caller's headers, so only same-origin hops are followed (307/308
 * for any method, 301/302/303 for GET). Anything else fails with an {@link HttpError}.
 */
export async function fetchSameOrigin(fetchFn: FetchLike, url: URL, init: RequestInit): Promise<Response> {
  const method = init.method ?? 'GET';
  let target = url;
  for (let hop = 0; ; hop++) {
    const response = await fetchFn(target, { ...init, redirect: 'manual' });
    if (response.type === 'opaqueredirect') {
      throw new HttpError(method, url, 0, 'was redirected, and the runtime hides where to');
    }
    const s = response.status;
    const location = s >= 300 && s < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, target);
    if (next.origin !== url.origin) {
      throw new HttpError(method, url, s, `redirected to another origin (${next.origin}), refused`);
    }
    if (s !== 307 && s !== 308 && method !== 'GET') {
      throw new HttpError(method, url, s, `answered a ${s} redirect, which would drop the body`);
    }
    if (hop >= MAX_REDIRECTS) throw new HttpError(method, url, s, 'redirected too many times');
    target = next;
  }
}

/** The media type of a response, lowercased, without parameters. */
export function mediaType(response: Response): string {
  const type = response.headers.get('content-type') ?? '';
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

/**
 * Reads a whole body, failing with `MessageTooLarge` past `max` bytes. When `signal` fires
 * the read is cancelled (fetch cannot cancel a body a reader holds).
 */
export async function readBody(response: Response, max: number, signal?: AbortSignal): Promise<Uint8Array> {
  const body = response.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw new LocalError('MessageTooLarge', `The response body exceeded ${max} bytes`);
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const lenientDecoder = new TextDecoder();

/** Reads a short body as text for an error message; never throws. */
export async function bodyExcerpt(response: Response, signal?: AbortSignal): Promise<string> {
  try {
    return lenientDecoder.decode(await readBody(response, 64 * 1024, signal));
  } catch {
    return '';
  }
}
