/**
 * SEP-2624's `io.modelcontextprotocol/interceptors` extension on the server, behind
 * `ServerOptions.interceptorsExtension`: the server's named validators and mutators are
 * listed (`interceptors/list`) and invocable one at a time on a payload the client sends
 * (`interceptor/invoke`). Wraps are not SEP interceptors and are not listed.
 */
import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { INTERCEPTORS_EXTENSION } from '../protocol/meta-keys.js';
import type {
  InterceptorDescriptor,
  InvokeInterceptorResult,
  ListInterceptorsResult,
} from '../protocol/interceptors-wire.js';
import { EarlyAnswer, eventMatches } from '../session/interceptors.js';
import type {
  Interception,
  InterceptorPhase,
  Mutator,
  ValidationVerdict,
  Validator,
} from '../session/interceptors.js';
import type { SessionLogger } from '../session/session-types.js';
import type { MiddlewareRequest, ServerInterceptor } from './middleware.js';
import type { ServerContext } from './server-context.js';

type Listed = Validator<MiddlewareRequest> | Mutator<MiddlewareRequest>;

/** What the extension needs of its server. */
export interface InterceptorsHost {
  readonly interceptors: readonly ServerInterceptor[];
  method(name: string, handler: (params: Params, ctx: ServerContext) => unknown): unknown;
  declareExtension(id: string, settings?: Record<string, unknown>): void;
}

const PHASES: readonly InterceptorPhase[] = ['request', 'response'];

function onWire(phase: InterceptorPhase): phase is 'request' | 'response' {
  return phase !== 'notification';
}

function listed(host: InterceptorsHost): Listed[] {
  return host.interceptors.filter((i): i is Listed => i.type !== 'wrap');
}

function describe(i: Listed): InterceptorDescriptor {
  const events = [...(i.events ?? ['*'])];
  const d: InterceptorDescriptor = {
    name: i.name,
    type: i.type,
    // The extension's wire knows only SEP-2624's two phases; notification hooks stay local.
    hooks: (i.phases ?? PHASES).filter(onWire).map((phase) => ({ events, phase })),
  };
  if (i.description !== undefined) d.description = i.description;
  if (i.mode !== undefined) d.mode = i.mode;
  if (i.failOpen !== undefined) d.failOpen = i.failOpen;
  if (i.type === 'mutation' && i.priorityHint !== undefined) d.priorityHint = i.priorityHint;
  return d;
}

function hooks(i: Listed, event: string, phase?: InterceptorPhase): boolean {
  if (phase && i.phases && !i.phases.includes(phase)) return false;
  return (i.events ?? ['*']).some((e) => eventMatches(e, event) || e === event);
}

/** Declares the extension with the events the server's interceptors hook (again after each `use`). */
export function declareInterceptors(host: InterceptorsHost): void {
  const events = new Set<string>();
  for (const i of listed(host)) for (const e of i.events ?? ['*']) events.add(e);
  host.declareExtension(INTERCEPTORS_EXTENSION, { supportedEvents: [...events] });
}

/** Serves `interceptors/list` and `interceptor/invoke`, and declares the extension. */
export function serveInterceptors(host: InterceptorsHost, logger: SessionLogger): void {
  declareInterceptors(host);
  host.method('interceptors/list', (params): ListInterceptorsResult => {
    const event = params.event;
    if (event !== undefined && typeof event !== 'string')
      throw WireError.invalidParams('interceptors/list: event must be a string');
    const all = listed(host);
    return { interceptors: (event === undefined ? all : all.filter((i) => hooks(i, event))).map(describe) };
  });
  host.method('interceptor/invoke', (params, ctx) => invoke(host, params, ctx, logger));
}

async function invoke(
  host: InterceptorsHost,
  params: Params,
  ctx: ServerContext,
  logger: SessionLogger,
): Promise<InvokeInterceptorResult> {
  const { name, event, phase, timeoutMs } = params;
  if (typeof name !== 'string' || typeof event !== 'string' || (phase !== 'request' && phase !== 'response'))
    throw WireError.invalidParams(
      'interceptor/invoke needs a name, an event and a phase (request or response)',
    );
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0)))
    throw WireError.invalidParams('interceptor/invoke: timeoutMs must be a positive number');
  const i = listed(host).find((x) => x.name === name);
  if (!i) throw WireError.invalidParams(`Unknown interceptor: ${name.slice(0, 100)}`);
  if (!hooks(i, event, phase))
    throw WireError.invalidParams(`Interceptor ${name} does not hook ${event.slice(0, 100)} on ${phase}`);
  const payload = params.payload;
  const request = {
    method: event,
    params: phase === 'request' && typeof payload === 'object' && payload !== null ? (payload as Params) : {},
    ctx,
  } as MiddlewareRequest;
  const at: Interception<MiddlewareRequest> = { phase, request };
  const started = performance.now();
  let out: unknown;
  try {
    const run = i.type === 'validation' ? i.validate(payload, at) : i.mutate(payload, at);
    out =
      timeoutMs === undefined ? await run : await withTimeout(Promise.resolve(run), timeoutMs, name, phase);
  } catch (e) {
    if (e instanceof WireError) throw e;
    logger('error', `Interceptor ${name} failed`, e);
    throw new WireError(-32603, 'Interceptor execution failed', { interceptor: name });
  }
  const durationMs = performance.now() - started;
  if (i.type === 'mutation') {
    const next = out instanceof EarlyAnswer ? out.result : out;
    const modified = next !== undefined && next !== payload;
    return {
      interceptor: name,
      type: 'mutation',
      phase,
      durationMs,
      modified,
      payload: modified ? next : payload,
    };
  }
  const verdict = out as ValidationVerdict;
  const result: InvokeInterceptorResult = {
    interceptor: name,
    type: 'validation',
    phase,
    durationMs,
    valid: true,
  };
  if (verdict === false) Object.assign(result, { valid: false, severity: 'error' });
  else if (typeof verdict === 'object' && verdict !== null && verdict.valid === false) {
    result.valid = false;
    result.severity = verdict.severity ?? 'error';
    if (verdict.messages) result.messages = verdict.messages;
    if (verdict.info) result.info = verdict.info;
  }
  return result;
}

/** The SEP's timeout: -32000 with the interceptor, the limit and the phase. */
function withTimeout<T>(p: Promise<T>, ms: number, interceptor: string, phase: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new WireError(-32000, 'Interceptor execution timeout', { interceptor, timeoutMs: ms, phase })),
      ms,
    );
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
