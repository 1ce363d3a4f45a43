/**
 * Connection set-up: the `initialize` handshake of 2024-11-05 … 2025-11-25, its
 * stateless replacement `server/discover` (2026-07-28), and `ping`.
 */
import type { CacheableResult, CacheScope, Implementation, RequestParams, Result } from './base.js';
import type { ClientCapabilities, ServerCapabilities } from './capabilities.js';

/** Params of `initialize`. @removed 2026-07-28 */
export interface InitializeRequestParams extends RequestParams {
  /** Newest revision the client speaks. */
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
}

/** Result of `initialize`. @removed 2026-07-28 */
export interface InitializeResult extends Result {
  /** Revision the session will use; the client disconnects if it cannot speak it. */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** Guidance for the model on how to use this server. */
  instructions?: string;
}

/** Params of `server/discover`: nothing beyond `_meta`. @since 2026-07-28 */
export type DiscoverRequestParams = RequestParams;

/**
 * Result of `server/discover`. The server identifies itself through
 * `_meta['io.modelcontextprotocol/serverInfo']`.
 * @since 2026-07-28
 */
export interface DiscoverResult extends CacheableResult {
  /** Revisions the server accepts; the client picks one for later requests. */
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  /** Guidance for the model on how to use this server. */
  instructions?: string;
  ttlMs: number;
  cacheScope: CacheScope;
}

/** Params of `ping`. @removed 2026-07-28 */
export type PingRequestParams = RequestParams;

/** A `ping` request object (either side may send it). @removed 2026-07-28 */
export interface PingRequest {
  method: 'ping';
  params?: PingRequestParams;
}
