import { MetaKey } from '../protocol/meta-keys.js';
import { CACHEABLE_METHODS } from '../protocol/methods.js';
import { withField } from '../jsonrpc/with-field.js';
import { fixedJson } from '../jsonrpc/raw-json.js';

/**
 * The `_meta` of results whose handler set none: one object per server info, not per result,
 * and a {@link fixedJson} copy, so serializeMessage splices its text into each answer.
 */
const serverMeta = new WeakMap<object, Record<string, unknown>>();

function metaFor(serverInfo: object): Record<string, unknown> {
  let meta = serverMeta.get(serverInfo);
  if (!meta) {
    meta = fixedJson({ [MetaKey.ServerInfo]: serverInfo });
    serverMeta.set(serverInfo, meta);
  }
  return meta;
}

/**
 * Adds what every modern result carries — `resultType`, the server's info in `_meta`, and
 * cache hints on cacheable results — to a shallow copy, so a handler may return shared
 * objects. Results go to the wire serialized, so a result without its own `_meta` shares
 * one `_meta` object instead of getting a copy each.
 */
export function decorateModernResult(
  method: string,
  value: Record<string, unknown>,
  serverInfo: object,
): Record<string, unknown> {
  const own = value._meta;
  // One literal, so the copy is one allocation of its final size: adding keys to a spread
  // copy afterwards would grow it.
  const out: Record<string, unknown> = {
    resultType: 'complete',
    ...value,
    // isObject, written out: this runs for every modern result.
    _meta:
      typeof own === 'object' && own !== null && !Array.isArray(own)
        ? withField(own, MetaKey.ServerInfo, serverInfo)
        : metaFor(serverInfo),
  };
  if (typeof out.resultType !== 'string') out.resultType = 'complete';
  if (out.resultType === 'complete' && CACHEABLE_METHODS.has(method)) {
    if (typeof out.ttlMs !== 'number') out.ttlMs = 0;
    if (out.cacheScope !== 'public' && out.cacheScope !== 'private') out.cacheScope = 'private';
  }
  return out;
}
