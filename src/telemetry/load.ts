import type { Telemetry } from './telemetry.js';
import type { TelemetrySetting } from './telemetry-options.js';

/**
 * Loads mcpkit's telemetry and `@opentelemetry/api` (an optional peer), on first use only,
 * and makes a {@link Telemetry}: for a host or gateway that wraps its own operations in spans
 * with {@link Telemetry.withSpan}, or a custom session given its observer. Rejects with a
 * `PackageMissing` error when `@opentelemetry/api` is not installed.
 *
 * @example
 * ```ts
 * import { loadTelemetry } from 'mcpkit/advanced';
 *
 * const telemetry = await loadTelemetry(true);
 * const answer = await telemetry.withSpan('agent turn', async () => 'done');
 * ```
 */
export async function loadTelemetry(setting: TelemetrySetting = true): Promise<Telemetry> {
  const { createTelemetry } = await import('./telemetry.js');
  return createTelemetry(setting);
}
