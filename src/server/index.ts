/**
 * `mcpkit/server`: the server's names beyond the root's. `McpServer`, `ServerContext`,
 * `toolError` and the definition types are `mcpkit`'s; the Apps extension's shared shapes
 * are `mcpkit/types`', the extension ids `mcpkit/advanced`'s.
 *
 * @packageDocumentation
 */
export type { Registration } from './server.js';
export type { AskOptions } from './server-context.js';
export { registerApp, registerAppTool } from './apps.js';
export type { AppDefinition, AppHtml, AppToolDefinition } from './apps.js';
export { APP_MIME_TYPE } from '../protocol/apps.js';
export type { ToolReturn } from './tools.js';
export type { Completer, ReadReturn } from './resources.js';
export type { PromptArgumentDefinition, PromptReturn } from './prompts.js';
export type { MiddlewareMethod, MiddlewareRequest, ServerInterceptor } from './middleware.js';
export type { CacheHint, CacheHints, CacheableMethod } from './cache-hints.js';
export { LocalChangeBus } from './change-bus.js';
export type { ChangeBus } from './change-bus.js';
export { MemoryRateLimitStore } from './rate-limit-store.js';
export type { MemoryRateLimitStoreOptions, RateBucket, RateLimitStore } from './rate-limit-store.js';
export type { RateLimitOptions, RateLimitRule } from './rate-limit.js';
export { HmacRequestState } from './request-state.js';
export type { RequestStateCodec } from './request-state.js';
export { compileSchema } from './schema-adapter.js';
export type {
  CompiledSchema,
  InferOutput,
  RawJsonSchema,
  SchemaInput,
  StandardSchemaLike,
  ValidationOutcome,
} from './schema-adapter.js';
export { DIRECTORY_MIME_TYPE, registerSkills } from './skills.js';
export type { SkillDefinition } from './skills.js';
export { TaskRuntime } from './task-runtime.js';
export type { TaskOptions, TaskSupport } from './task-runtime.js';
export type { CatalogCaller, ClaimMatch, VisibleTo } from './visibility.js';
export { InMemoryTaskStore, applyTaskPatch, isTerminal } from './task-store.js';
export type {
  TaskPage,
  TaskPatch,
  TaskRecord,
  TaskState,
  TaskRunners,
  TaskStore,
  StoredError,
  StoredInputRequest,
} from './task-store.js';
export type { InputAsker } from './server-context.js';
