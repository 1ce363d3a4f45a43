/** Argument autocompletion (`completion/complete`). */
import type { BaseMetadata, RequestParams, Result } from './base.js';

/** Completion target: a prompt, by name. */
export interface PromptReference extends BaseMetadata {
  type: 'ref/prompt';
}

/** Completion target: a resource template (or resource), by URI or URI template. */
export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

/**
 * The name this shape had before 2025-06-18.
 * @deprecated Use {@link ResourceTemplateReference}.
 */
export type ResourceReference = ResourceTemplateReference;

/** Params of `completion/complete`. */
export interface CompleteRequestParams extends RequestParams {
  ref: PromptReference | ResourceTemplateReference;
  /** The argument being completed and its partial value. */
  argument: {
    name: string;
    value: string;
  };
  /** @since 2025-06-18 */
  context?: {
    /** Values of arguments that are already filled in. */
    arguments?: { [key: string]: string };
  };
}

/** Result of `completion/complete`. */
export interface CompleteResult extends Result {
  completion: {
    /** Suggestions, at most 100. */
    values: string[];
    /** Total number of matches, which may exceed `values.length`. */
    total?: number;
    /** More matches exist than were returned. */
    hasMore?: boolean;
  };
}
