/**
 * Server log messages. Logging is deprecated as of 2026-07-28, where the level is chosen
 * per request via `_meta['io.modelcontextprotocol/logLevel']` instead of `logging/setLevel`.
 */
import type { LoggingLevel, NotificationParams, RequestParams } from './base.js';

/**
 * Params of `logging/setLevel`. @removed 2026-07-28
 * @deprecated Logging is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Log to stderr or use OpenTelemetry.
 */
export interface SetLevelRequestParams extends RequestParams {
  /** Lowest severity the client wants to receive. */
  level: LoggingLevel;
}

/**
 * Params of `notifications/message`.
 * @deprecated Logging is deprecated as of 2026-07-28.
 */
export interface LoggingMessageNotificationParams extends NotificationParams {
  level: LoggingLevel;
  /** Name of the component that logged. */
  logger?: string;
  /** Any JSON value: a string, an object, … */
  data: unknown;
}
