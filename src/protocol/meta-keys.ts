/**
 * The protocol's reserved names, in one place: the `_meta` keys and the extension identifiers
 * (keys of `capabilities.extensions`). Transports may import this module, so it imports nothing.
 */

/** Reserved `_meta` keys. */
export const MetaKey = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  ProgressToken: 'progressToken',
  /** Ties a message to its task (tasks, 2025-11-25). */
  RelatedTask: 'io.modelcontextprotocol/related-task',
  /** The deprecated flat key some Apps hosts still read instead of `_meta.ui.resourceUri`. */
  LegacyAppResourceUri: 'ui/resourceUri',
} as const;

/** The MCP Apps extension (specification 2026-01-26). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The skills extension (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The interceptors extension (SEP-2624): `interceptors/list` and `interceptor/invoke`. */
export const INTERCEPTORS_EXTENSION = 'io.modelcontextprotocol/interceptors';
/**
 * The extension's identifier, for a client's `capabilities.extensions` (declaring that it
 * supports enterprise-managed authorization).
 *
 * @example
 * ```ts
 * const client = new Client(
 *   { name: 'my-app', version: '1.0.0' },
 *   { capabilities: { extensions: { [ENTERPRISE_MANAGED_AUTHORIZATION]: {} } } },
 * );
 * ```
 */
export const ENTERPRISE_MANAGED_AUTHORIZATION = 'io.modelcontextprotocol/enterprise-managed-authorization';
/** The tasks extension (2026-07-28): its capability key and reserved label. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
