/**
 * mcpkit's host: many MCP servers from one config, one policy, one catalog, an audit log,
 * LLM providers and an agent loop, and a gateway that serves it all as one MCP server.
 */
export { Host } from './host.js';
export type { HostOptions } from './host.js';
export type { HostCallOptions, ToolRef } from './host-calls.js';
export type { HostEvents, ServerLog } from './events.js';
export type { ServerHealth, ServerState } from './server-connection.js';

export { parseHostConfig, DEFAULT_TIMEOUTS, DEFAULT_RESTART } from './config-parse.js';
export type { ParseConfigOptions } from './config-parse.js';
export { loadHostConfig, JsonFileApprovalStore, fileAudit } from './node-files.js';
export { ConfigError, HostError, formatIssue } from './config-error.js';
export type { ConfigIssue, HostErrorCode } from './config-error.js';
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
} from './config-types.js';

export { Catalog } from './catalog.js';
export type {
  CatalogChange,
  CatalogPrompt,
  CatalogResource,
  CatalogTemplate,
  CatalogTool,
  PinningMode,
  ToolStatus,
} from './catalog.js';
export { ALIAS_PATTERN, aliasFor, sanitize } from './names.js';
export { displaySafe, inspectTool } from './tool-inspection.js';
export type { ToolWarning } from './tool-inspection.js';
export { MemoryApprovalStore, canonicalJson, toolHash } from './pins.js';
export type { ApprovalStore } from './pins.js';

export { Policy, RateLimiter } from './policy.js';
export type { DecisionSource, PolicyDecision } from './policy.js';
export { AuditTrail, jsonLinesAudit } from './audit.js';
export type { AuditDecision, AuditEntry, AuditKind, AuditSink } from './audit.js';
export { describeCommand, shellQuote } from './command-consent.js';
export { urlWarnings, USER_REJECTED } from './server-requests.js';

export { ScriptedUi } from './ui.js';
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
} from './ui.js';
export { TerminalUi } from './terminal-ui.js';
export { HeadlessUi } from './headless-ui.js';
export type { NotStarted } from './headless-ui.js';
export type { TerminalUiOptions } from './terminal-ui.js';
export { parseFieldInput, validateForm } from './form-schema.js';

export { InteractiveProvider, ScriptedProvider, textAnswer, textOf, toolUse } from './llm.js';
export type { CompleteOptions, LlmProvider } from './llm.js';
export { OpenAiProvider } from './openai-provider.js';
export type { OpenAiProviderOptions } from './openai-provider.js';
export { AnthropicProvider } from './anthropic-provider.js';
export type { AnthropicProviderOptions } from './anthropic-provider.js';
export { LlmRouter, selectModel } from './llm-router.js';
export type { LlmSetup, ModelChoice, ProviderFactory } from './llm-router.js';
export { Agent } from './agent.js';
export type { AgentOptions, AgentResult, AgentStep } from './agent.js';

export { Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway.js';
export { bridge } from './bridge.js';
export type { BridgeOptions, RunningBridge } from './bridge.js';
export { createTransport, openInBrowser } from './node-transports.js';

// MCP Apps, host half (browser-safe on its own as `mcpkit/host/apps`).
export {
  AppBridge,
  loadAppResource,
  openAppView,
  sandboxProxyHtml,
  SANDBOX_PROXY_HEADERS,
} from './apps/index.js';
export type { AppBridgeOptions, AppMountOptions, AppResource, AppServer, HostContext } from './apps/index.js';
export { startSandboxProxyServer } from './node-sandbox-server.js';
export type { SandboxProxyServer, SandboxProxyServerOptions } from './node-sandbox-server.js';
