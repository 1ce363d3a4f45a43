/**
 * LLM sampling requested by the server (`sampling/createMessage`). Deprecated as of
 * 2026-07-28, where it survives only as an MRTR input request.
 */
import type { JsonObject, Meta, RequestParams, Result, ResultMeta, Role } from './base.js';
import type {
  AudioContent,
  ImageContent,
  TextContent,
  ToolResultContent,
  ToolUseContent,
} from './content.js';
import type { TaskMetadata } from './tasks.js';
import type { Tool } from './tools.js';

/**
 * A model-name hint; matched as a substring, or mapped to a comparable model.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export interface ModelHint {
  name?: string;
  [key: string]: unknown;
}

/**
 * Advisory model-selection preferences; each priority runs from 0 to 1.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export interface ModelPreferences {
  /** Tried in order; the first match wins. */
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/**
 * Content allowed in a sampling message. `tool_use`/`tool_result` from 2025-11-25, `audio`
 * from 2025-03-26.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export type SamplingMessageContentBlock =
  TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/**
 * One turn of a sampling conversation.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export interface SamplingMessage {
  role: Role;
  /** A single block; an array is allowed from 2025-11-25. */
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** @since 2025-11-25 */
  _meta?: Meta;
}

/**
 * How the model may use the offered tools. @since 2025-11-25
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export interface ToolChoice {
  /** `auto` (default): model decides; `required`: must call one; `none`: must not. */
  mode?: 'auto' | 'required' | 'none';
}

/**
 * Which servers' context to attach. `thisServer` and `allServers` are deprecated since
 * 2025-11-25 and need the client's `sampling.context` capability there.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export type IncludeContext = 'none' | 'thisServer' | 'allServers';

/**
 * Params of `sampling/createMessage`.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export interface CreateMessageRequestParams extends RequestParams {
  messages: SamplingMessage[];
  /** The client may ignore these. */
  modelPreferences?: ModelPreferences;
  /** The client may change or drop it. */
  systemPrompt?: string;
  /** Default `none`. */
  includeContext?: IncludeContext;
  temperature?: number;
  /** Upper bound on generated tokens. */
  maxTokens: number;
  stopSequences?: string[];
  /** Provider-specific pass-through. */
  metadata?: JsonObject;
  /** Tools the model may call; needs the client's `sampling.tools`. @since 2025-11-25 */
  tools?: Tool[];
  /** Needs the client's `sampling.tools`. @since 2025-11-25 */
  toolChoice?: ToolChoice;
  /** Run as a task. @since 2025-11-25 @removed 2026-07-28 */
  task?: TaskMetadata;
}

/**
 * Why generation stopped; providers may report other values.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export type StopReason =
  'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & Record<never, never>);

/**
 * Result of `sampling/createMessage`: the generated message.
 * @deprecated Sampling is deprecated as of 2026-07-28 (SEP-2577); earliest removal in the first revision released on or after 2027-07-28. Call an LLM provider API from the server.
 */
export interface CreateMessageResult extends Result, SamplingMessage {
  _meta?: ResultMeta;
  /** Model that produced the message. */
  model: string;
  /** `toolUse` from 2025-11-25. */
  stopReason?: StopReason;
}
