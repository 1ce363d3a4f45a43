/**
 * What the server's own machinery does differently in the two eras, as one object per era.
 * A handler author meets the eras through `ServerContext`; this is the same idea for the
 * server's internals, so that they ask a named question instead of comparing era names.
 */
import { ErrorCode } from '../jsonrpc/index.js';
import type { Era } from '../protocol/versions.js';

export interface ServerEra {
  readonly name: Era;
  /**
   * Handlers of the methods that may ask for input get the replay state of earlier rounds
   * (`inputResponses`, `requestState`): MRTR, modern only.
   */
  readonly replaysInput: boolean;
  /** The error code for an unknown resource URI: -32002 (legacy), invalid params (2026-07-28). */
  readonly resourceNotFoundCode: number;
  /** The client may run a server-to-client request as a task (2025-11-25 task augmentation). */
  readonly clientTasksByAugmentation: boolean;
  /**
   * Adds the cache hints the era's results carry (`ttlMs`, `cacheScope`) to a result of a
   * method the method table does not describe (the skills extension's).
   */
  withCacheHints(result: Record<string, unknown>): Record<string, unknown>;
}

/** `initialize`-based sessions (2024-11-05 to 2025-11-25). */
export const legacyServerEra: ServerEra = {
  name: 'legacy',
  replaysInput: false,
  resourceNotFoundCode: ErrorCode.ResourceNotFound,
  clientTasksByAugmentation: true,
  withCacheHints: (result) => result,
};

/** The stateless revision (2026-07-28). */
export const modernServerEra: ServerEra = {
  name: 'modern',
  replaysInput: true,
  resourceNotFoundCode: ErrorCode.InvalidParams,
  clientTasksByAugmentation: false,
  withCacheHints: (result) => ({ ...result, ttlMs: 0, cacheScope: 'private' }),
};

/** The strategy of a request's era. */
export function serverEraOf(era: Era): ServerEra {
  return era === 'modern' ? modernServerEra : legacyServerEra;
}
