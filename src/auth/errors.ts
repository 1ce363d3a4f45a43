import { LocalError } from '../jsonrpc/index.js';
import type { AuthErrorCode } from '../jsonrpc/local-error.js';

export type { AuthErrorCode };

/**
 * An error of the OAuth layer: a {@link LocalError} with an auth code. It never crosses the wire. When it happens inside the
 * transport's `fetch`, the transport wraps it in a `LocalError` whose `cause` is this error.
 *
 * @example
 * ```ts
 * try { await client.connect(transport); }
 * catch (e) {
 *   const auth = findAuthError(e);
 *   if (auth?.code === 'ResourceMismatch') console.error('The server sent metadata for another resource');
 * }
 * ```
 */
export class AuthError extends LocalError {
  override readonly name: string = 'AuthError';
  declare readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * The {@link AuthError} in an error's `cause` chain, if any (the transport and the session
 * wrap the errors of `fetch`).
 *
 * @example
 * ```ts
 * const auth = findAuthError(error);
 * if (auth) console.error(`authorization failed (${auth.code}): ${auth.message}`);
 * ```
 */
export function findAuthError(error: unknown): AuthError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof AuthError) return e;
  }
  return undefined;
}
