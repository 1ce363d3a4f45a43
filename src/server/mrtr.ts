import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { canonicalJson, digestRequest } from './request-state.js';
import type { RequestStateCodec } from './request-state.js';
import { isObject } from '../jsonrpc/is-object.js';
import { principalKey } from '../protocol/principal.js';

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

const NO_QUESTIONS: ReadonlyMap<string, InputRequest> = new Map();

/**
 * The replay state of one modern request. Each question has a key: the one the handler
 * chose, or `q0`, `q1`, … in the order it asks. An answer comes from the sealed
 * requestState (earlier rounds) or from this retry's `inputResponses`; an unanswered
 * question joins this round's `inputRequests` and unwinds the handler, which re-runs from
 * the top next round and gets each answered question back at once. Code before a question
 * may therefore run more than once: keep it free of side effects. A missing or unknown
 * response is simply asked again.
 */
export class MrtrState {
  private counter = 0;
  /** Made on the first unanswered question: most calls ask none. */
  private queued: Map<string, InputRequest> | undefined;

  constructor(
    /** Answers so far (earlier rounds, then this retry's responses as they are used). */
    readonly answers: Record<string, unknown>,
    private readonly responses: Readonly<Record<string, unknown>> = {},
    /** 1 on the first call, then one more per round trip (carried in the sealed state). */
    readonly round = 1,
  ) {}

  /** This round's unanswered questions, by key, in the order asked. */
  get pending(): ReadonlyMap<string, InputRequest> {
    return this.queued ?? NO_QUESTIONS;
  }

  /** The key of the next question that has none of its own. */
  autoKey(): string {
    return `q${this.counter++}`;
  }

  /** The answer to `request` under `key`, or undefined when it has none yet. */
  private answerOf(key: string, request: InputRequest): Record<string, unknown> | undefined {
    if (Object.hasOwn(this.answers, key)) return this.answers[key] as Record<string, unknown>;
    if (!Object.hasOwn(this.responses, key)) return undefined;
    const answer = this.responses[key];
    if (!validAnswer(request.method, answer)) {
      throw WireError.invalidParams(`inputResponses.${key} is not a valid answer to ${request.method}`);
    }
    this.answers[key] = answer;
    return answer as Record<string, unknown>;
  }

  /** One question: its answer, or unwinds with INPUT_REQUIRED after queuing it. */
  ask(request: InputRequest, key: string = this.autoKey()): Promise<Record<string, unknown>> {
    return this.askAll({ [key]: request }).then((all) => all[key]!);
  }

  /** Several questions in one round: every answer, or unwinds after queuing the unanswered ones. */
  askAll(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, Record<string, unknown>>> {
    const out: Record<string, Record<string, unknown>> = {};
    let missing = false;
    try {
      for (const [key, request] of Object.entries(requests)) {
        const answer = this.answerOf(key, request);
        if (answer !== undefined) out[key] = answer;
        else {
          missing = true;
          const queued = (this.queued ??= new Map());
          if (!queued.has(key)) queued.set(key, request);
        }
      }
    } catch (e) {
      return Promise.reject(e);
    }
    return missing ? Promise.reject(INPUT_REQUIRED) : Promise.resolve(out);
  }
}

/**
 * The layout of sealed state. 3: `p` is the principal key (issuer, kind and subject); a state
 * of 2 named the subject alone, so one sealed before the change is refused, never reread.
 */
const STATE_VERSION = 3;

/** How long sealed state stays valid. */
export const DEFAULT_STATE_TTL_MS = 10 * 60_000;

function salientParams(params: Params): Params {
  const rest: Params = {};
  for (const k of Object.keys(params)) {
    if (k !== '_meta' && k !== 'inputResponses' && k !== 'requestState') rest[k] = params[k];
  }
  return rest;
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
 * Restores the answers of earlier rounds from a retry's `requestState`, and takes this
 * retry's `inputResponses`. Forged, expired or misplaced state is refused with -32602, and
 * so are `inputResponses` that are not an object. Responses to questions the handler does
 * not ask are ignored.
 */
export function restoreState(
  codec: RequestStateCodec,
  method: string,
  params: Params,
  authInfo: unknown,
): MrtrState | Promise<MrtrState> {
  const responses = params.inputResponses;
  if (responses !== undefined && !isObject(responses)) {
    throw WireError.invalidParams('inputResponses must be an object keyed by the inputRequests keys');
  }
  const token = params.requestState;
  // A first call (no state to open) is answered at once: no promise, no await, for every modern call.
  if (token === undefined) return new MrtrState({}, responses);
  return openState(codec, method, params, authInfo, token, responses);
}

async function openState(
  codec: RequestStateCodec,
  method: string,
  params: Params,
  authInfo: unknown,
  token: unknown,
  responses: Record<string, unknown> | undefined,
): Promise<MrtrState> {
  const refuse = (why: string): never => {
    throw WireError.invalidParams(`requestState rejected: ${why}`);
  };
  if (typeof token !== 'string') refuse('not a string');
  const payload = await codec.open(token as string);
  if (!payload) return refuse('it failed verification');
  if (payload.v !== STATE_VERSION || payload.m !== method) refuse('it belongs to another method');
  if (typeof payload.exp !== 'number' || payload.exp < Date.now()) refuse('it has expired');
  if (payload.p !== principalKey(authInfo)) refuse('it belongs to another principal');
  if (payload.d !== (await digestRequest(method, salientParams(params))))
    refuse('it belongs to another request');
  if (!isObject(payload.a)) refuse('it is malformed');
  const round = typeof payload.r === 'number' && Number.isInteger(payload.r) ? payload.r : 1;
  return new MrtrState({ ...(payload.a as Record<string, unknown>) }, responses, round);
}

/** Builds the `input_required` result for the state's unanswered questions. */
export async function inputRequiredResult(
  codec: RequestStateCodec,
  state: MrtrState,
  method: string,
  params: Params,
  authInfo: unknown,
  ttlMs: number,
): Promise<Record<string, unknown>> {
  const requestState = await codec.seal({
    v: STATE_VERSION,
    m: method,
    d: await digestRequest(method, salientParams(params)),
    p: principalKey(authInfo),
    exp: Date.now() + ttlMs,
    a: state.answers,
    r: state.round + 1,
  });
  const inputRequests: Record<string, unknown> = {};
  for (const [key, request] of state.pending) {
    const wire: Record<string, unknown> = { method: request.method };
    if (request.params !== undefined) wire.params = request.params;
    inputRequests[key] = wire;
  }
  return { resultType: 'input_required', inputRequests, requestState };
}

export { canonicalJson };
