/** Prompts and prompt templates. */
import type {
  BaseMetadata,
  CacheableResult,
  Icons,
  Meta,
  PaginatedParams,
  PaginatedResult,
  Result,
  Role,
} from './base.js';
import type { ContentBlock } from './content.js';
import type { InputResponseRequestParams } from './mrtr.js';

/** One templating argument a prompt accepts. */
export interface PromptArgument extends BaseMetadata {
  description?: string;
  /** The argument must be supplied. */
  required?: boolean;
}

/** A prompt or prompt template the server offers. */
export interface Prompt extends BaseMetadata, Icons {
  description?: string;
  arguments?: PromptArgument[];
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** One message of a rendered prompt. */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** Params of `prompts/list`. */
export type ListPromptsRequestParams = PaginatedParams;

/** Result of `prompts/list`. */
export interface ListPromptsResult extends PaginatedResult, CacheableResult {
  prompts: Prompt[];
}

/** Params of `prompts/get`; may carry MRTR retry fields from 2026-07-28. */
export interface GetPromptRequestParams extends InputResponseRequestParams {
  name: string;
  /** Values for the template's arguments. */
  arguments?: { [key: string]: string };
}

/** Result of `prompts/get`. */
export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
}
