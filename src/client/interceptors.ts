/**
 * The client's side of the interceptor model: the request shape its interceptors see.
 * The ready-made ones are in `retry-interceptor.ts`, `logging-interceptor.ts` and
 * `headers-interceptor.ts`.
 */
import type { Params } from '../jsonrpc/index.js';
import type { ToolAnnotations } from '../protocol/types/index.js';
import type { Interceptor } from '../session/interceptors.js';
import type { CallOptions } from './types.js';

/** What a client interceptor may ask of its client, the same object for every call. */
export interface ClientInterceptContext {
  /** A tool's annotations as the last `tools/list` gave them (`undefined` before one). */
  toolAnnotations(name: string): ToolAnnotations | undefined;
}

/**
 * One outgoing request as a client interceptor sees it. A wrap changes it by passing a
 * new one to `next` (for example with `options.headers` added).
 */
export interface ClientRequest {
  readonly method: string;
  readonly params: Params;
  /** The caller's options: signal, timeouts, per-request HTTP headers. */
  readonly options: CallOptions | undefined;
  readonly ctx: ClientInterceptContext;
}

/**
 * An interceptor on the client: a validator, a mutator or a wrap around each request the
 * client sends (results and errors come back through the same interceptors).
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' }, {
 *   interceptors: [retry(), logging((entry) => console.error(entry))],
 * });
 * ```
 */
export type ClientInterceptor = Interceptor<ClientRequest>;
