/**
 * The view's requests the Apps schema added after the first revision of the bridge:
 * `ui/download-file` and `sampling/createMessage`, checked here so a hostile view's
 * malformed request never reaches the host's callbacks.
 */
import { WireError } from '../../jsonrpc/index.js';
import type { Params } from '../../jsonrpc/index.js';
import type { AppDownloadItem } from './app-bridge-types.js';
import { isObject } from '../../jsonrpc/is-object.js';

/** More files than this in one request is refused (memory stays bounded; a person confirms each). */
const MAX_DOWNLOAD_ITEMS = 32;

/** The `ui/download-file` items, or an InvalidParams error naming what is wrong. */
export function readDownloadItems(p: Params): AppDownloadItem[] {
  const contents = p.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    throw WireError.invalidParams('ui/download-file needs a non-empty contents array');
  if (contents.length > MAX_DOWNLOAD_ITEMS)
    throw WireError.invalidParams(`ui/download-file takes at most ${MAX_DOWNLOAD_ITEMS} items`);
  return contents.map((item, i): AppDownloadItem => {
    if (isObject(item) && item.type === 'resource' && isObject(item.resource)) {
      const r = item.resource;
      const hasText = typeof r.text === 'string';
      const hasBlob = typeof r.blob === 'string';
      if (typeof r.uri === 'string' && hasText !== hasBlob) return item as AppDownloadItem;
    }
    if (
      isObject(item) &&
      item.type === 'resource_link' &&
      typeof item.uri === 'string' &&
      typeof item.name === 'string'
    )
      return item as AppDownloadItem;
    throw WireError.invalidParams(
      `contents[${i}] must be an embedded resource (uri with text or blob) or a resource_link (uri, name)`,
    );
  });
}

/** The structural checks of `sampling/createMessage` params (the host's callback does the rest). */
export function checkSamplingParams(p: Params): void {
  if (!Array.isArray(p.messages) || p.messages.length === 0 || !p.messages.every(isObject))
    throw WireError.invalidParams('sampling/createMessage needs a non-empty messages array');
  if (typeof p.maxTokens !== 'number' || !Number.isInteger(p.maxTokens) || p.maxTokens < 1)
    throw WireError.invalidParams('sampling/createMessage needs maxTokens, a positive integer');
}

/** The view's answer to `tools/list`, checked: a list of named tools. */
export function readViewTools(
  result: Record<string, unknown>,
): Array<Record<string, unknown> & { name: string }> {
  const tools = result.tools;
  if (!Array.isArray(tools) || !tools.every((t) => isObject(t) && typeof t.name === 'string'))
    throw new WireError(-32603, 'The view answered tools/list without a list of named tools');
  return tools as Array<Record<string, unknown> & { name: string }>;
}
