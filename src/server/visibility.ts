/**
 * Per-principal catalogs: who may see a tool, resource, resource template or prompt. An item
 * a caller may not see does not exist for it: lists leave it out, and calling, reading,
 * getting or completing it fails exactly as for a name nobody registered.
 */
import { principalOf } from '../protocol/principal.js';
import type { Principal } from '../protocol/principal.js';

/**
 * The caller a visibility rule is decided for: the request's `authInfo` as the auth layer
 * attached it (an `AuthInfo` behind `bearerAuth`), its principal, scopes and claims.
 */
export interface CatalogCaller {
  /** The request's auth info; undefined for an unauthenticated request (stdio, in-memory). */
  readonly authInfo: unknown;
  /** Who this is (issuer, subject, kind), when the auth info names someone. */
  readonly principal: Principal | undefined;
  /** The scopes granted (`authInfo.scopes`); empty when there are none. */
  readonly scopes: readonly string[];
  /** The token's claims (`authInfo.claims`); empty when there are none. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** A claim value a rule accepts: one value, or any of a list. */
export type ClaimMatch = string | number | boolean | readonly (string | number | boolean)[];

/**
 * Who may see an item:
 * - a list of scopes: the caller must hold all of them (the common case);
 * - `{ scopes, claims }`: all the scopes, and every named claim equal to the value given (or
 *   to one of the values, for a list; a claim that is itself a list must contain one);
 * - a function of the {@link CatalogCaller}: synchronous and cheap, it runs on every list and call.
 *
 * A caller with no authentication at all is refused by scopes and claims (they hold none);
 * a function decides for itself (`caller.authInfo` is undefined).
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'ops', version: '1.0.0' });
 * server.tool({ name: 'restart', visibleTo: ['ops:admin'] }, () => 'restarted');
 * server.tool({ name: 'billing', visibleTo: { claims: { tenant: 'acme' } } }, () => 'ok');
 * server.tool({ name: 'mine', visibleTo: (c) => c.principal?.subject === 'alice' }, () => 'hi');
 * ```
 */
export type VisibleTo =
  | readonly string[]
  | { readonly scopes?: readonly string[]; readonly claims?: Readonly<Record<string, ClaimMatch>> }
  | ((caller: CatalogCaller) => boolean);

/** A compiled {@link VisibleTo}: true when the caller may see the item. */
export type VisibilityCheck = (caller: CatalogCaller) => boolean;

const NO_SCOPES: readonly string[] = Object.freeze([]);
const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The {@link CatalogCaller} of a request's auth info. */
export function callerOf(authInfo: unknown): CatalogCaller {
  const a =
    typeof authInfo === 'object' && authInfo !== null ? (authInfo as Record<string, unknown>) : undefined;
  const scopes = Array.isArray(a?.scopes) ? (a.scopes as string[]) : NO_SCOPES;
  const claims =
    typeof a?.claims === 'object' && a.claims !== null ? (a.claims as Record<string, unknown>) : NO_CLAIMS;
  return { authInfo, principal: principalOf(authInfo), scopes, claims };
}

function claimMatches(held: unknown, wanted: ClaimMatch): boolean {
  const accepted = Array.isArray(wanted) ? wanted : [wanted];
  if (Array.isArray(held)) return held.some((h) => accepted.includes(h));
  return accepted.includes(held as string);
}

/**
 * Compiles a registration's `visibleTo` once, at registration; undefined when there is none
 * (the item is visible to everyone, at no cost).
 */
export function compileVisibility(rule: VisibleTo | undefined, what: string): VisibilityCheck | undefined {
  if (rule === undefined) return undefined;
  if (typeof rule === 'function') {
    return (caller) => {
      // A rule that throws hides its item: failing closed never shows what it should not.
      try {
        return rule(caller) === true;
      } catch {
        return false;
      }
    };
  }
  const spec: unknown = Array.isArray(rule) ? { scopes: rule } : rule;
  if (typeof spec !== 'object' || spec === null)
    throw new TypeError(`${what}: visibleTo must be scopes, { scopes, claims } or a function`);
  const { scopes, claims } = spec as { scopes?: readonly string[]; claims?: Record<string, ClaimMatch> };
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && s !== ''))
  ) {
    throw new TypeError(`${what}: visibleTo.scopes must be a list of scopes`);
  }
  const needScopes = Object.freeze([...(scopes ?? [])]);
  const needClaims = Object.entries(claims ?? {});
  if (needScopes.length === 0 && needClaims.length === 0) {
    throw new TypeError(
      `${what}: visibleTo names no scope and no claim (leave it out to show the item to everyone)`,
    );
  }
  return (caller) =>
    caller.authInfo !== undefined &&
    needScopes.every((s) => caller.scopes.includes(s)) &&
    needClaims.every(([k, v]) => Object.hasOwn(caller.claims, k) && claimMatches(caller.claims[k], v));
}

/** An item of a catalog: its wire form and, when it has one, its visibility check. */
export interface Visible {
  readonly wire: unknown;
  /**
   * Its wire form's JSON text in pieces, when it keeps one (a tool), as `shape` leaves it:
   * lists join these instead of serializing.
   */
  wireParts?(into: string[], shape?: (item: Record<string, unknown>) => Record<string, unknown>): void;
  readonly visible: VisibilityCheck | undefined;
  /** Who sees it listed, when that is narrower than who may use it (SEP-1881 scope-filtered discovery). */
  readonly listed?: VisibilityCheck | undefined;
}
