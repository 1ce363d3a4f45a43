/**
 * The runtime warnings for the features SEP-2577 deprecated in MCP 2026-07-28, one text per
 * feature so every place that exercises it says the same thing (see docs/deprecations.md).
 */

const WHEN =
  'deprecated in MCP 2026-07-28 (SEP-2577) and may be removed from the first revision released on or after 2027-07-28';
const SILENCE = 'Set MCPKIT_NO_DEPRECATION=1 or call silenceDeprecations() to hide this warning.';

/** Warning text for roots (`roots/list`, `notifications/roots/list_changed`). */
export const ROOTS_DEPRECATED = `MCP roots are ${WHEN}. Pass directories or files as tool parameters, resource URIs or server configuration instead. ${SILENCE}`;
/** Warning text for sampling (`sampling/createMessage`). */
export const SAMPLING_DEPRECATED = `MCP sampling is ${WHEN}. Call an LLM provider's API from the server instead. ${SILENCE}`;
/** Warning text for logging (`logging/setLevel`, `notifications/message`). */
export const LOGGING_DEPRECATED = `MCP logging is ${WHEN}. Log to stderr (stdio) or use OpenTelemetry instead. ${SILENCE}`;
