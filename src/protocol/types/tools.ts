/** Tools: listing, calling, and the tool definition itself. */
import type {
  BaseMetadata,
  CacheableResult,
  Icons,
  Meta,
  PaginatedParams,
  PaginatedResult,
  Result,
} from './base.js';
import type { ContentBlock } from './content.js';
import type { InputResponseRequestParams } from './mrtr.js';
import type { TaskMetadata } from './tasks.js';

/** A JSON Schema, object or boolean form. */
export type JsonSchema = JsonSchemaObject | boolean;

/** A JSON Schema in object form; any keyword is allowed. */
export interface JsonSchemaObject {
  $schema?: string;
  type?: string | string[];
  properties?: { [key: string]: JsonSchema };
  required?: string[];
  [key: string]: unknown;
}

/**
 * Schema of a tool's arguments; always an object at the root. Before 2026-07-28 only
 * `type`, `properties` and `required` (and `$schema` from 2025-11-25) were named, and any
 * JSON Schema 2020-12 keyword is allowed from then on.
 */
export interface ToolInputSchema extends JsonSchemaObject {
  type: 'object';
}

/**
 * Schema of `structuredContent`. Must have `type: 'object'` before 2026-07-28; may be any
 * schema from then on.
 */
export type ToolOutputSchema = JsonSchemaObject;

/**
 * Untrusted hints about a tool's behaviour. Defaults apply when a hint is absent.
 * @since 2025-03-26
 */
export interface ToolAnnotations {
  /** Display title; `Tool.title` wins when both exist. */
  title?: string;
  /** Has no side effects. Default false. */
  readOnlyHint?: boolean;
  /** May destroy or overwrite data (only meaningful when not read-only). Default true. */
  destructiveHint?: boolean;
  /** Repeating a call with the same arguments changes nothing more. Default false. */
  idempotentHint?: boolean;
  /** Reaches outside a closed domain (web, third parties). Default true. */
  openWorldHint?: boolean;
}

/** How a tool relates to tasks. @since 2025-11-25 @removed 2026-07-28 */
export interface ToolExecution {
  /** Whether `tools/call` may, must, or must not be task-augmented. Default `forbidden`. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

/** A tool the server exposes. Display precedence: `title`, `annotations.title`, `name`. */
export interface Tool extends BaseMetadata, Icons {
  description?: string;
  inputSchema: ToolInputSchema;
  /** @since 2025-06-18 */
  outputSchema?: ToolOutputSchema;
  /** @since 2025-03-26 */
  annotations?: ToolAnnotations;
  /** @since 2025-11-25 @removed 2026-07-28 */
  execution?: ToolExecution;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** Params of `tools/list`. */
export type ListToolsRequestParams = PaginatedParams;

/** Result of `tools/list`. */
export interface ListToolsResult extends PaginatedResult, CacheableResult {
  tools: Tool[];
}

/** Params of `tools/call`. */
export interface CallToolRequestParams extends InputResponseRequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
  /** Run as a task. @since 2025-11-25 @removed 2026-07-28 */
  task?: TaskMetadata;
}

/**
 * Result of `tools/call`. Failures of the tool itself are reported here with `isError`,
 * so the model can see them; protocol problems are JSON-RPC errors instead.
 */
export interface CallToolResult extends Result {
  content: ContentBlock[];
  /**
   * Machine-readable output matching `outputSchema`. An object in 2025-06-18 and
   * 2025-11-25; any JSON value from 2026-07-28.
   * @since 2025-06-18
   */
  structuredContent?: unknown;
  /** The tool failed. Default false. */
  isError?: boolean;
}
