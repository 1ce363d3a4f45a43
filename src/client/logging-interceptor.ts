import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Wrap } from '../session/interceptors.js';
import type { ClientRequest } from './interceptors.js';

/** One request as the logging interceptor reports it. */
export interface RequestLogEntry {
  method: string;
  /** The tool, prompt or resource the request names, when it names one. */
  target?: string;
  durationMs: number;
  outcome: 'ok' | 'error';
  /** On error: the JSON-RPC code of a WireError, or the code of a LocalError. */
  code?: number | string;
  /** On error: its message. */
  message?: string;
}

/**
 * A client interceptor that reports each request's method, duration and outcome to a
 * sink of yours, after it settles. Params and results are not reported (they may hold
 * secrets); the sink's own failures are swallowed.
 *
 * @example
 * ```ts
 * client.use(logging((e) => console.error(`${e.method} ${e.outcome} in ${e.durationMs.toFixed(1)} ms`)));
 * ```
 */
export function logging(sink: (entry: RequestLogEntry) => void): Wrap<ClientRequest> {
  const report = (entry: RequestLogEntry): void => {
    try {
      sink(entry);
    } catch {
      // A logging sink must never change the outcome of a request.
    }
  };
  return {
    type: 'wrap',
    name: 'logging',
    async wrap(request, next) {
      const started = performance.now();
      const p = request.params;
      const named = typeof p.name === 'string' ? p.name : typeof p.uri === 'string' ? p.uri : undefined;
      const entry: RequestLogEntry = { method: request.method, durationMs: 0, outcome: 'ok' };
      if (named !== undefined) entry.target = named;
      try {
        const result = await next();
        entry.durationMs = performance.now() - started;
        report(entry);
        return result;
      } catch (e) {
        entry.durationMs = performance.now() - started;
        entry.outcome = 'error';
        if (e instanceof WireError || e instanceof LocalError) entry.code = e.code;
        if (e instanceof Error) entry.message = e.message;
        report(entry);
        throw e;
      }
    },
  };
}
