/**
 * The catalog's requests as the server answers them: a page of a list, the tool a call
 * names, a resource read, a prompt rendered. Each finds what the caller may see, and only
 * that: a hidden entry is unknown, with the same error as a missing one.
 */
import { HOLDS_RAW_JSON, RawJson, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { RequestContext } from '../session/index.js';
import { LIST_METHOD, withCacheHint } from './cache-hints.js';
import type { CacheHint } from './cache-hints.js';
import { exists } from './catalog-view.js';
import type { CatalogLists, ListKey } from './catalog-view.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { checkPromptArguments, normalizePrompt } from './prompts.js';
import type { PromptEntry } from './prompts.js';
import { normalizeRead, resolveResource, resourceNotFound } from './resources.js';
import type { ResourceEntry, TemplateEntry } from './resources.js';
import type { ServerContext } from './server-context.js';
import { checkToolScopes } from './tools.js';
import type { ToolEntry } from './tools.js';

/** A name as an error message shows it: at most 100 characters. */
function shown(name: string): string {
  return name.length > 100 ? name.slice(0, 100) + '…' : name;
}

/**
 * One page of what the caller sees of a list: the visible subset first, then the page. With
 * `raw`, the page is the entries' serialized texts joined, spliced into the response as they
 * are (nothing after this handler reads the result); else the wire objects, for interceptors.
 */
export function listPage(
  catalog: CatalogLists,
  key: ListKey,
  params: Params,
  rc: RequestContext,
  pageSize: number,
  hints: ReadonlyMap<string, CacheHint>,
  raw = false,
): Record<string, unknown> {
  const items = catalog.visible(key, rc);
  const start = decodeCursor(params.cursor);
  if (start > items.length) throw WireError.invalidParams('Invalid cursor');
  const end = Math.min(items.length, start + pageSize);
  const method = LIST_METHOD[key]!;
  const result: Record<string, unknown> = {};
  if (raw) {
    result[key] = new RawJson(catalog.pageText(items, start, pageSize, key, method, rc.protocolVersion));
    (result as { [HOLDS_RAW_JSON]?: true })[HOLDS_RAW_JSON] = true;
  } else {
    const page: unknown[] = new Array<unknown>(end - start);
    for (let i = start; i < end; i++) page[i - start] = items[i]!.wire;
    result[key] = page;
  }
  if (end < items.length) result.nextCursor = encodeCursor(end);
  return withCacheHint(hints, method, result);
}

/** The tool a `tools/call` names, when the caller may see it and its token holds the tool's scopes. */
export function toolToCall(
  tools: ReadonlyMap<string, ToolEntry>,
  params: Params,
  authInfo: unknown,
): ToolEntry {
  const name = params.name;
  if (typeof name !== 'string') throw WireError.invalidParams('tools/call needs a tool name');
  const entry = tools.get(name);
  // A tool the caller may not see is unknown: the same error, from the same line.
  if (!exists(entry, authInfo)) throw WireError.invalidParams(`Unknown tool: ${shown(name)}`);
  const forbidden = entry.scopes.length === 0 ? undefined : checkToolScopes(entry, authInfo);
  if (forbidden) throw forbidden;
  return entry;
}

export async function readResource(
  params: Params,
  ctx: ServerContext,
  resources: ReadonlyMap<string, ResourceEntry>,
  templates: ReadonlyMap<string, TemplateEntry>,
  hints: ReadonlyMap<string, CacheHint>,
): Promise<unknown> {
  const uri = params.uri;
  if (typeof uri !== 'string' || uri.length === 0)
    throw WireError.invalidParams('resources/read needs a uri');
  if (uri.length > 65_536) throw WireError.invalidParams('The uri is longer than 64 KiB');
  const found = resolveResource(uri, resources, templates.values(), ctx.authInfo);
  if (!found) throw resourceNotFound(uri, ctx.era);
  const value =
    'resource' in found
      ? await found.resource.read(uri, ctx)
      : await found.template.read(uri, found.variables, ctx);
  return withCacheHint(hints, 'resources/read', { ...normalizeRead(value, uri) });
}

export async function getPrompt(
  params: Params,
  ctx: ServerContext,
  prompts: ReadonlyMap<string, PromptEntry>,
): Promise<unknown> {
  const name = params.name;
  if (typeof name !== 'string') throw WireError.invalidParams('prompts/get needs a prompt name');
  const entry = prompts.get(name);
  if (!exists(entry, ctx.authInfo)) throw WireError.invalidParams(`Unknown prompt: ${shown(name)}`);
  const args = checkPromptArguments(entry, params.arguments);
  return normalizePrompt(await entry.handler(args, ctx), name);
}
