import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { canonicalJson, digestRequest } from './request-state.js';
import type { RequestStateCodec } from './request-state.js';

/** One question for the client: the method and params of an input request. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Params;
}

/**
 * Thrown (as a plain object, not an Error, so generic `catch (e instanceof Error)` code
 * lets it pass) to unwind a handler that asked a question the client has not answered yet.
 */
export const INPUT_REQUIRED: unique symbol = Symbol('mcpkit.inputRequired');

/**
 * The replay state of one modern request. A handler's questions are numbered in the order
 * it asks them; answers from earlier rounds travel in the sealed requestState, so the
 * handler re-runs from the top and gets each answered question back at once. Code before
 * a question may therefore run more than once: keep it free of side effects.
 */
export class MrtrState {
  private counter = 0;
  pending: { key: string; request: InputRequest } | undefined;

  constructor(readonly answers: Readonly<Record<string, unknown>>) {}

  ask(request: InputRequest): Promise<Record<string, unknown>> {
    const key = `q${this.counter++}`;
    if (Object.hasOwn(this.answers, key)) {
      return Promise.resolve(this.answers[key] as Record<string, unknown>);
    }
    // Only the first unanswered question is sent; later ones wait for the next round.
    this.pending ??= { key, request };
    return Promise.reject(INPUT_REQUIRED);
  }
}

/** How long sealed state stays valid. */
export const DEFAULT_STATE_TTL_MS = 10 * 60_000;

function salientParams(params: Params): Params {
  const rest: Params = {};
  for (const k of Object.keys(params)) {
    if (k !== '_meta' && k !== 'inputResponses' && k !== 'requestState') rest[k] = params[k];
  }
  return rest;
}

export function principalOf(authInfo: unknown): string {
  if (typeof authInfo !== 'object' || authInfo === null) return '';
  const a = authInfo as Record<string, unknown>;
  if (typeof a.subject === 'string') return a.subject;
  if (typeof a.clientId === 'string') return a.clientId;
  return '';
}

/** Whether `answer` has the shape of an answer to `method` (shared with task answers). */
export function validAnswer(method: string, answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return false;
  const a = answer as Record<string, unknown>;
  switch (method) {
    case 'elicitation/create':
      return a.action === 'accept' || a.action === 'decline' || a.action === 'cancel';
    case 'sampling/createMessage':
      return typeof a.role === 'string' && typeof a.content === 'object' && a.content !== null;
    case 'roots/list':
      return Array.isArray(a.roots);
    default:
      return false;
  }
}

/**
 * Restores the answers of earlier rounds from a retry's `requestState` and
 * `inputResponses`. Forged, expired or misplaced state is refused with -32602.
 */
export async function restoreState(
  codec: RequestStateCodec,
  method: string,
  params: Params,
  authInfo: unknown,
): Promise<MrtrState> {
  const token = params.requestState;
  if (token === undefined) return new MrtrState({});
  const refuse = (why: string): never => {
    throw WireError.invalidParams(`requestState rejected: ${why}`);
  };
  if (typeof token !== 'string') refuse('not a string');
  const payload = await codec.open(token as string);
  if (!payload) return refuse('it failed verification');
  if (payload.v !== 1 || payload.m !== method) refuse('it belongs to another method');
  if (typeof payload.exp !== 'number' || payload.exp < Date.now()) refuse('it has expired');
  if (payload.p !== principalOf(authInfo)) refuse('it belongs to another principal');
  if (payload.d !== (await digestRequest(method, salientParams(params))))
    refuse('it belongs to another request');
  const answers: Record<string, unknown> = { ...(payload.a as Record<string, unknown>) };
  const key = payload.k;
  const responses = params.inputResponses;
  if (
    typeof key === 'string' &&
    typeof responses === 'object' &&
    responses !== null &&
    Object.hasOwn(responses, key)
  ) {
    const answer = (responses as Record<string, unknown>)[key];
    const asked = (payload.q as string | undefined) ?? '';
    if (!validAnswer(asked, answer)) {
      throw WireError.invalidParams(`inputResponses.${key} is not a valid answer to ${asked}`);
    }
    answers[key] = answer;
  }
  return new MrtrState(answers);
}

/** Builds the `input_required` result for the state's pending question. */
export async function inputRequiredResult(
  codec: RequestStateCodec,
  state: MrtrState,
  method: string,
  params: Params,
  authInfo: unknown,
  ttlMs: number,
): Promise<Record<string, unknown>> {
  const pending = state.pending!;
  const requestState = await codec.seal({
    v: 1,
    m: method,
    d: await digestRequest(method, salientParams(params)),
    p: principalOf(authInfo),
    exp: Date.now() + ttlMs,
    a: state.answers,
    k: pending.key,
    q: pending.request.method,
  });
  const inputRequest: Record<string, unknown> = { method: pending.request.method };
  if (pending.request.params !== undefined) inputRequest.params = pending.request.params;
  return {
    resultType: 'input_required',
    inputRequests: { [pending.key]: inputRequest },
    requestState,
  };
}

export { canonicalJson };
