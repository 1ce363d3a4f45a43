/**
 * Roots: locations the client lets the server work in.
 * Deprecated as of 2026-07-28, where `roots/list` survives only as an MRTR input request.
 */
import type { Meta, RequestParams, Result } from './base.js';

/**
 * One root.
 * @deprecated Roots are deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Use tool parameters, resource URIs or server configuration.
 */
export interface Root {
  /** A `file://` URI for now. */
  uri: string;
  /** Display name. */
  name?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/**
 * Params of `roots/list`: nothing beyond `_meta`.
 * @deprecated Roots are deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Use tool parameters, resource URIs or server configuration.
 */
export type ListRootsRequestParams = RequestParams;

/**
 * Result of `roots/list`.
 * @deprecated Roots are deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Use tool parameters, resource URIs or server configuration.
 */
export interface ListRootsResult extends Result {
  roots: Root[];
}
