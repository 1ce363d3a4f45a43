/**
 * mcpkit's host: many MCP servers from one config, one policy, one catalog, an audit log,
 * LLM providers and an agent loop, and a gateway that serves it all as one MCP server.
 */
export { Host } from './host.js';
export type { HostOptions } from './host.js';
export type { HostCallOptions, ToolRef } from './host-calls.js';
export type { HostEvents, ServerLog } from './events.js';
export type { ServerHealth, ServerState } from './supervision/server-connection.js';

export { parseHostConfig, DEFAULT_TIMEOUTS, DEFAULT_RESTART } from './config/config-parse.js';
export type { ParseConfigOptions } from './config/config-parse.js';
export { loadHostConfig, JsonFileApprovalStore, fileAudit } from './node-files.js';
export { ConfigError, HostError, formatIssue } from './config/config-error.js';
export type { ConfigIssue, HostErrorCode } from './config/config-error.js';
export type {
  Decision,
  HostConfig,
  HttpServerConfig,
  LlmConfig,
  ModelConfig,
  ProviderConfig,
  RateLimit,
  RestartPolicy,
  ServerConfig,
  ServerPolicy,
  StdioServerConfig,
  Timeouts,
} from './config/config-types.js';

export { Catalog } from './catalog/catalog.js';
export type {
  CatalogChange,
  CatalogPrompt,
  CatalogResource,
  CatalogTemplate,
  CatalogTool,
  PinningMode,
  ToolStatus,
} from './catalog/catalog.js';
export { ALIAS_PATTERN, aliasFor, sanitize } from './catalog/names.js';
export { displaySafe, inspectTool } from './policy/tool-inspection.js';
export type { ToolWarning } from './policy/tool-inspection.js';
export { MemoryApprovalStore, canonicalJson, toolHash } from './policy/pins.js';
export type { ApprovalStore } from './policy/pins.js';

export { Policy, RateLimiter } from './policy/policy.js';
export type { DecisionSource, PolicyDecision } from './policy/policy.js';
export { AuditTrail, jsonLinesAudit } from './policy/audit.js';
export type { AuditDecision, AuditEntry, AuditKind, AuditSink } from './policy/audit.js';
export { describeCommand, shellQuote } from './policy/command-consent.js';
export { urlWarnings, USER_REJECTED } from './supervision/server-requests.js';

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
export { TerminalUi } from './ui/terminal-ui.js';
export { HeadlessUi } from './ui/headless-ui.js';
export type { NotStarted } from './ui/headless-ui.js';
export type { TerminalUiOptions } from './ui/terminal-ui.js';
export { parseFieldInput, validateForm } from './ui/form-schema.js';

export { InteractiveProvider, ScriptedProvider, textAnswer, textOf, toolUse } from './llm/llm.js';
export type { CompleteOptions, LlmProvider } from './llm/llm.js';
export { OpenAiProvider } from './llm/openai-provider.js';
export type { OpenAiProviderOptions } from './llm/openai-provider.js';
export { AnthropicProvider } from './llm/anthropic-provider.js';
export type { AnthropicProviderOptions } from './llm/anthropic-provider.js';
export { LlmRouter, selectModel } from './llm/llm-router.js';
export type { LlmSetup, ModelChoice, ProviderFactory } from './llm/llm-router.js';
export { Agent } from './llm/agent.js';
export type { AgentOptions, AgentResult, AgentStep } from './llm/agent.js';

export { Gateway } from './serve/gateway.js';
export type { GatewayOptions } from './serve/gateway.js';
export { bridge } from './serve/bridge.js';
export type { BridgeOptions, RunningBridge } from './serve/bridge.js';
export { createTransport, openInBrowser } from './supervision/node-transports.js';

// MCP Apps, host half (browser-safe on its own as `mcpkit/host/apps`).
export {
  AppBridge,
  loadAppResource,
  openAppView,
  sandboxProxyHtml,
  SANDBOX_PROXY_HEADERS,
} from './apps/index.js';
export type { AppBridgeOptions, AppMountOptions, AppResource, AppServer, HostContext } from './apps/index.js';
export { startSandboxProxyServer } from './serve/node-sandbox-server.js';
export type { SandboxProxyServer, SandboxProxyServerOptions } from './serve/node-sandbox-server.js';
