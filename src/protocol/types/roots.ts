/**
 * Roots: locations the client lets the server work in.
 * Deprecated as of 2026-07-28, where `roots/list` survives only as an MRTR input request.
 */
import type { Meta, RequestParams, Result } from './base.js';

/** One root. */
export interface Root {
  /** A `file://` URI for now. */
  uri: string;
  /** Display name. */
  name?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** Params of `roots/list`: nothing beyond `_meta`. */
export type ListRootsRequestParams = RequestParams;

/** Result of `roots/list`. */
export interface ListRootsResult extends Result {
  roots: Root[];
}
