/**
 * The OpenTelemetry SDK for a CLI command, configured from the standard `OTEL_*` environment:
 * OTLP exporters (http/json or http/protobuf) or a console exporter (on stderr, since stdout
 * may be the protocol), the W3C propagators and an AsyncLocalStorage context manager. Main
 * imports this file only when `otelWanted()` says the environment asks for it.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  ExportResultCode,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { exporterNames } from './otel-wanted.js';

/**
 * The longest exit waits for the last spans and metrics: an exporter that is down (or a
 * collector that never answers) must not hold a finished command open.
 */
export const OTEL_SHUTDOWN_MS = 2000;

/** The SDK of one command run. */
export interface CliOtel {
  /** Flushes and stops the exporters, waiting at most {@link OTEL_SHUTDOWN_MS}; false if it timed out. */
  shutdown(): Promise<boolean>;
}

const SIGNALS: ReadonlyArray<[NodeJS.Signals, number]> = [
  ['SIGINT', 2],
  ['SIGTERM', 15],
];

/** Writes each finished span as one JSON line on stderr (`OTEL_TRACES_EXPORTER=console`). */
class StderrSpanExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const s of spans) {
      const sc = s.spanContext();
      process.stderr.write(
        `${JSON.stringify({
          name: s.name,
          kind: s.kind,
          traceId: sc.traceId,
          spanId: sc.spanId,
          parentSpanId: s.parentSpanContext?.spanId,
          durationMs: s.duration[0] * 1e3 + s.duration[1] / 1e6,
          status: s.status,
          attributes: s.attributes,
        })}\n`,
      );
    }
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Writes each metric's data points as one JSON line on stderr (`OTEL_METRICS_EXPORTER=console`). */
class StderrMetricExporter implements PushMetricExporter {
  export(batch: ResourceMetrics, done: (result: ExportResult) => void): void {
    for (const scope of batch.scopeMetrics)
      for (const m of scope.metrics)
        process.stderr.write(
          `${JSON.stringify({
            metric: m.descriptor.name,
            points: m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })),
          })}\n`,
        );
    done({ code: ExportResultCode.SUCCESS });
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

type Signal = 'traces' | 'metrics';

/** The exporters a signal uses: the `OTEL_*_EXPORTER` list, else OTLP when an endpoint is set. */
function exportersFor(signal: Signal, env: NodeJS.ProcessEnv): string[] {
  const key = signal === 'traces' ? 'OTEL_TRACES_EXPORTER' : 'OTEL_METRICS_EXPORTER';
  const named = exporterNames(env[key]);
  if (named.length > 0) return named.filter((n) => n !== 'none');
  const endpoint =
    env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`] || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint ? ['otlp'] : [];
}

/** `http/json` or `http/protobuf` (the spec's default); gRPC is not bundled, so it falls back. */
function protocolFor(signal: Signal, env: NodeJS.ProcessEnv): 'http/json' | 'http/protobuf' {
  const p = (
    env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`] ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    ''
  )
    .trim()
    .toLowerCase();
  if (p === 'http/json') return 'http/json';
  if (p !== '' && p !== 'http/protobuf')
    process.stderr.write(`mcpkit: OTLP protocol "${p}" is not supported; using http/protobuf\n`);
  return 'http/protobuf';
}

// The OTLP exporters read their endpoint, headers, timeout and compression from the
// environment themselves; only the protocol picks the package.
async function spanExporter(name: string, env: NodeJS.ProcessEnv): Promise<SpanExporter | undefined> {
  if (name === 'console') return new StderrSpanExporter();
  if (name !== 'otlp') {
    process.stderr.write(`mcpkit: OTEL_TRACES_EXPORTER "${name}" is not supported (otlp, console, none)\n`);
    return undefined;
  }
  const { OTLPTraceExporter } =
    protocolFor('traces', env) === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

async function metricExporter(name: string, env: NodeJS.ProcessEnv): Promise<PushMetricExporter | undefined> {
  if (name === 'console') return new StderrMetricExporter();
  if (name !== 'otlp') {
    process.stderr.write(`mcpkit: OTEL_METRICS_EXPORTER "${name}" is not supported (otlp, console, none)\n`);
    return undefined;
  }
  const { OTLPMetricExporter } =
    protocolFor('metrics', env) === 'http/json'
      ? await import('@opentelemetry/exporter-metrics-otlp-http')
      : await import('@opentelemetry/exporter-metrics-otlp-proto');
  return new OTLPMetricExporter();
}

/** A positive integer from the environment, or the fallback. */
function envMs(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * Starts the SDK for `command` and registers it globally. The service is `OTEL_SERVICE_NAME`
 * (or `service.name` in `OTEL_RESOURCE_ATTRIBUTES`), else `mcpkit-<command>`.
 */
export async function startCliOtel(command: string, env: NodeJS.ProcessEnv = process.env): Promise<CliOtel> {
  const resource: Resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': `mcpkit-${command}` }))
    .merge(detectResources({ detectors: [envDetector] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const stops: Array<() => Promise<void>> = [];
  const spanExporters = (
    await Promise.all(exportersFor('traces', env).map((n) => spanExporter(n, env)))
  ).filter((e) => e !== undefined);
  if (spanExporters.length > 0) {
    const tracerProvider = new BasicTracerProvider({
      resource,
      spanProcessors: spanExporters.map((e) => new BatchSpanProcessor(e)),
    });
    trace.setGlobalTracerProvider(tracerProvider);
    stops.push(() => tracerProvider.shutdown());
  }
  const metricExporters = (
    await Promise.all(exportersFor('metrics', env).map((n) => metricExporter(n, env)))
  ).filter((e) => e !== undefined);
  if (metricExporters.length > 0) {
    const interval = envMs(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000);
    const meterProvider = new MeterProvider({
      resource,
      readers: metricExporters.map(
        (exporter) =>
          new PeriodicExportingMetricReader({
            exporter,
            exportIntervalMillis: interval,
            exportTimeoutMillis: Math.min(envMs(env.OTEL_METRIC_EXPORT_TIMEOUT, 30_000), interval),
          }),
      ),
    });
    metrics.setGlobalMeterProvider(meterProvider);
    stops.push(() => meterProvider.shutdown());
  }

  let stopping: Promise<boolean> | undefined;
  const shutdown = (): Promise<boolean> =>
    (stopping ??= new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), OTEL_SHUTDOWN_MS);
      timer.unref();
      void Promise.allSettled(stops.map((stop) => stop())).then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    }));

  // A signal the command does not handle itself would end the process unflushed: flush (bounded),
  // then exit as the signal would have. Prepended, so it sees whether the command listens too
  // (then the command returns and main flushes).
  for (const [signal, number] of SIGNALS) {
    process.prependListener(signal, () => {
      if (process.listenerCount(signal) > 1) return;
      void shutdown().then(() => process.exit(128 + number));
    });
  }
  return { shutdown };
}
