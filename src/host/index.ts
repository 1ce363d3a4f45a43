/**
 * mcpkit's host: many MCP servers from one config, one policy, one catalog, an audit log,
 * LLM providers and an agent loop, and a gateway that serves it all as one MCP server.
 *
 * Node bindings (reading config files, spawning servers, the terminal UI) are
 * `mcpkit/host/node`; the Apps half is `mcpkit/host/apps`. Nothing here loads them eagerly.
 *
 * @packageDocumentation
 */

export { Host } from './host.js';
export type { HostOptions } from './host.js';
export type { HostCallOptions, ToolRef } from './host-calls.js';
export type { HostEvents, ServerLog } from './events.js';
export type { ServerHealth, ServerState } from './supervision/server-connection.js';

// Config
export { parseHostConfig } from './config/config-parse.js';
export type { ParseConfigOptions } from './config/config-parse.js';
export { ConfigError, HostError } from './errors.js';
export type { ConfigIssue, HostErrorCode } from './errors.js';
export type {
  Decision,
  GatewayAuthConfig,
  GatewayConfig,
  GatewayJwtConfig,
  GatewayVisibilityRule,
  HostConfig,
  HttpServerConfig,
  LlmConfig,
  ModelConfig,
  PrincipalRule,
  ProviderConfig,
  RateLimit,
  RestartPolicy,
  ServerConfig,
  ServerPolicy,
  StdioServerConfig,
  Timeouts,
} from './config/config-types.js';

// Catalog, policy and audit
export type {
  Catalog,
  CatalogChange,
  CatalogPrompt,
  CatalogResource,
  CatalogTemplate,
  CatalogTool,
  PinningMode,
  ToolStatus,
} from './catalog/catalog.js';
export type { ToolWarning } from './policy/tool-inspection.js';
export { MemoryApprovalStore } from './policy/pins.js';
export type { ApprovalStore } from './policy/pins.js';
export type { CallPrincipal, DecisionSource, Policy, PolicyDecision } from './policy/policy.js';
export { jsonLinesAudit } from './policy/audit.js';
export type { AuditDecision, AuditEntry, AuditKind, AuditSink } from './policy/audit.js';

// UI: what a person is asked, and the two UIs that need no terminal.
export { HeadlessUi } from './ui/headless-ui.js';
export type { NotStarted } from './ui/headless-ui.js';
export { ScriptedUi } from './ui/ui.js';
export type {
  ApprovalReason,
  AskedQuestion,
  CommandConsentRequest,
  CompletionRequest,
  FormRequest,
  HostUi,
  SamplingResultReview,
  SamplingResultReviewRequest,
  SamplingReview,
  SamplingReviewRequest,
  ScriptedAnswers,
  ToolApproval,
  ToolApprovalRequest,
  UrlConsentRequest,
} from './ui/ui.js';

// LLM providers and the agent loop
export { InteractiveProvider, ScriptedProvider, textAnswer, toolUse } from './llm/llm.js';
export type { CompleteOptions, LlmProvider } from './llm/llm.js';
export { OpenAiProvider } from './llm/openai-provider.js';
export type { OpenAiProviderOptions } from './llm/openai-provider.js';
export { AnthropicProvider } from './llm/anthropic-provider.js';
export type { AnthropicProviderOptions } from './llm/anthropic-provider.js';
export { LlmRouter } from './llm/llm-router.js';
export type { LlmSetup, ModelChoice, ProviderFactory } from './llm/llm-router.js';
export type { ProviderType } from './config/config-types.js';
export { PROVIDER_TYPES } from './config/config-types.js';
export { Agent } from './llm/agent.js';
export type { AgentOptions, AgentResult, AgentStep } from './llm/agent.js';

// Serving
export { Gateway, checkGatewayBind } from './serve/gateway.js';
export type { GatewayHttpOptions, GatewayOptions } from './serve/gateway.js';
export { gatewayAuthenticator } from './serve/gateway-auth.js';
export type { GatewayAuthenticator } from './serve/gateway-auth.js';
export { bridge } from './serve/bridge.js';
export type { BridgeOptions, RunningBridge } from './serve/bridge.js';
