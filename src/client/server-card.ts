/**
 * Reading a Server Card (SEP-2127, the draft extension `io.modelcontextprotocol/server-card`)
 * before connecting: a public, cacheable description of a remote server — its identity and
 * the endpoints to reach it. A card is advisory: what the connection reports (`serverInfo`,
 * `server/discover`) wins where the two disagree, and nothing in a card is a reason to trust
 * the server more.
 */
import { LocalError } from '../jsonrpc/index.js';

/** The `$schema` every Server Card names (the `v1` family). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
const MEDIA_TYPE = 'application/mcp-server-card+json';

/** A remote endpoint listed in a {@link ServerCard}. */
export interface ServerCardRemote {
  type: 'streamable-http' | 'sse';
  /** A URL, or a template whose `{variables}` are described in `variables`. */
  url: string;
  headers?: { name: string; [key: string]: unknown }[];
  variables?: Record<string, Record<string, unknown>>;
  supportedProtocolVersions?: string[];
}

/** A Server Card, as the extension's schema defines it (other members are kept as sent). */
export interface ServerCard {
  $schema: string;
  /** Reverse-DNS name with one slash: `com.example/weather`. */
  name: string;
  version: string;
  description: string;
  title?: string;
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }[];
  websiteUrl?: string;
  repository?: { url: string; source: string; id?: string; subfolder?: string };
  remotes?: ServerCardRemote[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface FetchServerCardOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Largest card accepted, in bytes (default 64 KiB). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Extra request headers (an `If-None-Match` is yours to send and to handle: a 304 is an error here). */
  headers?: Record<string, string>;
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const REMOTE_URL = /^(https?:\/\/[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isUri(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first problem of `doc` as a Server Card, as `pointer: what` (the same constraints as
 * the extension's JSON Schema on the members it defines), or undefined when it is valid.
 */
export function serverCardProblem(doc: unknown): string | undefined {
  if (!isObject(doc)) return '/: a Server Card must be a JSON object';
  if (doc.$schema !== SERVER_CARD_SCHEMA) return `/$schema: must be ${SERVER_CARD_SCHEMA}`;
  const { name, version, description, title } = doc;
  if (typeof name !== 'string' || name.length < 3 || name.length > 200 || !NAME.test(name))
    return '/name: must be a reverse-DNS name with one slash (com.example/weather), 3 to 200 characters';
  if (typeof version !== 'string' || version.length > 255)
    return '/version: must be a string of at most 255 characters';
  if (typeof description !== 'string' || description.length < 1 || description.length > 100)
    return '/description: must be a string of 1 to 100 characters';
  if (title !== undefined && (typeof title !== 'string' || title.length < 1 || title.length > 100))
    return '/title: must be a string of 1 to 100 characters';
  if (doc.websiteUrl !== undefined && !isUri(doc.websiteUrl)) return '/websiteUrl: must be a URI';
  if (doc._meta !== undefined && !isObject(doc._meta)) return '/_meta: must be an object';
  if (doc.repository !== undefined) {
    const r = doc.repository;
    if (!isObject(r)) return '/repository: must be an object';
    if (!isUri(r.url)) return '/repository/url: must be a URI';
    if (typeof r.source !== 'string') return '/repository/source: must be a string';
  }
  if (doc.icons !== undefined) {
    if (!Array.isArray(doc.icons)) return '/icons: must be an array';
    for (const [i, icon] of doc.icons.entries()) {
      if (!isObject(icon) || !isUri(icon.src)) return `/icons/${i}/src: must be a URI`;
      if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark')
        return `/icons/${i}/theme: must be "light" or "dark"`;
    }
  }
  if (doc.remotes !== undefined) {
    if (!Array.isArray(doc.remotes)) return '/remotes: must be an array';
    for (const [i, r] of doc.remotes.entries()) {
      if (!isObject(r)) return `/remotes/${i}: must be an object`;
      if (r.type !== 'streamable-http' && r.type !== 'sse')
        return `/remotes/${i}/type: must be "streamable-http" or "sse"`;
      if (typeof r.url !== 'string' || !REMOTE_URL.test(r.url))
        return `/remotes/${i}/url: must start with http://, https:// or a {variable}`;
      if (r.headers !== undefined) {
        if (!Array.isArray(r.headers)) return `/remotes/${i}/headers: must be an array`;
        for (const [j, h] of r.headers.entries())
          if (!isObject(h) || typeof h.name !== 'string')
            return `/remotes/${i}/headers/${j}/name: is required`;
      }
      if (r.variables !== undefined && !isObject(r.variables))
        return `/remotes/${i}/variables: must be an object`;
      const versions = r.supportedProtocolVersions;
      if (
        versions !== undefined &&
        !(Array.isArray(versions) && versions.every((x) => typeof x === 'string'))
      )
        return `/remotes/${i}/supportedProtocolVersions: must be an array of strings`;
    }
  }
  return undefined;
}

/**
 * The reserved location of a server's card: its Streamable HTTP URL plus `/server-card`
 * (query and fragment dropped). A URL already ending in `/server-card` is kept.
 *
 * @example
 * ```ts
 * serverCardUrl('https://mcp.example.com/mcp'); // 'https://mcp.example.com/mcp/server-card'
 * ```
 */
export function serverCardUrl(endpoint: string | URL): string {
  const u = new URL(endpoint);
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/server-card')) u.pathname = `${u.pathname.replace(/\/$/, '')}/server-card`;
  return u.href;
}

/**
 * Fetches and checks a Server Card — from the URL an AI Catalog gives, or the reserved
 * `<streamable-http-url>/server-card` — before connecting. Asks for
 * `application/mcp-server-card+json`; refuses a card over `maxBytes` and gives up after
 * `timeoutMs`. A malformed card is a `LocalError` `InvalidServerCard` naming the field; a
 * failed request is `ServerCardUnavailable`.
 *
 * @example
 * ```ts
 * const card = await fetchServerCard('https://mcp.example.com/mcp/server-card');
 * const remote = card.remotes?.find((r) => r.type === 'streamable-http');
 * console.log(card.title ?? card.name, remote?.url);
 * ```
 */
export async function fetchServerCard(
  url: string | URL,
  options: FetchServerCardOptions = {},
): Promise<ServerCard> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const where = String(url);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: `${MEDIA_TYPE}, application/json;q=0.9`, ...options.headers },
      signal,
      redirect: 'follow',
    });
  } catch (e) {
    if (timeout.aborted)
      throw new LocalError('RequestTimeout', `Server Card ${where}: no answer in time`, { cause: e });
    throw new LocalError('ServerCardUnavailable', `Server Card ${where}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new LocalError('ServerCardUnavailable', `Server Card ${where}: HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new LocalError(
      'MessageTooLarge',
      `Server Card ${where}: ${declared} bytes, over the ${maxBytes} limit`,
    );
  }
  // Read with a running count: a missing or false Content-Length must not let a huge body in.
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  try {
    for (;;) {
      if (reader === undefined) break;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new LocalError('MessageTooLarge', `Server Card ${where}: over the ${maxBytes}-byte limit`);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof LocalError) throw e;
    if (timeout.aborted)
      throw new LocalError('RequestTimeout', `Server Card ${where}: no answer in time`, { cause: e });
    throw new LocalError('ServerCardUnavailable', `Server Card ${where}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new LocalError('InvalidServerCard', `Server Card ${where}: not JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
  const problem = serverCardProblem(doc);
  if (problem !== undefined) throw new LocalError('InvalidServerCard', `Server Card ${where}: ${problem}`);
  return doc as ServerCard;
}
