/**
 * Whether the standard `OTEL_*` environment asks the CLI to export telemetry, told without
 * loading anything: the SDK bootstrap (`otel-env.ts`) is imported only when it does.
 */

/** The telemetry setting of the servers and clients a command builds (set by main). */
let telemetry: true | undefined;

/** `true` once main has started the SDK; commands spread it into their options. */
export function cliTelemetry(): { telemetry?: true } {
  return telemetry ? { telemetry } : {};
}

/** Main turns telemetry on for what the command builds, once the SDK is registered. */
export function enableCliTelemetry(): void {
  telemetry = true;
}

const EXPORTERS = new Set(['otlp', 'console']);

/** The names an `OTEL_*_EXPORTER` list gives, lower-cased. */
function exporterNames(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

/**
 * True when an OTLP endpoint is set, or `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER` names
 * `otlp` or `console`, and `OTEL_SDK_DISABLED` is not `true`.
 */
export function otelWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT
  )
    return true;
  return [...exporterNames(env.OTEL_TRACES_EXPORTER), ...exporterNames(env.OTEL_METRICS_EXPORTER)].some((n) =>
    EXPORTERS.has(n),
  );
}

export { exporterNames };
