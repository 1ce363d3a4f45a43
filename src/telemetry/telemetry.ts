import type {
  Attributes,
  Meter,
  MeterProvider,
  Span,
  SpanKind,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import { importOptionalPeer } from '../jsonrpc/optional-peer.js';
import type { Transport } from '../jsonrpc/index.js';
import type { RequestContext, SessionObserver, TaskObserver } from '../session/index.js';
import { createInstruments } from './instruments.js';
import type { Instruments } from './instruments.js';
import { McpObserver } from './mcp-observer.js';
import type { TelemetryOptions, TelemetrySetting } from './telemetry-options.js';

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof import('@opentelemetry/api');

/** The instrumentation scope our spans and metrics are reported under. */
export const INSTRUMENTATION_NAME = 'mcpkit';

let apiLoad: Promise<OtelApi> | undefined;

/**
 * OpenTelemetry for mcpkit, over `@opentelemetry/api` alone: its tracer, meter and
 * instruments, and the session observers that report through them. A server or client
 * given `telemetry` makes one with `loadTelemetry`; the host and the gateway use
 * {@link Telemetry.withSpan} for their own operations.
 */
export class Telemetry {
  readonly tracer: Tracer;
  readonly meter: Meter | undefined;
  /** @internal The MCP metrics' instruments (undefined with `metrics: false`). */
  readonly instruments: Instruments | undefined;
  readonly propagate: boolean;
  /** `{ mcp.method.name }` per method, for the in-flight counters (made once per method). */
  private readonly methodAttrs = new Map<string, Attributes>();
  /** A tracer provider was given (not the global one, which may have no SDK behind it). */
  private readonly tracerGiven: boolean;
  /** The meter records: a provider was given or an SDK's was registered (not the API's no-op). */
  private readonly metering: boolean;

  constructor(
    readonly api: OtelApi,
    options: TelemetryOptions = {},
    version = '0.1.0',
  ) {
    // The options type the providers by shape (the API is an optional peer); they are the API's.
    const tracerProvider =
      (options.tracerProvider as TracerProvider | undefined) ?? api.trace.getTracerProvider();
    this.tracerGiven = options.tracerProvider !== undefined;
    this.tracer = tracerProvider.getTracer(INSTRUMENTATION_NAME, version);
    if (options.metrics !== false) {
      const meterProvider =
        (options.meterProvider as MeterProvider | undefined) ?? api.metrics.getMeterProvider();
      this.meter = meterProvider.getMeter(INSTRUMENTATION_NAME, version);
      this.instruments = createInstruments(this.meter);
    }
    // The global meter provider is no proxy: unregistered when we are made, it stays a no-op.
    this.metering = this.meter !== undefined && !(this.meter instanceof api.createNoopMeter().constructor);
    this.propagate = options.propagate !== false;
  }

  /**
   * Whether a session's spans and metrics would go anywhere. With `telemetry: true` and no SDK
   * registered (the global tracer provider is the API's proxy without a delegate), a span is
   * pure cost; checked per session, so an SDK registered before `connect` is still seen.
   */
  recording(): boolean {
    if (this.tracerGiven || this.metering) return true;
    const provider = this.api.trace.getTracerProvider();
    return (
      !(provider instanceof this.api.ProxyTracerProvider) ||
      provider.getDelegateTracer(INSTRUMENTATION_NAME) !== undefined
    );
  }

  /**
   * The observer for one session over `transport`, playing `role`; undefined when nothing
   * would record (see {@link Telemetry.recording}), so the session does no span work at all.
   */
  sessionObserver(role: 'client' | 'server', transport: Transport | undefined): SessionObserver | undefined {
    return this.recording() ? new McpObserver(this, role, transport, undefined) : undefined;
  }

  /** The observer for a server's session-less modern requests (one per server). */
  exchangeObserver(): SessionObserver {
    return new McpObserver(this, undefined, undefined, 'http');
  }

  /**
   * The observer of a server's tasks: a span over each task's whole life, from creation to a
   * terminal status, named `task {method} {tool}` and linked to the call that created it (the
   * task outlives that call, so it is a new trace's root, not its child).
   */
  taskObserver(): TaskObserver {
    const api = this.api;
    const tracer = this.tracer;
    return {
      taskCreated(taskId: string, ctx: RequestContext): unknown {
        const creator = api.trace.getSpanContext(api.context.active());
        const name = typeof ctx.params.name === 'string' ? `${ctx.method} ${ctx.params.name}` : ctx.method;
        const attributes: Attributes = { 'mcp.method.name': ctx.method, 'mcp.task.id': taskId };
        if (ctx.method === 'tools/call' && typeof ctx.params.name === 'string')
          attributes['gen_ai.tool.name'] = ctx.params.name;
        attributes['mcp.protocol.version'] = ctx.protocolVersion;
        return tracer.startSpan(`task ${name}`, {
          kind: api.SpanKind.INTERNAL,
          root: true,
          attributes,
          ...(creator && api.trace.isSpanContextValid(creator) ? { links: [{ context: creator }] } : {}),
        });
      },
      taskEnded(token: unknown, status: string, message: string | undefined): void {
        const span = token as Span;
        span.setAttribute('mcp.task.status', status);
        if (status !== 'completed') {
          span.setAttribute('error.type', status === 'failed' ? 'task_failed' : status);
          span.setStatus(
            message === undefined
              ? { code: api.SpanStatusCode.ERROR }
              : { code: api.SpanStatusCode.ERROR, message },
          );
        }
        span.end();
      },
    };
  }

  /** @internal `{ mcp.method.name: method }`, made once per method. */
  methodAttributes(method: string): Attributes {
    let a = this.methodAttrs.get(method);
    if (a === undefined) {
      if (this.methodAttrs.size >= 256) this.methodAttrs.clear();
      this.methodAttrs.set(method, (a = { 'mcp.method.name': method }));
    }
    return a;
  }

  /**
   * Runs `fn` inside a new span (a child of the active one, and active while `fn` runs): for
   * operations above the protocol, such as a host's agent turn or a gateway hop. The span
   * ends when `fn` settles; a throw marks it failed with `error.type` and is rethrown.
   */
  async withSpan<T>(
    name: string,
    fn: (span: Span) => T | Promise<T>,
    options: { kind?: SpanKind; attributes?: Attributes } = {},
  ): Promise<T> {
    const api = this.api;
    const span = this.tracer.startSpan(name, {
      kind: options.kind ?? api.SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
    });
    try {
      return await api.context.with(api.trace.setSpan(api.context.active(), span), fn, undefined, span);
    } catch (e) {
      span.setAttribute(
        'error.type',
        e instanceof Error ? ((e as { code?: unknown }).code?.toString() ?? e.name) : '_OTHER',
      );
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
      throw e;
    } finally {
      span.end();
    }
  }
}

/** Loads `@opentelemetry/api` and makes a {@link Telemetry}: see `loadTelemetry` (load.ts). */
export async function createTelemetry(setting: TelemetrySetting = true): Promise<Telemetry> {
  const api = await (apiLoad ??= importOptionalPeer(
    '@opentelemetry/api',
    'Telemetry',
    () => import('@opentelemetry/api'),
  ).catch((e: unknown) => {
    apiLoad = undefined;
    throw e;
  }));
  return new Telemetry(api, setting === true || setting === false ? {} : setting);
}
