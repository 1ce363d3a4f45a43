/**
 * One interceptor model for both ends (SEP-2624's vocabulary): validators pass or fail a
 * payload, mutators change it (in priority order, all or nothing), and wraps sit around
 * the whole call like onion middleware (the server's `use(middleware)` is a wrap). The
 * server and the client each build an {@link InterceptorChain} over their own request shape.
 */
import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { SessionLogger } from './session-types.js';
import type {
  InterceptedNotification,
  Interception,
  Interceptor,
  InterceptorPhase,
  Mutator,
  NotificationInterception,
  ValidationSeverity,
  ValidationVerdict,
  Validator,
  ValidatorResult,
  Wrap,
} from './interceptor-types.js';
export type {
  CallInterception,
  InterceptedNotification,
  Interception,
  Interceptor,
  InterceptorMode,
  InterceptorPhase,
  Mutator,
  NotificationInterception,
  ValidationMessage,
  ValidationSeverity,
  ValidationVerdict,
  Validator,
  ValidatorResult,
  Wrap,
} from './interceptor-types.js';

/** An early answer from a request-phase mutator: the call goes no further. */
export class EarlyAnswer {
  constructor(readonly result: unknown) {}
}

/**
 * Answers a request from a request-phase mutator, without the handler (server) or the
 * round trip (client). Response-phase interceptors still see the answer.
 *
 * @example
 * ```ts
 * const canned: Mutator = {
 *   type: 'mutation',
 *   name: 'canned',
 *   events: ['tools/list'],
 *   phases: ['request'],
 *   mutate: () => answer({ tools: [] }),
 * };
 * ```
 */
export function answer(result: unknown): EarlyAnswer {
  return new EarlyAnswer(result);
}

/** Whether an event pattern (`*`, `ns/*` or a method name) covers a method. */
export function eventMatches(pattern: string, method: string): boolean {
  if (pattern === '*' || pattern === method) return true;
  return pattern.endsWith('/*') && method.startsWith(pattern.slice(0, -1));
}

function covers(events: readonly string[] | undefined, method: string): boolean {
  if (!events) return true;
  for (const e of events) if (eventMatches(e, method)) return true;
  return false;
}

function inPhase(i: Validator<never> | Mutator<never>, phase: InterceptorPhase): boolean {
  // Notifications are opt-in: an interceptor written for calls must not see them unasked.
  if (phase === 'notification') return i.phases !== undefined && i.phases.includes(phase);
  return !i.phases || i.phases.includes(phase);
}

/** A mutator's priority for a phase (SEP-2624's resolvePriority). */
export function priorityOf(m: { priorityHint?: Mutator['priorityHint'] }, phase: InterceptorPhase): number {
  const hint = m.priorityHint;
  if (hint === undefined) return 0;
  return typeof hint === 'number' ? hint : (hint[phase] ?? 0);
}

/** What runs for one method in one phase, worked out once per method. */
interface PhasePlan<R> {
  validators: Validator<R>[];
  mutators: Mutator<R>[];
}

interface MethodPlan<R> {
  wraps: Wrap<R>[];
  request: PhasePlan<R> | undefined;
  response: PhasePlan<R> | undefined;
  /** For a notification of this method: its wraps and its phase. */
  notificationWraps: Wrap<R>[];
  notification: PhasePlan<R> | undefined;
}

const PHASES = ['request', 'response', 'notification'] as const;

/** Plans are memoized per method; a peer may invent methods, so the memo is bounded. */
const MAX_PLANS = 256;

/** The request shape a chain runs over: the server's `{ method, params, ctx }`, the client's. */
export interface InterceptedRequest {
  readonly method: string;
  readonly params: Params;
}

export interface ChainOptions {
  /**
   * Which side runs the chain. The server receives requests (validate, then mutate) and
   * sends responses (mutate, then validate); the client the other way round.
   */
  side: 'server' | 'client';
  /** May `next()` be called again once the previous call settled (retries)? */
  reentrant: boolean;
  logger: SessionLogger;
}

/**
 * The interceptors of one server or client, run over a request and its handler.
 * Internal: the server and the client build one when interceptors are added.
 */
export class InterceptorChain<R extends InterceptedRequest> {
  private readonly plans = new Map<string, MethodPlan<R>>();

  constructor(
    private readonly list: readonly Interceptor<R>[],
    private readonly options: ChainOptions,
  ) {}

  /** Runs `inner` through the chain: wraps outermost (first added first), then the phases. */
  run(request: R, inner: (request: R) => unknown): Promise<unknown> {
    const plan = this.planFor(request.method);
    if (plan.wraps.length === 0) return this.core(plan, request, inner);
    return this.step(plan, 0, request, inner);
  }

  private step(plan: MethodPlan<R>, i: number, request: R, inner: (request: R) => unknown): Promise<unknown> {
    if (i === plan.wraps.length) return this.core(plan, request, inner);
    // One `next` per wrap layer: it must know its layer and whether it was called.
    let state: 0 | 1 | 2 = 0; // 0 not called, 1 running, 2 settled
    const reentrant = this.options.reentrant;
    const next = (changed?: R): Promise<unknown> => {
      if (state === 1 || (state === 2 && !reentrant)) return Promise.reject(new Error('next() called twice'));
      state = 1;
      const p = this.step(plan, i + 1, changed ?? request, inner);
      return p.finally(() => (state = 2));
    };
    try {
      return Promise.resolve(plan.wraps[i]!.wrap(request, next));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private core(plan: MethodPlan<R>, request: R, inner: (request: R) => unknown): Promise<unknown> {
    if (plan.request || plan.response) return this.phases(plan, request, inner);
    // Only wraps for this method: the handler runs as it is, with no phase to await around it.
    try {
      return Promise.resolve(inner(request));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private async phases(plan: MethodPlan<R>, request: R, inner: (request: R) => unknown): Promise<unknown> {
    let result: unknown;
    let error: unknown;
    let failed = false;
    const before = plan.request;
    let early: EarlyAnswer | undefined;
    if (before) {
      const at: Interception<R> = { phase: 'request', request };
      const out = await this.phase(before, request.params, at, false);
      if (out instanceof EarlyAnswer) early = out;
      else if (out !== request.params) request = { ...request, params: out as Params };
    }
    if (early) result = early.result;
    else {
      try {
        result = await inner(request);
      } catch (e) {
        error = e;
        failed = true;
      }
    }
    const after = plan.response;
    if (after) {
      const at: Interception<R> = failed
        ? { phase: 'response', request, error }
        : { phase: 'response', request };
      const out = await this.phase(after, failed ? error : result, at, failed);
      if (out instanceof EarlyAnswer) {
        result = out.result;
        failed = false;
      } else if (failed) error = out;
      else result = out;
    }
    if (failed) throw error;
    return result;
  }

  /** Whether any interceptor sees notifications of `method`. */
  interceptsNotification(method: string): boolean {
    const plan = this.planFor(method);
    return plan.notification !== undefined || plan.notificationWraps.length > 0;
  }

  /**
   * Runs a notification through the chain, then `deliver`s it (sends or dispatches it) with
   * its params as changed. Synchronous interceptors keep it synchronous (`undefined` back);
   * the first promise makes the rest asynchronous (that promise back). A refusal (a
   * validator, or a fail-closed interceptor failing) is logged and the notification goes no
   * further; only `deliver`'s own failure is thrown (or rejects).
   */
  runNotification(n: InterceptedNotification, deliver: (params: Params) => void): Promise<void> | undefined {
    const plan = this.planFor(n.method);
    let out: Promise<void> | undefined;
    try {
      out = this.notificationStep(plan, 0, n, deliver);
    } catch (e) {
      this.notificationRefused(n, e);
      return undefined;
    }
    return out?.then(undefined, (e: unknown) => this.notificationRefused(n, e));
  }

  private notificationRefused(n: InterceptedNotification, e: unknown): void {
    if (e instanceof DeliveryFailure) throw e.error;
    this.options.logger(
      n.direction === 'outbound' ? 'debug' : 'warning',
      `Interceptors refused the ${n.direction} ${n.method} notification; ${n.direction === 'outbound' ? 'not sent' : 'dropped'}`,
      e,
    );
  }

  private notificationStep(
    plan: MethodPlan<R>,
    i: number,
    n: InterceptedNotification,
    deliver: (params: Params) => void,
  ): Promise<void> | undefined {
    const wraps = plan.notificationWraps;
    if (i === wraps.length) return this.notificationCore(plan.notification, n, deliver);
    let called = false;
    const next = (changed?: InterceptedNotification): Promise<void> => {
      if (called) return Promise.reject(new Error('next() called twice'));
      called = true;
      try {
        return this.notificationStep(plan, i + 1, changed ?? n, deliver) ?? DONE;
      } catch (e) {
        return Promise.reject(e);
      }
    };
    const r = wraps[i]!.wrapNotification!(n, next);
    return r instanceof Promise ? r.then(() => undefined) : undefined;
  }

  /** Validators and mutators, synchronous until one of them returns a promise. */
  private notificationCore(
    phase: PhasePlan<R> | undefined,
    n: InterceptedNotification,
    deliver: (params: Params) => void,
  ): Promise<void> | undefined {
    if (!phase) return send(deliver, n.params);
    const at: NotificationInterception = { phase: 'notification', request: n };
    const inbound = n.direction === 'inbound';
    // Receiving: validate the raw params first; sending: validate what will cross.
    if (inbound && phase.validators.length > 0) {
      const v = this.validate(phase.validators, n.params, at);
      if (v) return v.then(() => this.notificationMutate(phase, n, at, deliver));
    }
    return this.notificationMutate(phase, n, at, deliver);
  }

  private notificationMutate(
    phase: PhasePlan<R>,
    n: InterceptedNotification,
    at: NotificationInterception,
    deliver: (params: Params) => void,
  ): Promise<void> | undefined {
    const finish = (out: unknown): Promise<void> | undefined => {
      if (typeof out !== 'object' || out === null || Array.isArray(out))
        throw new WireError(
          -32603,
          'An interceptor made the notification params something other than an object',
        );
      const params = out as Params;
      if (n.direction === 'outbound' && phase.validators.length > 0) {
        const v = this.validate(phase.validators, params, at);
        if (v) return v.then(() => send(deliver, params));
      }
      return send(deliver, params);
    };
    if (phase.mutators.length === 0) return finish(n.params);
    // Mutators in order: one that returns a promise is awaited before the next runs.
    const r = this.mutateFrom(phase.mutators, 0, n.params, n.params, at, false);
    return r instanceof Promise ? r.then(finish) : finish(r);
  }

  /** One phase: validators and mutators in the trust-boundary order of this side. */
  private async phase(
    plan: PhasePlan<R>,
    payload: unknown,
    at: Interception<R>,
    failed: boolean,
  ): Promise<unknown> {
    // Receiving: validate the raw payload first; sending: validate what will cross.
    const receiving =
      at.phase === 'notification'
        ? at.request.direction === 'inbound'
        : (at.phase === 'request') === (this.options.side === 'server');
    if (receiving) await this.validate(plan.validators, payload, at);
    const out = await this.mutate(plan.mutators, payload, at, failed);
    if (!receiving && !(out instanceof EarlyAnswer)) await this.validate(plan.validators, out, at);
    return out;
  }

  /** Throws a refusal, or returns a promise of one when a validator is asynchronous. */
  private validate(
    validators: Validator<R>[],
    payload: unknown,
    at: Interception<R>,
  ): Promise<void> | undefined {
    if (validators.length === 0) return undefined;
    // In parallel: start them all, then collect every verdict before deciding. Synchronous
    // verdicts (the common case) need no promise.
    const settled: Array<PromiseSettledResult<unknown>> = new Array(validators.length);
    let pending = false;
    for (let i = 0; i < validators.length; i++) {
      try {
        const value = validators[i]!.validate(payload, at);
        if (value instanceof Promise) pending = true;
        settled[i] = { status: 'fulfilled', value };
      } catch (reason) {
        settled[i] = { status: 'rejected', reason };
      }
    }
    if (pending)
      return Promise.allSettled(
        settled.map((s) => (s.status === 'fulfilled' ? s.value : Promise.reject(s.reason))),
      ).then((all) => this.decide(validators, all, at));
    this.decide(validators, settled, at);
    return undefined;
  }

  private decide(
    validators: Validator<R>[],
    settled: Array<PromiseSettledResult<unknown>>,
    at: Interception<R>,
  ): void {
    const blocking: Array<{ interceptor: string; severity: ValidationSeverity; message: string }> = [];
    let refusal: WireError | undefined;
    for (let i = 0; i < validators.length; i++) {
      const v = validators[i]!;
      const s = settled[i]!;
      const audit = v.mode === 'audit';
      if (s.status === 'rejected') {
        if (s.reason instanceof WireError && !audit) refusal ??= s.reason;
        else if (!this.failed(v, s.reason, audit)) refusal ??= failure(v, 'Interceptor validation failed');
        continue;
      }
      const verdict = s.value as ValidationVerdict;
      // Only `false` or `{ valid: false }` fails: any other value passes.
      if (verdict !== false && (typeof verdict !== 'object' || verdict === null || verdict.valid !== false))
        continue;
      const outcome: ValidatorResult = verdict === false ? { valid: false } : verdict;
      const severity = outcome.severity ?? 'error';
      if (severity !== 'error' || audit) {
        this.options.logger(
          'debug',
          `Interceptor ${v.name}: ${at.phase} of ${at.request.method} not valid`,
          outcome,
        );
        continue;
      }
      const first = outcome.messages?.[0]?.message;
      blocking.push({ interceptor: v.name, severity, message: first ?? 'Validation failed' });
    }
    if (refusal) throw refusal;
    if (blocking.length > 0)
      throw WireError.invalidParams('Interceptor validation failed', { validationErrors: blocking });
  }

  /** Mutators in order, all or nothing: a failure drops every change of this phase. */
  private async mutate(
    mutators: Mutator<R>[],
    payload: unknown,
    at: Interception<R>,
    failed: boolean,
  ): Promise<unknown> {
    return this.mutateFrom(mutators, 0, payload, payload, at, failed);
  }

  /**
   * Mutators from `start` on, synchronously while they are: the first promise one returns
   * makes the rest asynchronous (a Promise back); otherwise the value itself comes back.
   */
  private mutateFrom(
    mutators: Mutator<R>[],
    start: number,
    payload: unknown,
    current: unknown,
    at: Interception<R>,
    failed: boolean,
  ): unknown {
    for (let i = start; i < mutators.length; i++) {
      const m = mutators[i]!;
      let out: unknown;
      try {
        out = m.mutate(current, at);
        if (out instanceof Promise) {
          const from = current;
          return out.then(
            (value: unknown) => {
              const next = this.mutated(m, value, from, at, failed);
              if (next instanceof EarlyAnswer) return next;
              return this.mutateFrom(mutators, i + 1, payload, next, at, failed);
            },
            (e: unknown) => this.mutatorFailed(m, e, payload),
          );
        }
      } catch (e) {
        return this.mutatorFailed(m, e, payload);
      }
      const next = this.mutated(m, out, current, at, failed);
      if (next instanceof EarlyAnswer) return next;
      current = next;
    }
    return current;
  }

  /** A mutator threw: a WireError refuses, else fail-open keeps the untouched payload. */
  private mutatorFailed(m: Mutator<R>, e: unknown, payload: unknown): unknown {
    if (e instanceof WireError && m.mode !== 'audit') throw e;
    if (this.failed(m, e, m.mode === 'audit')) return payload;
    throw failure(m, 'Interceptor mutation failed');
  }

  /** The payload after one mutator's output (an EarlyAnswer ends the phase). */
  private mutated(
    m: Mutator<R>,
    out: unknown,
    current: unknown,
    at: Interception<R>,
    failed: boolean,
  ): unknown {
    if (out === undefined || m.mode === 'audit') return current;
    if (out instanceof EarlyAnswer) {
      // A notification has nobody to answer: an early answer is meaningless there.
      if (at.phase === 'notification') return current;
      if (at.phase === 'request' || failed) return out;
      out = out.result;
    }
    // A failed call's payload is its error: only another error may replace it.
    if (failed && !(out instanceof Error)) return current;
    return out;
  }

  /** Logs an interceptor's own failure; true when the message may go on regardless. */
  private failed(i: Validator<R> | Mutator<R>, e: unknown, audit: boolean): boolean {
    const open = audit || i.failOpen === true;
    this.options.logger(open ? 'warning' : 'error', `Interceptor ${i.name} failed`, e);
    return open;
  }

  private planFor(method: string): MethodPlan<R> {
    let plan = this.plans.get(method);
    if (plan) return plan;
    const wraps: Wrap<R>[] = [];
    const notificationWraps: Wrap<R>[] = [];
    const byPhase = {
      request: { validators: [], mutators: [] },
      response: { validators: [], mutators: [] },
      notification: { validators: [], mutators: [] },
    } as {
      request: PhasePlan<R>;
      response: PhasePlan<R>;
      notification: PhasePlan<R>;
    };
    for (const i of this.list) {
      if (!covers(i.events, method)) continue;
      if (i.type === 'wrap') {
        wraps.push(i);
        if (i.wrapNotification) notificationWraps.push(i);
        continue;
      }
      for (const phase of PHASES) {
        if (!inPhase(i, phase)) continue;
        if (i.type === 'validation') byPhase[phase].validators.push(i);
        else byPhase[phase].mutators.push(i);
      }
    }
    for (const phase of PHASES) {
      byPhase[phase].mutators.sort(
        (a, b) =>
          priorityOf(a, phase) - priorityOf(b, phase) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      );
    }
    const some = (p: PhasePlan<R>): PhasePlan<R> | undefined =>
      p.validators.length + p.mutators.length > 0 ? p : undefined;
    plan = {
      wraps,
      request: some(byPhase.request),
      response: some(byPhase.response),
      notificationWraps,
      notification: some(byPhase.notification),
    };
    if (this.plans.size < MAX_PLANS) this.plans.set(method, plan);
    return plan;
  }
}

/** A failure of the delivery itself (the transport, a handler), not of an interceptor. */
class DeliveryFailure {
  constructor(readonly error: unknown) {}
}

const DONE: Promise<void> = Promise.resolve();

/** Delivers, marking its failure as the delivery's. */
function send(deliver: (params: Params) => void, params: Params): undefined {
  try {
    deliver(params);
  } catch (e) {
    throw new DeliveryFailure(e);
  }
  return undefined;
}

/** The refusal of a fail-closed interceptor that failed: generic, the detail is in the log. */
function failure(i: { name: string }, message: string): WireError {
  return new WireError(-32603, message, { interceptor: i.name });
}
