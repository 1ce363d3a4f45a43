/**
 * Multi round-trip requests (2026-07-28): when a server answers `tools/call`,
 * `prompts/get` or `resources/read` with `resultType: 'input_required'`, gather each
 * input with the registered handler, then retry the original request with
 * `inputResponses` and the exact `requestState`, under a new JSON-RPC id.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { isMrtrMethod } from '../protocol/methods.js';
import type { RequestOptions } from '../session/options.js';
import type { Session } from '../session/session.js';
import type { ClientEra } from './client-era.js';
import type { HandlerContext } from './types.js';
import { isObject } from '../jsonrpc/is-object.js';

export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** What the MRTR loop needs from the client. */
export interface InputAnswerer {
  answer(method: string, params: Params, ctx: HandlerContext): Promise<Record<string, unknown>>;
}

/** Where the MRTR loop sends and who answers the server's questions. */
export interface InputLoop {
  session: Session;
  era: ClientEra;
  answerer: InputAnswerer;
  /** Retries allowed before `TooManyRounds`. */
  maxRounds: number;
  /** Fires when the client closes: stops the handlers. */
  closing: AbortSignal;
}

export interface MrtrOutcome {
  result: Record<string, unknown>;
  /** How many retries it took; 0 when the first answer was final. */
  rounds: number;
}

/**
 * Sends `method` and follows `input_required` answers until the server completes, or
 * fails with `TooManyRounds` after `maxRounds` retries. Each round is an independent
 * request with the caller's timeouts; the caller's signal covers the handlers as well.
 */
export async function requestWithInput(
  loop: InputLoop,
  method: string,
  params: Params,
  options: RequestOptions | undefined,
): Promise<MrtrOutcome> {
  const { session, era, answerer, maxRounds, closing } = loop;
  let current = params;
  for (let rounds = 0; ; rounds++) {
    const result = await session.request(method, current, options);
    const type = result.resultType;
    if (type === undefined || type === 'complete') return { result, rounds };
    // The tasks extension: a task handle instead of the result, for the caller to follow.
    if (type === 'task' && method === 'tools/call') return { result, rounds };
    if (type !== 'input_required') {
      throw new LocalError(
        'InvalidResult',
        `The server answered ${method} with an unknown resultType ${JSON.stringify(type)}`,
      );
    }
    if (!isMrtrMethod(method) || !era.inputRequired) {
      throw new LocalError(
        'InvalidResult',
        `The server answered ${method} with input_required, which is only valid for tools/call, prompts/get and resources/read in protocol 2026-07-28 and later`,
      );
    }
    if (rounds >= maxRounds) {
      throw new LocalError(
        'TooManyRounds',
        `The server still wanted input for ${method} after ${maxRounds} rounds; giving up (raise maxInputRounds if this is expected)`,
      );
    }
    const { inputRequests, requestState } = result;
    if (inputRequests !== undefined && !isObject(inputRequests)) {
      throw new LocalError(
        'InvalidResult',
        `input_required for ${method} has inputRequests that is not an object`,
      );
    }
    if (requestState !== undefined && typeof requestState !== 'string') {
      throw new LocalError(
        'InvalidResult',
        `input_required for ${method} has a requestState that is not a string`,
      );
    }
    if (inputRequests === undefined && requestState === undefined) {
      throw new LocalError(
        'InvalidResult',
        `input_required for ${method} has neither inputRequests nor requestState`,
      );
    }
    const next: Params = { ...params };
    if (inputRequests !== undefined) {
      const ctxBase = { era: era.name, protocolVersion: session.protocolVersion ?? '' };
      next.inputResponses = await answerAll(answerer, inputRequests, ctxBase, options?.signal, closing);
    }
    // Echo the exact state; never add one the server did not send.
    if (requestState !== undefined) next.requestState = requestState;
    current = next;
  }
}

async function answerAll(
  answerer: InputAnswerer,
  requests: Record<string, unknown>,
  base: Omit<HandlerContext, 'signal'>,
  callerSignal: AbortSignal | undefined,
  closing: AbortSignal,
): Promise<Record<string, unknown>> {
  const keys = Object.keys(requests);
  const entries: Array<[string, string, Params]> = [];
  for (const key of keys) {
    const entry = requests[key];
    if (!isObject(entry) || typeof entry.method !== 'string') {
      throw new LocalError(
        'InvalidResult',
        `Input request ${JSON.stringify(key)} is not a { method, params } object`,
      );
    }
    const p = entry.params;
    if (p !== undefined && !isObject(p)) {
      throw new LocalError(
        'InvalidResult',
        `Input request ${JSON.stringify(key)} has params that are not an object`,
      );
    }
    entries.push([key, entry.method, p ?? {}]);
  }
  // One controller per round, tied to the caller's signal and to the client closing;
  // both listeners are removed before returning, so long-lived signals collect nothing.
  const controller = new AbortController();
  const ctx: HandlerContext = { ...base, signal: controller.signal };
  let stop!: (e: unknown) => void;
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => undefined);
  const onAbort = (): void => {
    const closed = closing.aborted;
    const reason: unknown = closed ? undefined : callerSignal?.reason;
    const error = closed
      ? new LocalError('ConnectionClosed', 'The client closed while gathering input for the server')
      : new LocalError('Cancelled', 'The call was cancelled while gathering input for the server', {
          cause: reason,
        });
    controller.abort(error);
    stop(error);
  };
  if (callerSignal?.aborted || closing.aborted) {
    onAbort();
    return stopped;
  }
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  closing.addEventListener('abort', onAbort, { once: true });
  try {
    const all = Promise.all(entries.map(([, method, p]) => answerer.answer(method, p, ctx)));
    // If the call is aborted first, a handler failing later must not go unhandled.
    all.catch(() => undefined);
    const answers = await Promise.race([all, stopped]);
    return Object.fromEntries(entries.map(([key], i) => [key, answers[i]]));
  } finally {
    callerSignal?.removeEventListener('abort', onAbort);
    closing.removeEventListener('abort', onAbort);
  }
}
