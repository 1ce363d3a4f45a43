/**
 * The interceptor model's types (SEP-2624's vocabulary): what validators, mutators and
 * wraps are and what they see. The chain that runs them is in `interceptors.ts`.
 */
import type { Params } from '../jsonrpc/index.js';

/**
 * When an interceptor runs: on the way in (`request`), on the way out (`response`), or on a
 * notification either way (`notification`). SEP-2624 names only the first two; notifications
 * have no reply, so they get a phase of their own, which an interceptor must ask for.
 */
export type InterceptorPhase = 'request' | 'response' | 'notification';

/** `audit` interceptors observe only: they never block and their changes are not applied. */
export type InterceptorMode = 'active' | 'audit';

/** How bad a failed validation is; only `error` blocks. */
export type ValidationSeverity = 'info' | 'warn' | 'error';

/** One finding of a validator. */
export interface ValidationMessage {
  /** Where in the payload, as a dotted path. */
  path?: string;
  message: string;
  severity: ValidationSeverity;
}

/** A validator's decision, as SEP-2624's `ValidationResult` (without the common fields). */
export interface ValidatorResult {
  valid: boolean;
  /** Default `error` when `valid` is false. */
  severity?: ValidationSeverity;
  messages?: ValidationMessage[];
  info?: Record<string, unknown>;
}

/** What a validator returns: nothing or `true` passes, `false` fails with severity `error`. */
export type ValidationVerdict = void | undefined | boolean | ValidatorResult;

/** A notification as interceptors see it; `params` as mutated so far. */
export interface InterceptedNotification {
  readonly method: string;
  readonly params: Params;
  /** `inbound` from the peer, `outbound` to it. */
  readonly direction: 'inbound' | 'outbound';
}

/** What every validator and mutator sees besides the payload. */
export type Interception<R> = CallInterception<R> | NotificationInterception;

/** On the `notification` phase: the notification itself (its params are the payload). */
export interface NotificationInterception {
  readonly phase: 'notification';
  readonly request: InterceptedNotification;
  readonly error?: undefined;
}

/** On the `request` and `response` phases of a call. */
export interface CallInterception<R> {
  readonly phase: 'request' | 'response';
  /** The request (its params as mutated so far, on the request phase). */
  readonly request: R;
  /** On the response phase of a failed call: the error; the payload is then the error too. */
  readonly error?: unknown;
}

interface InterceptorCommon {
  /** Unique among the interceptors of one server or client; breaks priority ties. */
  readonly name: string;
  readonly description?: string;
  /** The methods (SEP-2624 events) it runs for: `*`, `tools/*` or exact names (default `['*']`). */
  readonly events?: readonly string[];
  /** The phases it runs in (default `request` and `response`; `notification` only when listed). */
  readonly phases?: readonly InterceptorPhase[];
  /** Default `active`. */
  readonly mode?: InterceptorMode;
  /**
   * When the interceptor itself fails (throws something other than a WireError): `false`
   * (the default, fail-closed) refuses the message, `true` lets it through unchanged.
   */
  readonly failOpen?: boolean;
}

/**
 * Checks a payload without changing it. A thrown WireError is a refusal sent as it is.
 *
 * @example
 * ```ts
 * const noDeletes: Validator = {
 *   type: 'validation',
 *   name: 'no-deletes',
 *   events: ['tools/call'],
 *   phases: ['request'],
 *   validate: (params) => (params as { name?: string }).name !== 'delete_everything',
 * };
 * ```
 */
export interface Validator<R = unknown> extends InterceptorCommon {
  readonly type: 'validation';
  validate(payload: unknown, at: Interception<R>): ValidationVerdict | Promise<ValidationVerdict>;
}

/**
 * Changes a payload: returns the new one (`undefined` keeps it). On the request phase it
 * may return {@link answer}`(result)` to answer without going further.
 *
 * @example
 * ```ts
 * const stamp: Mutator = {
 *   type: 'mutation',
 *   name: 'stamp',
 *   events: ['tools/call'],
 *   phases: ['response'],
 *   mutate: (result) => ({ ...(result as object), _meta: { stamped: true } }),
 * };
 * ```
 */
export interface Mutator<R = unknown> extends InterceptorCommon {
  readonly type: 'mutation';
  /** Lower runs first (default 0); ties go by name. A number applies to both phases. */
  readonly priorityHint?: number | { request?: number; response?: number; notification?: number };
  mutate(payload: unknown, at: Interception<R>): unknown;
}

/**
 * Sits around the call, onion-style: call `next()` to go inward (with a changed request,
 * if you like), or return or throw to answer without it.
 *
 * @example
 * ```ts
 * const timing: Wrap<{ method: string }> = {
 *   type: 'wrap',
 *   name: 'timing',
 *   wrap: async (request, next) => {
 *     const started = performance.now();
 *     try { return await next(); }
 *     finally { console.error(request.method, performance.now() - started, 'ms'); }
 *   },
 * };
 * ```
 */
export interface Wrap<R = unknown> {
  readonly type: 'wrap';
  readonly name?: string;
  /** The methods it wraps (default `['*']`). */
  readonly events?: readonly string[];
  wrap(request: R, next: (request?: R) => Promise<unknown>): unknown;
  /**
   * Sits around a notification whose method `events` covers (either way); call `next()` to
   * let it go on (with other params, if you like). Without it, the wrap skips notifications.
   */
  wrapNotification?(
    notification: InterceptedNotification,
    next: (notification?: InterceptedNotification) => Promise<void>,
  ): unknown;
}

/** A validator, a mutator or a wrap. */
export type Interceptor<R = unknown> = Validator<R> | Mutator<R> | Wrap<R>;
