import { LocalError } from '../../jsonrpc/index.js';

/** Turns any failure of a Redis command into the `StoreUnavailable` error the HTTP layer answers 503 for. */
export function unavailable(e: unknown): LocalError {
  if (e instanceof LocalError) return e;
  const detail = e instanceof Error ? e.message : String(e);
  return new LocalError('StoreUnavailable', `the shared store (Redis) is unavailable: ${detail}`, {
    cause: e,
  });
}

/** Awaits a Redis command, rejecting with `StoreUnavailable` when it fails. */
export async function guarded<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw unavailable(e);
  }
}
