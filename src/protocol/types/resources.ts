/** Resources and resource templates: listing, reading and per-resource updates. */
import type {
  Annotations,
  BaseMetadata,
  CacheableResult,
  Icons,
  Meta,
  NotificationParams,
  PaginatedParams,
  PaginatedResult,
  RequestParams,
} from './base.js';
import type { BlobResourceContents, TextResourceContents } from './content.js';
import type { InputResponseRequestParams } from './mrtr.js';

/** A concrete resource the server can read. */
export interface Resource extends BaseMetadata, Icons {
  /** The resource's URI; its scheme is up to the server. */
  uri: string;
  /** What the resource is; helps the model decide whether to use it. */
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Raw size in bytes, before any encoding. */
  size?: number;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** A parameterised family of resources described by an RFC 6570 URI template. */
export interface ResourceTemplate extends BaseMetadata, Icons {
  uriTemplate: string;
  description?: string;
  /** Only when every matching resource shares one type. */
  mimeType?: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** Params of `resources/list`. */
export type ListResourcesRequestParams = PaginatedParams;

/** Result of `resources/list`. */
export interface ListResourcesResult extends PaginatedResult, CacheableResult {
  resources: Resource[];
}

/** Params of `resources/templates/list`. */
export type ListResourceTemplatesRequestParams = PaginatedParams;

/** Result of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends PaginatedResult, CacheableResult {
  resourceTemplates: ResourceTemplate[];
}

/** Params naming one resource. */
export interface ResourceRequestParams extends RequestParams {
  uri: string;
}

/** Params of `resources/read`; may carry MRTR retry fields from 2026-07-28. */
export interface ReadResourceRequestParams extends ResourceRequestParams, InputResponseRequestParams {}

/** Result of `resources/read`: one or more contents (sub-resources may be included). */
export interface ReadResourceResult extends CacheableResult {
  contents: (TextResourceContents | BlobResourceContents)[];
}

/**
 * Params of `resources/subscribe`. Replaced by `resourceSubscriptions` of
 * `subscriptions/listen`.
 * @removed 2026-07-28
 */
export type SubscribeRequestParams = ResourceRequestParams;

/** Params of `resources/unsubscribe`. @removed 2026-07-28 */
export type UnsubscribeRequestParams = ResourceRequestParams;

/** Params of `notifications/resources/updated`. */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  /** The changed resource; may be a sub-resource of the subscribed URI. */
  uri: string;
}
