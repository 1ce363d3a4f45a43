/**
 * How a server with `telemetry` on gets it: `@opentelemetry/api` and mcpkit's telemetry
 * module load in the background from construction, so a server without it never loads them.
 */
import type { ExchangeServer } from '../session/index.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';

/**
 * Loads the telemetry and hands it to `loaded`. Meanwhile session-less requests are declined,
 * so each is served by a session, whose connect waits for it: no request goes untraced. A
 * failure to load is logged and the server runs untraced.
 */
export function loadServerTelemetry(
  setting: TelemetrySetting,
  exchange: ExchangeServer,
  loaded: (telemetry: Telemetry) => void,
): Promise<void> {
  exchange.deferred = true;
  return import('../telemetry/telemetry.js')
    .then(({ createTelemetry }) => createTelemetry(setting))
    .then(
      (telemetry) => {
        exchange.observer = telemetry.exchangeObserver();
        loaded(telemetry);
      },
      (e: unknown) => exchange.logger('error', 'Telemetry could not load', e),
    )
    .finally(() => {
      exchange.deferred = false;
    });
}
