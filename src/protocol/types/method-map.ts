/**
 * Method name → params/result types, for typed `request()` / `notify()` helpers. Derived
 * from the one method table, `src/protocol/methods.ts`, whose descriptors carry these types
 * beside each method's direction, revisions, capability and MRTR eligibility. An optional
 * `params` means the message may omit it.
 *
 * Results here are the final (`complete`) shapes. In 2026-07-28 the methods listed in
 * {@link InputRequiredMethod} may instead answer with an `InputRequiredResult`.
 */
import type { AnyMethodType, ParamsOf, ResultOf } from '../methods.js';
import type { InputRequiredResult } from './mrtr.js';

/** The descriptor of every request method of the method table, as one union. */
export type AnyRequestType = Extract<AnyMethodType, { readonly kind: 'request' }>;
/** The descriptor of every notification method of the method table, as one union. */
export type AnyNotificationType = Extract<AnyMethodType, { readonly kind: 'notification' }>;

/** Every request method, with its params and (final) result. */
export type RequestMap = {
  [D in AnyRequestType as D['method']]: { params: ParamsOf<D>; result: ResultOf<D> };
};

/** Every notification method, with its params. */
export type NotificationMap = {
  [D in AnyNotificationType as D['method']]: { params: ParamsOf<D> };
};

export type RequestMethod = keyof RequestMap;
export type NotificationMethod = keyof NotificationMap;

/** Params type of a request method (includes `undefined` when params may be omitted). */
export type RequestParamsOf<M extends RequestMethod> = RequestMap[M]['params'];

/** Final result type of a request method. */
export type RequestResultOf<M extends RequestMethod> = RequestMap[M]['result'];

/** Params type of a notification method (includes `undefined` when params may be omitted). */
export type NotificationParamsOf<M extends NotificationMethod> = NotificationMap[M]['params'];

/** Requests a 2026-07-28 server may answer with an `InputRequiredResult` (`mrtr: true`). */
export type InputRequiredMethod = Extract<AnyRequestType, { readonly mrtr: true }>['method'];

/** What a request may resolve to on the wire, counting MRTR interim results. */
export type WireResultOf<M extends RequestMethod> = M extends InputRequiredMethod
  ? RequestMap[M]['result'] | InputRequiredResult
  : RequestMap[M]['result'];
