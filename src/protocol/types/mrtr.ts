/**
 * Multi round-trip requests (MRTR), 2026-07-28. Instead of sending requests of its own, a
 * server answers `tools/call`, `prompts/get` or `resources/read` with an
 * `InputRequiredResult`; the client gathers the answers and retries the original request
 * with `inputResponses` and the echoed `requestState`.
 */
import type { RequestParams, Result } from './base.js';
import type { ElicitRequestParams, ElicitResult } from './elicitation.js';
import type { ListRootsRequestParams, ListRootsResult } from './roots.js';
import type { CreateMessageRequestParams, CreateMessageResult } from './sampling.js';

/** The server wants the user asked something. */
export interface ElicitInputRequest {
  method: 'elicitation/create';
  params: ElicitRequestParams;
}

/** The server wants an LLM completion. */
export interface CreateMessageInputRequest {
  method: 'sampling/createMessage';
  params: CreateMessageRequestParams;
}

/** The server wants the client's roots. */
export interface ListRootsInputRequest {
  method: 'roots/list';
  params?: ListRootsRequestParams;
}

/** One thing the server needs before it can finish. @since 2026-07-28 */
export type InputRequest = ElicitInputRequest | CreateMessageInputRequest | ListRootsInputRequest;

/** Methods that may appear in an `InputRequest`. */
export type InputRequestMethod = InputRequest['method'];

/** The client's answer to one `InputRequest`. @since 2026-07-28 */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** Input requests keyed by server-chosen ids. @since 2026-07-28 */
export interface InputRequests {
  [key: string]: InputRequest;
}

/** Answers keyed by the ids of the matching `InputRequests` entries. @since 2026-07-28 */
export interface InputResponses {
  [key: string]: InputResponse;
}

/**
 * Interim result: retry the request once the input is gathered. Carries at least one of
 * `inputRequests` and `requestState`.
 * @since 2026-07-28
 */
export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  /** What the client must obtain before retrying. */
  inputRequests?: InputRequests;
  /** Opaque server state the client must echo unchanged on the retry, and never inspect. */
  requestState?: string;
}

/** Retry fields any MRTR-capable request may carry. @since 2026-07-28 */
export interface InputResponseRequestParams extends RequestParams {
  /** One entry per key of the previous `inputRequests`. */
  inputResponses?: InputResponses;
  /** Exactly the `requestState` of the previous `InputRequiredResult`, if it had one. */
  requestState?: string;
}
