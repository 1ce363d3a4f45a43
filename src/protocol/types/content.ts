/** Content blocks carried by tool results, prompt messages and sampling messages. */
import type { Annotations, Meta } from './base.js';
import type { Resource } from './resources.js';

/** Plain text. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** A base64-encoded image. */
export interface ImageContent {
  type: 'image';
  /** Base64 image bytes. */
  data: string;
  /** For example `image/png`. */
  mimeType: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** A base64-encoded audio clip. @since 2025-03-26 */
export interface AudioContent {
  type: 'audio';
  /** Base64 audio bytes. */
  data: string;
  /** For example `audio/wav`. */
  mimeType: string;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/**
 * A pointer to a resource the client may read separately. The resource need not appear
 * in `resources/list`.
 * @since 2025-06-18
 */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** Fields shared by text and blob resource contents. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/** Resource contents that are text. */
export interface TextResourceContents extends ResourceContents {
  text: string;
}

/** Resource contents that are binary, base64-encoded. */
export interface BlobResourceContents extends ResourceContents {
  blob: string;
}

/** Either kind of resource contents. */
export type ResourceContentsItem = TextResourceContents | BlobResourceContents;

/** A resource's contents inlined into a message or result. */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  /** @since 2025-06-18 */
  _meta?: Meta;
}

/**
 * Content allowed in tool results and prompt messages. Revisions before 2025-06-18 accept
 * a subset (no `resource_link`; no `audio` before 2025-03-26).
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/**
 * Sampling only: the model asks to run a tool.
 * @since 2025-11-25
 * @deprecated Sampling is deprecated as of 2026-07-28.
 */
export interface ToolUseContent {
  type: 'tool_use';
  /** Matches the `toolUseId` of the answering `tool_result`. */
  id: string;
  name: string;
  input: { [key: string]: unknown };
  /** Should be kept when the block is replayed in a later sampling request. */
  _meta?: Meta;
}

/**
 * Sampling only: the outcome of a `tool_use`, sent back to the model.
 * @since 2025-11-25
 * @deprecated Sampling is deprecated as of 2026-07-28.
 */
export interface ToolResultContent {
  type: 'tool_result';
  /** The `id` of the `tool_use` this answers. */
  toolUseId: string;
  content: ContentBlock[];
  /** An object in 2025-11-25; any JSON value from 2026-07-28. */
  structuredContent?: unknown;
  isError?: boolean;
  /** Should be kept when the block is replayed in a later sampling request. */
  _meta?: Meta;
}
