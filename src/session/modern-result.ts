import { MetaKey } from '../protocol/meta-keys.js';
import { describeMethod } from '../protocol/methods.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Adds what every modern result carries — `resultType`, the server's info in `_meta`, and
 * cache hints on cacheable results — to a copy, so a handler may return shared objects.
 */
export function decorateModernResult(
  method: string,
  value: Record<string, unknown>,
  serverInfo: Record<string, unknown>,
): Record<string, unknown> {
  const meta = isObject(value._meta) ? { ...value._meta } : {};
  meta[MetaKey.ServerInfo] = serverInfo;
  const out: Record<string, unknown> = { ...value, _meta: meta };
  if (typeof out.resultType !== 'string') out.resultType = 'complete';
  if (out.resultType === 'complete' && describeMethod(method)?.cacheable) {
    if (typeof out.ttlMs !== 'number') out.ttlMs = 0;
    if (out.cacheScope !== 'public' && out.cacheScope !== 'private') out.cacheScope = 'private';
  }
  return out;
}
