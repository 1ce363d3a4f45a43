/**
 * Server Cards (SEP-2127, draft extension `io.modelcontextprotocol/server-card`): a static,
 * public description of the server served at `<endpoint>/server-card`, and an AI Catalog at
 * `/.well-known/ai-catalog.json` that points at it. Off unless `serverCard` is given.
 *
 * The card is built once from the server's identity (`name`, `version`, `title`,
 * `description`, `icons`, `websiteUrl`) and the options; only the remote's URL depends on
 * the request (its Host), unless the options give the public URL.
 */
import { LocalError } from '../../jsonrpc/index.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { HttpExchange } from './exchange.js';

/** The `$schema` every Server Card carries (the extension's `v1` family). */
export const SERVER_CARD_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The media type of a Server Card. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
const CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';
const CATALOG_PATH = '/.well-known/ai-catalog.json';
const NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** What a card is built from: a server's `info` (its `Implementation`) has these members. */
export interface ServerCardIdentity {
  readonly name: string;
  readonly version: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly icons?: readonly object[] | undefined;
  readonly websiteUrl?: string | undefined;
}

/** One remote endpoint of a card, as the Server Card schema describes it. */
export interface ServerCardRemoteEntry {
  type: 'streamable-http' | 'sse';
  url: string;
  headers?: Record<string, unknown>[];
  variables?: Record<string, Record<string, unknown>>;
  supportedProtocolVersions?: string[];
}

/**
 * What to publish in the Server Card, over what the server's `info` says. `name` must be in
 * reverse-DNS form (`com.example/weather`) and `description` is required by the card schema:
 * when the server's own name or description do not fit, give them here.
 */
export interface ServerCardOptions {
  name?: string;
  version?: string;
  title?: string;
  description?: string;
  icons?: readonly object[];
  websiteUrl?: string;
  repository?: { url: string; source: string; id?: string; subfolder?: string };
  /**
   * The endpoint's public URL (`https://mcp.example.com/mcp`). Without it the card names the
   * URL the request came to (scheme `http`, the request's Host): set it behind a proxy or TLS.
   */
  url?: string;
  /** The remotes to list instead of the served endpoint (and the HTTP+SSE one when on). */
  remotes?: ServerCardRemoteEntry[];
  /** Vendor metadata under namespaced keys. */
  _meta?: Record<string, unknown>;
  /** `Cache-Control` max-age in seconds (default 3600, as the extension suggests). */
  maxAgeSeconds?: number;
  /** Serve the AI Catalog at `/.well-known/ai-catalog.json` too (default true). */
  catalog?: boolean;
}

function isCardRequest(path: string, cardPath: string): boolean {
  return path === cardPath || path === CATALOG_PATH;
}

/** A short opaque validator: FNV-1a over the body (no crypto needed on any runtime). */
function etagOf(body: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= body.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `"${(h >>> 0).toString(36)}-${body.length.toString(36)}"`;
}

/** `com.example/weather` → `urn:air:example.com:mcp:weather` (the catalog's identifier form). */
function catalogIdentifier(name: string): string {
  const [ns = '', server = ''] = name.split('/');
  return `urn:air:${ns.split('.').reverse().join('.')}:mcp:${server}`;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
} as const;

/**
 * Serves the Server Card and the AI Catalog. Built by the HTTP handler when `serverCard` is
 * set; checks the card's required members at construction so a misconfigured card fails at
 * start-up, not in a client.
 */
export class ServerCardEndpoint {
  readonly cardPath: string;
  private readonly base: Record<string, unknown>;
  private readonly remotes: ServerCardRemoteEntry[] | undefined;
  private readonly cache: string;
  private readonly catalog: boolean;
  private readonly publicUrl: string | undefined;
  /** The last body served for a given remote URL, with its ETag (a server is reached by one or two Hosts). */
  private readonly bodies = new Map<string, { body: string; etag: string }>();

  constructor(
    identity: ServerCardIdentity | undefined,
    options: ServerCardOptions,
    private readonly endpointPath: string,
    private readonly ssePath: string | undefined,
  ) {
    this.cardPath = `${endpointPath.replace(/\/$/, '')}/server-card`;
    const name = options.name ?? identity?.name;
    const description = options.description ?? identity?.description;
    const version = options.version ?? identity?.version;
    const bad = (why: string) => new LocalError('InvalidConfiguration', `serverCard: ${why}`);
    if (name === undefined || !NAME_PATTERN.test(name) || name.length > 200)
      throw bad(
        `name must be reverse-DNS with one slash (com.example/weather), not ${JSON.stringify(name)}: give serverCard.name`,
      );
    if (version === undefined || version === '') throw bad('version is required: give serverCard.version');
    if (description === undefined || description.length < 1 || description.length > 100)
      throw bad('description is required (1 to 100 characters): give serverCard.description');
    const title = options.title ?? identity?.title;
    if (title !== undefined && (title.length < 1 || title.length > 100))
      throw bad('title must be 1 to 100 characters');
    const icons = options.icons ?? identity?.icons;
    const websiteUrl = options.websiteUrl ?? identity?.websiteUrl;
    this.base = {
      $schema: SERVER_CARD_SCHEMA_URL,
      name,
      version,
      description,
      ...(title !== undefined ? { title } : {}),
      ...(icons !== undefined && icons.length > 0 ? { icons } : {}),
      ...(websiteUrl !== undefined ? { websiteUrl } : {}),
      ...(options.repository !== undefined ? { repository: options.repository } : {}),
      ...(options._meta !== undefined ? { _meta: options._meta } : {}),
    };
    this.remotes = options.remotes;
    this.cache = `public, max-age=${options.maxAgeSeconds ?? 3600}`;
    this.catalog = options.catalog ?? true;
    this.publicUrl = options.url;
  }

  /** Whether this request is for the card or the catalog (answered before any auth: both are public). */
  owns(path: string): boolean {
    return this.catalog ? isCardRequest(path, this.cardPath) : path === this.cardPath;
  }

  /** The card as served when the endpoint is reached at `endpointUrl`. */
  card(endpointUrl: string): Record<string, unknown> {
    const remotes = this.remotes ?? this.defaultRemotes(endpointUrl);
    return { ...this.base, remotes };
  }

  private defaultRemotes(endpointUrl: string): ServerCardRemoteEntry[] {
    const versions = [...ALL_VERSIONS];
    const out: ServerCardRemoteEntry[] = [
      { type: 'streamable-http', url: endpointUrl, supportedProtocolVersions: versions },
    ];
    if (this.ssePath !== undefined) {
      const origin = new URL(endpointUrl).origin;
      out.push({ type: 'sse', url: `${origin}${this.ssePath}`, supportedProtocolVersions: ['2024-11-05'] });
    }
    return out;
  }

  /** Answers a request for the card or the catalog. */
  handle(ex: HttpExchange): void {
    if (ex.method === 'OPTIONS') return ex.respond(204, { ...CORS, 'access-control-max-age': '86400' });
    if (ex.method !== 'GET' && ex.method !== 'HEAD') {
      return ex.respond(
        405,
        { ...CORS, allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain; charset=utf-8' },
        'Method not allowed',
      );
    }
    const endpointUrl = this.publicUrl ?? `http://${ex.header('host') ?? 'localhost'}${this.endpointPath}`;
    const key = `${ex.path === this.cardPath ? 'c' : 'a'} ${endpointUrl}`;
    let entry = this.bodies.get(key);
    if (entry === undefined) {
      const doc =
        ex.path === this.cardPath
          ? this.card(endpointUrl)
          : {
              specVersion: '1.0',
              entries: [
                {
                  identifier: catalogIdentifier(this.base.name as string),
                  type: SERVER_CARD_MEDIA_TYPE,
                  url: `${new URL(endpointUrl).origin}${this.cardPath}`,
                },
              ],
            };
      const body = JSON.stringify(doc);
      entry = { body, etag: etagOf(body) };
      // A client can name any Host the guard lets through: keep a few, not one per name.
      if (this.bodies.size >= 16) this.bodies.clear();
      this.bodies.set(key, entry);
    }
    const headers: Record<string, string> = {
      ...CORS,
      'content-type': ex.path === this.cardPath ? SERVER_CARD_MEDIA_TYPE : CATALOG_MEDIA_TYPE,
      'cache-control': this.cache,
      etag: entry.etag,
      vary: 'Host',
    };
    const inm = ex.header('if-none-match');
    if (inm !== undefined && inm.split(',').some((t) => t.trim() === entry.etag || t.trim() === '*')) {
      return ex.respond(304, headers);
    }
    if (ex.method === 'HEAD') {
      return ex.respond(200, {
        ...headers,
        'content-length': String(new TextEncoder().encode(entry.body).length),
      });
    }
    ex.respond(200, headers, entry.body);
  }
}
