/**
 * Building blocks shared by every other file in this folder: `_meta` bags, identity and
 * display metadata, result envelopes, pagination and cache hints.
 *
 * These types describe the union of all supported revisions (2024-11-05 … 2026-07-28).
 * Members that only exist in some revisions carry `@since` / `@removed` tags; a field that
 * a later revision made mandatory stays optional here and says so in its comment.
 */
import type { RequestId } from '../../jsonrpc/message.js';
import type { ClientCapabilities } from './capabilities.js';

export type { RequestId };

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonObject | JsonValue[];

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A `_meta` bag. Keys are `prefix/name` strings (the `prefix/` part may be omitted); prefixes
 * whose second label is `modelcontextprotocol` or `mcp` are reserved for the protocol.
 */
export interface Meta {
  [key: string]: unknown;
}

/** W3C trace-context keys that may ride in `_meta` without a prefix. @since 2026-07-28 */
export interface TraceContextMeta {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/** The `_meta` of a request's params. */
export interface RequestMeta extends Meta, TraceContextMeta {
  /** Ask the receiver for `notifications/progress` tagged with this token. */
  progressToken?: ProgressToken;
  /** Revision this request speaks. Required on every request from 2026-07-28. @since 2026-07-28 */
  'io.modelcontextprotocol/protocolVersion'?: string;
  /** Who is asking; informational only. @since 2026-07-28 */
  'io.modelcontextprotocol/clientInfo'?: Implementation;
  /** What the client supports for this request. Required from 2026-07-28. @since 2026-07-28 */
  'io.modelcontextprotocol/clientCapabilities'?: ClientCapabilities;
  /**
   * Lowest log level the server may emit while handling this request; absent means no logs.
   * Replaces `logging/setLevel`.
   * @since 2026-07-28
   * @deprecated Logging is deprecated as of 2026-07-28.
   */
  'io.modelcontextprotocol/logLevel'?: LoggingLevel;
}

/** Request `_meta` as a 2026-07-28 client must send it: version and capabilities present. */
export interface ModernRequestMeta extends RequestMeta {
  'io.modelcontextprotocol/protocolVersion': string;
  'io.modelcontextprotocol/clientCapabilities': ClientCapabilities;
}

/** The `_meta` of a notification's params. */
export interface NotificationMeta extends Meta, TraceContextMeta {
  /**
   * Id of the `subscriptions/listen` request whose stream carries this notification.
   * @since 2026-07-28
   */
  'io.modelcontextprotocol/subscriptionId'?: RequestId;
}

/** The `_meta` of a result. */
export interface ResultMeta extends Meta {
  /** Who answered; informational only. @since 2026-07-28 */
  'io.modelcontextprotocol/serverInfo'?: Implementation;
}

/** Opaque token correlating `notifications/progress` with the request that asked for it. */
export type ProgressToken = string | number;

/** Opaque pagination position handed out by the server. */
export type Cursor = string;

/** Who a message or piece of content is from or for. */
export type Role = 'user' | 'assistant';

/** Log severities, ordered as in syslog (RFC 5424), least severe first. */
export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** A programmatic name plus an optional display title. */
export interface BaseMetadata {
  /** Identifier; also the display fallback when there is no `title`. */
  name: string;
  /** Human-facing label. @since 2025-06-18 */
  title?: string;
}

/** An image a client may show next to an entity. @since 2025-11-25 */
export interface Icon {
  /** `http(s):` URL or `data:` URI of the image. */
  src: string;
  /** MIME type, when the source does not state one reliably. */
  mimeType?: string;
  /** Sizes the image suits, as `WxH` strings or `any`. */
  sizes?: string[];
  /** Background the icon was designed for. */
  theme?: 'light' | 'dark';
}

/** Mixin for entities that can carry icons. */
export interface Icons {
  /** @since 2025-11-25 */
  icons?: Icon[];
}

/** Name and version of a client or server, plus optional presentation details. */
export interface Implementation extends BaseMetadata, Icons {
  version: string;
  /** Short free-text summary of the software. @since 2025-11-25 */
  description?: string;
  /** Home page of the software. @since 2025-11-25 */
  websiteUrl?: string;
}

/**
 * Hints telling the client how to treat an object. 2024-11-05 declared this shape inline on
 * each annotated type; the wire form is the same.
 */
export interface Annotations {
  /** Intended readers; may list both roles. */
  audience?: Role[];
  /** Importance from 0 (optional) to 1 (effectively required). */
  priority?: number;
  /** ISO 8601 timestamp of the last change. @since 2025-06-18 */
  lastModified?: string;
}

/** How a client should read a result: final, or a request for more input (MRTR). */
export type ResultType = 'complete' | 'input_required' | (string & Record<never, never>);

/** Fields common to every request's params. Unknown members are allowed. */
export interface RequestParams {
  /** Required from 2026-07-28, where it carries version and capabilities. */
  _meta?: RequestMeta;
  [key: string]: unknown;
}

/** Fields common to every notification's params. Unknown members are allowed. */
export interface NotificationParams {
  _meta?: NotificationMeta;
  [key: string]: unknown;
}

/** Fields common to every result. Unknown members are allowed. */
export interface Result {
  _meta?: ResultMeta;
  /**
   * Required from 2026-07-28. A result without it (older revisions) means `'complete'`.
   * @since 2026-07-28
   */
  resultType?: ResultType;
  [key: string]: unknown;
}

/** A result that only signals success. */
export type EmptyResult = Result;

/** Params of a list request. */
export interface PaginatedParams extends RequestParams {
  /** Resume after this position; omit for the first page. */
  cursor?: Cursor;
}

/** A page of a list result. */
export interface PaginatedResult extends Result {
  /** Present when more items may follow. */
  nextCursor?: Cursor;
}

/** Who may reuse a cached result. */
export type CacheScope = 'public' | 'private';

/**
 * Caching hints on list, read and discover results. Both fields are required from
 * 2026-07-28 and absent before, so they are optional in this superset.
 * @since 2026-07-28
 */
export interface CacheableResult extends Result {
  /** Milliseconds the result may be treated as fresh; 0 means stale at once. */
  ttlMs?: number;
  /** `public`: shareable across callers; `private`: only within one authorization context. */
  cacheScope?: CacheScope;
}
