/**
 * Test-only: the real OpenTelemetry SDK, in memory. `installOtel()` registers, once per
 * process, an AsyncLocalStorage context manager and the W3C trace-context and baggage
 * propagators globally, and returns a tracer provider whose spans land in an in-memory
 * exporter and a meter provider whose metrics are read on demand.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, Histogram, MetricData } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A metric reader that exports only when asked (`collect()`). */
class PullReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Otel {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** A tracer of the test's own, for the root spans a test opens around its calls. */
  readonly tracer: Tracer;
  /** Every finished span so far. */
  spans(): ReadableSpan[];
  /** The metrics recorded so far, by name. */
  metrics(): Promise<Map<string, MetricData>>;
}

let installed = false;

/** Sets the global context manager and propagators (once), and makes in-memory providers. */
export function installOtel(): Otel {
  if (!installed) {
    installed = true;
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(
      new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
    );
  }
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    tracer: tracerProvider.getTracer('test'),
    spans: () => exporter.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const out = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics)
        for (const m of scope.metrics) out.set(m.descriptor.name, m);
      return out;
    },
  };
}

/** The parent span id of a finished span (SDK 2.x keeps it in `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** The data points of a histogram metric. */
export function histogramPoints(m: MetricData | undefined): Array<DataPoint<Histogram>> {
  return (m?.dataPoints ?? []) as Array<DataPoint<Histogram>>;
}

/** Runs `fn` inside a fresh root span of the test's tracer; returns its result and the span. */
export async function inRootSpan<T>(
  otel: Otel,
  name: string,
  fn: () => Promise<T>,
): Promise<{ result: T; traceId: string; spanId: string }> {
  return otel.tracer.startActiveSpan(name, async (span) => {
    try {
      const result = await fn();
      const sc = span.spanContext();
      return { result, traceId: sc.traceId, spanId: sc.spanId };
    } finally {
      span.end();
    }
  });
}

export { trace };
