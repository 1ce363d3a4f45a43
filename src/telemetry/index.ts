export { Telemetry, createTelemetry, INSTRUMENTATION_NAME } from './telemetry.js';
export type { OtelApi } from './telemetry.js';
export { loadTelemetry } from './load.js';
export type { TelemetryOptions, TelemetrySetting } from './telemetry-options.js';
export { MAX_PROPAGATION_VALUE } from './meta-carrier.js';
