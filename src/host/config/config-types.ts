/**
 * The host's configuration, after parsing and validation. The JSON that applications
 * already write (Claude Desktop and Cursor's `mcpServers`, VS Code's `servers`) is read
 * into these shapes by {@link parseHostConfig}.
 */
import type { EraPreference } from '../../client/index.js';
import type { Principal } from '../../protocol/principal.js';

/**
 * The LLM provider types a config may name (`mcpkit.llm.providers.<name>.type`), in the order
 * messages list them. Each has one row in llm/provider-registry.ts, which builds it.
 */
export const PROVIDER_TYPES = ['openai', 'anthropic', 'interactive'] as const;

/** A provider type a config may name. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** What a policy says about a call: run it, refuse it, or ask the user first. */
export type Decision = 'allow' | 'deny' | 'ask';

/** Calls a server may make per window; more are refused until the window moves on. */
export interface RateLimit {
  /** Calls allowed per window. */
  calls: number;
  /** The window, in ms (default 60 000). */
  perMs: number;
}

/** Policy for one server: a default, and exact per-tool decisions by the server's own tool name. */
export interface ServerPolicy {
  /** For tools without their own entry (default: the host's default, itself `ask`). */
  default?: Decision;
  /** Keyed by the tool's exact name as the server lists it (never by the LLM-facing alias). */
  tools?: Record<string, Decision>;
  /** Resources reads and prompt fetches (default `allow`: they run no code on your behalf). */
  reads?: Decision;
}

/** How long things may take, in ms. */
export interface Timeouts {
  /** Start and opening handshake (default 15 000). */
  connectMs: number;
  /** One tool call, read or prompt (default 60 000). */
  callMs: number;
  /** The `auto` era probe (default 3000). */
  probeMs: number;
}

/** Restart behaviour after a crash or a lost connection. */
export interface RestartPolicy {
  /** Restarts in a row before the server is marked `failed` (default 5; 0 turns restarts off). */
  maxRestarts: number;
  /** First delay (default 500 ms); each further attempt doubles it. */
  initialDelayMs: number;
  /** Longest delay (default 30 000 ms). */
  maxDelayMs: number;
  /** A connection that stayed up this long resets the count (default 60 000 ms). */
  resetAfterMs: number;
}

interface ServerCommon {
  /** The key in the config. */
  name: string;
  /** Skip this server (Cursor's and Cline's `disabled`). */
  disabled: boolean;
  era: EraPreference;
  timeouts: Timeouts;
  restart: RestartPolicy;
  /**
   * Roots this server is told, as absolute paths (normalized). Undefined: the host's
   * roots. A server is never told a root outside the host's roots when those are set.
   */
  roots: string[] | undefined;
  policy: ServerPolicy;
  rateLimit: RateLimit | undefined;
}

/** A local server the host starts as a child process. */
export interface StdioServerConfig extends ServerCommon {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Extra variables for the child, on top of a safe inherited set. */
  env: Record<string, string>;
  cwd: string | undefined;
  /** What happens to the server's stderr: kept in a ring buffer for diagnostics (default), shown, or dropped. */
  stderr: 'capture' | 'inherit' | 'ignore';
}

/** A remote server reached over Streamable HTTP, or the legacy HTTP+SSE transport. */
export interface HttpServerConfig extends ServerCommon {
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** `http` only: fall back to HTTP+SSE when the server does not speak Streamable HTTP (default true). */
  legacySseFallback: boolean;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** One model the host may use, with the traits modelPreferences are matched against. */
export interface ModelConfig {
  /** The model id sent to the provider. */
  id: string;
  /** The provider name (a key of {@link LlmConfig.providers}). */
  provider: string;
  /** Other names this model answers to in hints (`claude-3-sonnet` → a local model, say). */
  aliases: string[];
  /** Relative traits from 0 to 1 (default 0.5 each): cost (1 = most expensive), speed, intelligence. */
  cost: number;
  speed: number;
  intelligence: number;
}

/** A provider endpoint: an OpenAI-compatible chat completions API, or Anthropic Messages. */
export interface ProviderConfig {
  /** A row of the provider registry (`host/llm/provider-registry.ts`). */
  type: ProviderType;
  /** The API's base URL (llama.cpp, vLLM, Ollama, a proxy...). */
  baseURL: string | undefined;
  /** The key, usually written as `${OPENAI_API_KEY}`. */
  apiKey: string | undefined;
  headers: Record<string, string>;
  timeoutMs: number | undefined;
}

/** The LLMs the host may call, for sampling and for its own agent loop. */
export interface LlmConfig {
  providers: Record<string, ProviderConfig>;
  models: ModelConfig[];
  /** The model used when preferences give no better match (default: the first). */
  defaultModel: string | undefined;
}

/** JWT access tokens the gateway accepts from its callers (RFC 9068, checked by `jwtVerifier`). */
export interface GatewayJwtConfig {
  /** The accepted issuers (at least one). */
  issuer: string[];
  /** The gateway's identifiers a token must name in `aud` (at least one). */
  audience: string[];
  /** Where the issuers publish their keys. */
  jwksUrl: string;
  /** The gateway's public MCP URL, its RFC 9728 resource (default: the first audience). */
  resource: string;
  /** The authorization servers named in the resource metadata (default: the issuers). */
  authorizationServers: string[];
  /** Scopes every request needs (default none). */
  scopes: string[];
}

/** How the gateway's HTTP endpoint authenticates its callers (`mcpkit.gateway.auth`). */
export interface GatewayAuthConfig {
  /**
   * Static bearer tokens by name, usually `"${GATEWAY_TOKEN}"`. A caller with one is the
   * principal `{ issuer: '', subject: name, kind: 'client' }`.
   */
  tokens: Record<string, string>;
  jwt: GatewayJwtConfig | undefined;
}

/** What one of the gateway's callers may reach (`mcpkit.gateway.principals[]`). */
export interface PrincipalRule {
  principal: Principal;
  /**
   * `*`: everything the policy allows. Otherwise per server: `*` (its tools, resources and
   * prompts) or the tools it may call, by their exact upstream names.
   */
  allow: '*' | Record<string, '*' | string[]>;
}

/**
 * Who among the gateway's callers sees some of a server's items (`mcpkit.gateway.visibility[]`):
 * to a caller without the scopes and claims, they do not exist (unlisted, and unknown when
 * called, read or got).
 */
export interface GatewayVisibilityRule {
  /** The server whose items the rule hides. */
  server: string;
  /** Its tools the rule is about, by upstream name; undefined: all its tools, resources and prompts. */
  tools: string[] | undefined;
  /** Scopes the caller's token must all hold. */
  scopes: string[];
  /** Claims the caller's token must have: each equal to the value, or to one of the list. */
  claims: Record<string, string | string[]>;
}

/** The gateway's own settings (`mcpkit.gateway`). */
export interface GatewayConfig {
  auth: GatewayAuthConfig | undefined;
  /** Scope and claim rules on what each caller sees; undefined: every caller sees everything. */
  visibility?: GatewayVisibilityRule[] | undefined;
  /**
   * Per-caller allow lists: when set, a gateway caller reaches only what its rule allows
   * (and what the servers' policies allow); callers without a rule, and unauthenticated
   * ones, reach nothing. Undefined: no per-caller rules.
   */
  principals: PrincipalRule[] | undefined;
}

/** Everything the host runs from. */
export interface HostConfig {
  /** Where it was read from, for messages. */
  file: string | undefined;
  servers: Record<string, ServerConfig>;
  /** The directories the host may tell servers about, as normalized absolute paths. */
  roots: string[];
  /** The decision for tools no rule names (default `ask`). */
  defaultDecision: Decision;
  llm: LlmConfig;
  /** The gateway's inbound authentication and per-caller rules, when configured. */
  gateway?: GatewayConfig;
  /** Things worth a line that did not stop the config from loading (unknown fields...). */
  warnings: string[];
}
