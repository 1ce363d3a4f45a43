import { MetaKey } from '../protocol/meta-keys.js';
import type { Era } from '../protocol/versions.js';
import { isLogLevel } from './logging-levels.js';
import type { LogLevel } from './logging-levels.js';
import { decorateModernResult } from './modern-result.js';

/**
 * What the engine does differently in the two eras, as one object per era (as `SessionRole`
 * is for the two ends): the engine asks it a named question instead of comparing era names.
 * The era itself is decided where a connection or request learns it (the handshakes,
 * `useModern`, `routeServerRequest`).
 */
export interface SessionEra {
  readonly name: Era;
  /**
   * A server may send requests to its client. The modern era has none: a server asks
   * through `input_required` results, and a client has nothing to answer.
   */
  readonly serverRequests: boolean;
  /**
   * A connection of this era may receive JSON-RPC batches, when its revision has them
   * (`allowsBatch`: 2025-03-26 only, an initialized session).
   */
  readonly batches: boolean;
  /**
   * The least level a request's logs go out at: the level the request carries in `_meta`
   * (modern, none when it asked for none), or the session's `logging/setLevel` level
   * (legacy, `debug` until set).
   */
  logLevel(
    meta: Readonly<Record<string, unknown>> | undefined,
    sessionLevel: LogLevel | undefined,
  ): LogLevel | undefined;
  /** A server's result with what the era adds to every result (modern: `resultType`, server info, cache hints). */
  decorateResult(method: string, value: Record<string, unknown>, serverInfo: object): Record<string, unknown>;
}

/** `initialize`-based sessions (2024-11-05 to 2025-11-25). */
export const legacySessionEra: SessionEra = {
  name: 'legacy',
  serverRequests: true,
  batches: true,
  logLevel: (_meta, sessionLevel) => sessionLevel ?? 'debug',
  decorateResult: (_method, value) => value,
};

/** The stateless revision (2026-07-28). */
export const modernSessionEra: SessionEra = {
  name: 'modern',
  serverRequests: false,
  batches: false,
  logLevel(meta) {
    const l = meta?.[MetaKey.LogLevel];
    return isLogLevel(l) ? l : undefined;
  },
  decorateResult: decorateModernResult,
};

/** The strategy of an era. */
export function sessionEraOf(era: Era): SessionEra {
  return era === 'modern' ? modernSessionEra : legacySessionEra;
}
