export { McpServer } from './server.js';
export type { Registration, ServerOptions } from './server.js';
export { ServerContext } from './server-context.js';
export type { AskOptions } from './server-context.js';
export { toolError } from './tools.js';
export { registerApp, registerAppTool } from './apps.js';
export type { AppDefinition, AppHtml, AppToolDefinition } from './apps.js';
// The Apps names a server uses (the host's half is `mcpkit/host/apps`).
export { APPS_EXTENSION, APP_MIME_TYPE, appResourceUri, appsCapability } from '../protocol/apps.js';
export type {
  AppCsp,
  AppPermissions,
  AppResourceMeta,
  AppToolMeta,
  AppVisibility,
} from '../protocol/apps.js';
export type { ToolDefinition, ToolHandler, ToolReturn } from './tools.js';
export type {
  Completer,
  ReadHandler,
  ReadReturn,
  ResourceDefinition,
  ResourceTemplateDefinition,
  TemplateReadHandler,
} from './resources.js';
export type { PromptArgumentDefinition, PromptDefinition, PromptHandler, PromptReturn } from './prompts.js';
export type { Middleware, MiddlewareMethod, MiddlewareRequest } from './middleware.js';
export { LocalChangeBus } from './change-bus.js';
export type { ChangeBus, ChangeEvent } from './change-bus.js';
export { HmacRequestState } from './request-state.js';
export type { RequestStateCodec } from './request-state.js';
export { compileSchema } from './schema-adapter.js';
export type {
  CompiledSchema,
  InferOutput,
  JsonSchemaObject,
  SchemaInput,
  StandardSchemaLike,
  ValidationOutcome,
} from './schema-adapter.js';
export { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION, registerSkills } from './skills.js';
export type { SkillDefinition } from './skills.js';
export { TaskRuntime } from './task-runtime.js';
export type { TaskOptions, TaskSupport } from './task-runtime.js';
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
