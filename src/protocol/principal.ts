/**
 * The one principal: who a request comes from, as every layer keys what it owns (legacy
 * sessions, HTTP+SSE connections, tasks, MRTR request state, subscriptions, quotas, audit).
 *
 * A subject is only unique within its issuer: tenant B's "alice" is not tenant A's, and an
 * OAuth client called "alice" is not the user "alice". So the key is the triple, never `sub`
 * alone. Pure data and functions, so transports may use it like the other protocol constants.
 */

/** Whether the subject is a person (a token's `sub`) or an OAuth client acting for itself. */
export type PrincipalKind = 'user' | 'client';

/** Who made a request: an issuer's subject, and whether that subject is a user or a client. */
export interface Principal {
  /** The token's issuer (`iss`); `''` when the verifier names none. */
  readonly issuer: string;
  /** The user (`sub`), or the client (`client_id`) for a token a client holds for itself. */
  readonly subject: string;
  readonly kind: PrincipalKind;
}

function isPrincipal(v: unknown): v is Principal {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    typeof p.issuer === 'string' &&
    typeof p.subject === 'string' &&
    p.subject !== '' &&
    (p.kind === 'user' || p.kind === 'client')
  );
}

/**
 * The principal of a request's `authInfo` (an `AuthInfo`, or any object with `issuer`,
 * `subject` and `clientId`), or undefined for an anonymous request.
 *
 * A token whose `sub` equals its `client_id` (RFC 9068 §2.2 for the client credentials grant),
 * or that has no `sub`, is the client's own; any other `sub` is a user.
 *
 * @example
 * ```ts
 * principalOf({ issuer: 'https://a.example', subject: 'alice', clientId: 'app' });
 * // { issuer: 'https://a.example', subject: 'alice', kind: 'user' }
 * ```
 */
export function principalOf(authInfo: unknown): Principal | undefined {
  if (typeof authInfo !== 'object' || authInfo === null) return undefined;
  const a = authInfo as Record<string, unknown>;
  if (isPrincipal(a.principal)) return a.principal;
  const issuer = typeof a.issuer === 'string' ? a.issuer : '';
  const subject = typeof a.subject === 'string' && a.subject !== '' ? a.subject : undefined;
  const client = typeof a.clientId === 'string' && a.clientId !== '' ? a.clientId : undefined;
  if (subject !== undefined && subject !== client) return { issuer, subject, kind: 'user' };
  if (client !== undefined) return { issuer, subject: client, kind: 'client' };
  return undefined;
}

/**
 * A string that is equal for two requests exactly when their principals are: the key that
 * sessions, tasks, request state and quotas are bound to. `''` for an anonymous request.
 * Injective (a JSON array), so no issuer or subject can be crafted to collide with another.
 *
 * @example
 * ```ts
 * principalKey({ issuer: 'https://a.example', subject: 'alice' }) !==
 *   principalKey({ issuer: 'https://b.example', subject: 'alice' }); // true
 * ```
 */
export function principalKey(authInfo: unknown): string {
  const p = principalOf(authInfo);
  return p === undefined ? '' : JSON.stringify([p.kind, p.issuer, p.subject]);
}
