/**
 * Capability declarations. Both objects are open: peers may declare capabilities this
 * file does not name, and the known sub-objects accept settings we do not model.
 */

/** Settings object of one capability; `{}` means "supported, no settings". */
export interface CapabilitySettings {
  [key: string]: unknown;
}

/** Task support a client declares. @since 2025-11-25 @removed 2026-07-28 (now an extension) */
export interface ClientTasksCapability {
  list?: CapabilitySettings;
  cancel?: CapabilitySettings;
  /** Which server-to-client requests may be run as tasks. */
  requests?: {
    sampling?: { createMessage?: CapabilitySettings };
    elicitation?: { create?: CapabilitySettings };
  };
}

/** Task support a server declares. @since 2025-11-25 @removed 2026-07-28 (now an extension) */
export interface ServerTasksCapability {
  list?: CapabilitySettings;
  cancel?: CapabilitySettings;
  /** Which client-to-server requests may be run as tasks. */
  requests?: {
    tools?: { call?: CapabilitySettings };
  };
}

/** What a client supports. */
export interface ClientCapabilities {
  /** Non-standard capabilities, keyed by name. */
  experimental?: { [key: string]: CapabilitySettings };
  /**
   * The client answers `roots/list`.
   * @deprecated Roots are deprecated as of 2026-07-28.
   */
  roots?: {
    /** The client sends `notifications/roots/list_changed`. @removed 2026-07-28 */
    listChanged?: boolean;
  };
  /**
   * The client answers `sampling/createMessage`.
   * @deprecated Sampling is deprecated as of 2026-07-28.
   */
  sampling?: {
    /** `includeContext` values other than `none` are honoured. @since 2025-11-25 */
    context?: CapabilitySettings;
    /** `tools` and `toolChoice` are honoured. @since 2025-11-25 */
    tools?: CapabilitySettings;
  };
  /**
   * The client answers `elicitation/create`. An empty object means form mode only.
   * @since 2025-06-18
   */
  elicitation?: {
    /** @since 2025-11-25 */
    form?: CapabilitySettings;
    /** @since 2025-11-25 */
    url?: CapabilitySettings;
  };
  /** @since 2025-11-25 @removed 2026-07-28 */
  tasks?: ClientTasksCapability;
  /** Supported extensions, keyed by prefixed identifier. @since 2026-07-28 */
  extensions?: { [key: string]: CapabilitySettings };
  [key: string]: unknown;
}

/** What a server supports. */
export interface ServerCapabilities {
  /** Non-standard capabilities, keyed by name. */
  experimental?: { [key: string]: CapabilitySettings };
  /**
   * The server emits `notifications/message`.
   * @deprecated Logging is deprecated as of 2026-07-28.
   */
  logging?: CapabilitySettings;
  /** The server answers `completion/complete`. @since 2025-03-26 */
  completions?: CapabilitySettings;
  /** The server offers prompts. */
  prompts?: {
    /** The server emits `notifications/prompts/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers resources. */
  resources?: {
    /** Per-resource update notifications are available. */
    subscribe?: boolean;
    /** The server emits `notifications/resources/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers tools. */
  tools?: {
    /** The server emits `notifications/tools/list_changed`. */
    listChanged?: boolean;
  };
  /** @since 2025-11-25 @removed 2026-07-28 */
  tasks?: ServerTasksCapability;
  /** Supported extensions, keyed by prefixed identifier. @since 2026-07-28 */
  extensions?: { [key: string]: CapabilitySettings };
  [key: string]: unknown;
}
