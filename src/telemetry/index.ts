export { Telemetry, loadTelemetry, INSTRUMENTATION_NAME } from './telemetry.js';
export type { OtelApi } from './telemetry.js';
export type { TelemetryOptions, TelemetrySetting } from './telemetry-options.js';
export { MAX_PROPAGATION_VALUE } from './meta-carrier.js';
