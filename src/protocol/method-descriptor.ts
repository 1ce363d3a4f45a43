/**
 * What one row of the method table is: the descriptor of a request or notification, and
 * the type-only slots through which a descriptor carries its params and result types.
 */
import type { InputRequiredResult } from './types/mrtr.js';
import type { ProtocolVersion } from './versions.js';

/** Which role sends a message. */
export type Sender = 'client' | 'server' | 'both';

/** A capability path: which side must declare it, and where (dot-separated). */
export interface CapabilityRef {
  side: 'client' | 'server';
  path: string;
  /** The first revision that gates this method on the capability. */
  since?: ProtocolVersion;
}

/**
 * Everything mcpkit needs to know about one method, in one place: its name, whether it is
 * a request or a notification, who sends it, the revisions that have it, the capability it
 * needs, and whether the modern era may answer it with `input_required`.
 */
export interface MethodDescriptor {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly from: Sender;
  /** First revision that has the method. */
  readonly since: ProtocolVersion;
  /** First revision that no longer has it. */
  readonly removedIn?: ProtocolVersion;
  readonly capability?: CapabilityRef;
  /** The request may be answered with `input_required` (modern era). */
  readonly mrtr?: boolean;
  /** The result is cacheable (`ttlMs`, `cacheScope`) in the modern era. */
  readonly cacheable?: boolean;
}

/** Type-only slots: present in the type of a descriptor, never set on the object (tuples keep `undefined`). */
declare const paramsSlot: unique symbol;
declare const resultSlot: unique symbol;

/**
 * A request's descriptor with its params and (final) result types, so that a request
 * made with it is typed end to end: `session.request(Method['tools/list'], {})` resolves
 * to a `ListToolsResult`. `P` includes `undefined` when the params may be omitted.
 */
export interface RequestType<P = unknown, R = unknown, M extends string = string> extends MethodDescriptor {
  readonly method: M;
  readonly kind: 'request';
  readonly [paramsSlot]?: [P];
  readonly [resultSlot]?: [R];
}

/** A notification's descriptor with its params type. */
export interface NotificationType<P = unknown, M extends string = string> extends MethodDescriptor {
  readonly method: M;
  readonly kind: 'notification';
  readonly [paramsSlot]?: [P];
}

/** The params type a request or notification descriptor carries. */
export type ParamsOf<D> = D extends { readonly [paramsSlot]?: [infer P] } ? P : never;
/** The result type a request descriptor carries. */
export type ResultOf<D> = D extends { readonly [resultSlot]?: [infer R] } ? R : never;

/**
 * What a request made with descriptor `D` may resolve to on the wire: its result, or, for
 * a method whose `mrtr` flag is set, an `input_required` answer as well.
 */
export type WireResult<D> = D extends { readonly mrtr: true }
  ? ResultOf<D> | InputRequiredResult
  : ResultOf<D>;

type Fields = Omit<MethodDescriptor, 'kind'>;

/** Builds a table row. Curried so the types are written and the fields (method name, `mrtr: true`) are inferred. */
export const request =
  <P, R>() =>
  <const F extends Fields>(f: F): F & RequestType<P, R, F['method']> =>
    ({ ...f, kind: 'request' }) as F & RequestType<P, R, F['method']>;
export const notification =
  <P>() =>
  <const F extends Fields>(f: F): F & NotificationType<P, F['method']> =>
    ({ ...f, kind: 'notification' }) as F & NotificationType<P, F['method']>;
