import { WireError } from '../jsonrpc/index.js';
import type { Resource, ResourceTemplate, ReadResourceResult } from '../protocol/types/resources.js';
import type { TextResourceContents, BlobResourceContents } from '../protocol/types/content.js';
import type { Icon, Annotations } from '../protocol/types/base.js';
import type { Era } from '../protocol/versions.js';
import { serverEraOf } from './server-era.js';
import { UriTemplate } from './uri-template.js';
import { exists } from './catalog-view.js';
import type { ServerContext } from './server-context.js';
import { compileVisibility } from './visibility.js';
import type { VisibilityCheck, VisibleTo } from './visibility.js';

/** What a read handler returns: the full result, or just its contents. */
export type ReadReturn = ReadResourceResult | Array<TextResourceContents | BlobResourceContents>;

/** Completes one template variable from what the user has typed so far. */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>;

interface ResourceMetadata {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
  /**
   * Who may see it (see {@link VisibleTo}). To any other caller it does not exist: lists
   * leave it out, reading it is "resource not found", completing it is an unknown reference,
   * and its updates are not sent. Default: everyone.
   */
  visibleTo?: VisibleTo;
}

/** A fixed resource, known by its URI. */
export interface ResourceDefinition extends ResourceMetadata {
  uri: string;
}

/** A family of resources described by an RFC 6570 URI template. */
export interface ResourceTemplateDefinition extends ResourceMetadata {
  uriTemplate: string;
  /** Completion for the template's variables. */
  complete?: Record<string, Completer>;
}

export type ReadHandler = (uri: string, ctx: ServerContext) => ReadReturn | Promise<ReadReturn>;
export type TemplateReadHandler = (
  uri: string,
  variables: Record<string, string | string[]>,
  ctx: ServerContext,
) => ReadReturn | Promise<ReadReturn>;

export interface ResourceEntry {
  readonly wire: Resource;
  readonly read: ReadHandler;
  readonly visible: VisibilityCheck | undefined;
}

export interface TemplateEntry {
  readonly wire: ResourceTemplate;
  readonly template: UriTemplate;
  readonly complete: Record<string, Completer> | undefined;
  readonly read: TemplateReadHandler;
  readonly visible: VisibilityCheck | undefined;
}

function copyMetadata(def: ResourceMetadata, out: Record<string, unknown>): void {
  out.name = def.name;
  if (def.title !== undefined) out.title = def.title;
  if (def.description !== undefined) out.description = def.description;
  if (def.mimeType !== undefined) out.mimeType = def.mimeType;
  if (def.size !== undefined) out.size = def.size;
  if (def.icons !== undefined) out.icons = def.icons;
  if (def.annotations !== undefined) out.annotations = def.annotations;
  if (def._meta !== undefined) out._meta = def._meta;
}

export function buildResource(def: ResourceDefinition, read: ReadHandler): ResourceEntry {
  if (typeof def.uri !== 'string' || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(def.uri)) {
    throw new TypeError(`Resource URI ${JSON.stringify(def.uri)} needs a scheme`);
  }
  const wire: Record<string, unknown> = { uri: def.uri };
  copyMetadata(def, wire);
  const visible = compileVisibility(def.visibleTo, `Resource ${def.uri}`);
  return { wire: wire as unknown as Resource, read, visible };
}

export function buildTemplate(def: ResourceTemplateDefinition, read: TemplateReadHandler): TemplateEntry {
  const template = UriTemplate.parse(def.uriTemplate);
  const wire: Record<string, unknown> = { uriTemplate: def.uriTemplate };
  copyMetadata(def, wire);
  const visible = compileVisibility(def.visibleTo, `Resource template ${def.uriTemplate}`);
  return { wire: wire as unknown as ResourceTemplate, template, complete: def.complete, read, visible };
}

/** The era's resource-not-found error: -32002 in the legacy era, -32602 in 2026-07-28. */
export function resourceNotFound(uri: string, era: Era): WireError {
  return new WireError(
    serverEraOf(era).resourceNotFoundCode,
    `Resource not found: ${uri.length > 200 ? uri.slice(0, 200) + '…' : uri}`,
    { uri },
  );
}

export function normalizeRead(value: ReadReturn, uri: string): ReadResourceResult {
  if (Array.isArray(value)) return { contents: value };
  if (typeof value !== 'object' || value === null || !Array.isArray(value.contents)) {
    throw WireError.internal(`The read handler for ${uri} returned no contents`);
  }
  return value;
}

/**
 * Finds what serves a URI for the caller with `authInfo`: an exact resource first, then the
 * first matching template. What the caller may not see is passed over as if absent.
 */
export function resolveResource(
  uri: string,
  resources: ReadonlyMap<string, ResourceEntry>,
  templates: Iterable<TemplateEntry>,
  authInfo: unknown,
):
  | { resource: ResourceEntry }
  | { template: TemplateEntry; variables: Record<string, string | string[]> }
  | undefined {
  const r = resources.get(uri);
  if (exists(r, authInfo)) return { resource: r };
  for (const t of templates) {
    const variables = t.template.match(uri);
    if (variables && exists(t, authInfo)) return { template: t, variables };
  }
  return undefined;
}
