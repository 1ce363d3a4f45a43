/**
 * How a server or client reports to OpenTelemetry. Every field is optional: `telemetry: true`
 * uses the globally registered tracer and meter providers and propagator.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpkit';
 * import type { TelemetryOptions } from 'mcpkit';
 *
 * const telemetry: TelemetryOptions = { propagate: true, metrics: false };
 * const server = new McpServer({ name: 'weather', version: '1.0.0' }, { telemetry });
 * ```
 */
export interface TelemetryOptions {
  // Typed by their shape, not by @opentelemetry/api's names: the API is an optional peer, and
  // an application that does not install it must still compile against mcpkit's types.
  /** Where spans go: an OpenTelemetry `TracerProvider` (default: `trace.getTracerProvider()`). */
  tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /** Where metrics go: an OpenTelemetry `MeterProvider` (default: `metrics.getMeterProvider()`). */
  meterProvider?: { getMeter(name: string, version?: string): unknown };
  /**
   * Carry W3C trace context (`traceparent`, `tracestate`, `baggage`) in `params._meta` of what
   * we send, and continue it from what we receive (default true; uses the global propagator).
   */
  propagate?: boolean;
  /** Record the duration, session and in-flight metrics (default true). */
  metrics?: boolean;
}

/** A server's or client's `telemetry` option: `true` for the defaults, or the options. */
export type TelemetrySetting = boolean | TelemetryOptions;
