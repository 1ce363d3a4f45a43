import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { isObject } from '../jsonrpc/is-object.js';
import { merged, withField } from '../jsonrpc/with-field.js';
import { fixedJson } from '../jsonrpc/raw-json.js';

/** The per-request protocol fields a modern request carries. */
export interface ModernRequestMeta {
  version: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string; [k: string]: unknown } | undefined;
}

/**
 * Reads the modern `_meta` fields of a request, or says why they are unusable. Returns
 * undefined when the request carries no protocol version at all (a legacy request).
 */
export function readModernMeta(
  params: Params | undefined,
  supported: readonly string[],
  /** Every version the server speaks, named in the error (legacy ones included). */
  advertised: readonly string[] = supported,
): ModernRequestMeta | WireError | undefined {
  // isObject, written out here and below: this runs for every modern request.
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  if (!Object.hasOwn(meta, MetaKey.ProtocolVersion)) return undefined;
  const version = meta[MetaKey.ProtocolVersion];
  if (typeof version !== 'string') {
    return new WireError(ErrorCode.InvalidParams, `${MetaKey.ProtocolVersion} must be a string`);
  }
  if (!supported.includes(version)) {
    return new WireError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      supported: [...advertised].reverse(),
      requested: version,
    });
  }
  const caps = meta[MetaKey.ClientCapabilities] as Record<string, unknown> | undefined;
  if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) {
    return new WireError(
      ErrorCode.InvalidParams,
      `Missing required _meta field ${MetaKey.ClientCapabilities}`,
    );
  }
  const info = meta[MetaKey.ClientInfo] as Record<string, unknown> | undefined;
  const clientInfo =
    typeof info === 'object' &&
    info !== null &&
    typeof info.name === 'string' &&
    typeof info.version === 'string'
      ? (info as ModernRequestMeta['clientInfo'])
      : undefined;
  return { version, capabilities: caps, clientInfo };
}

/**
 * Adds the modern request fields to outbound params without touching the caller's objects.
 * `base` is built once per session and shared; it is never mutated.
 */
export function withModernMeta(params: Params | undefined, base: Readonly<Record<string, unknown>>): Params {
  if (params === undefined) return { _meta: base };
  const own = params._meta;
  // withField, not a spread: see with-field.ts (Node 20).
  if (!isObject(own)) return withField(params, '_meta', base);
  // Already the whole `_meta` (a task-aware request built with metaDeclaring): nothing to add.
  if (own === merges.get(base)?.meta) return params;
  const only = onlyCapabilities(own);
  if (only !== undefined) return withField(params, '_meta', metaDeclaring(base, only));
  const meta = merged(own, base);
  // A request may declare capabilities of its own (per-request extensions, such as tasks).
  if (isObject(own[MetaKey.ClientCapabilities]))
    meta[MetaKey.ClientCapabilities] = own[MetaKey.ClientCapabilities];
  return withField(params, '_meta', meta);
}

/** The capabilities of a `_meta` that holds nothing else (a task-aware request's), else undefined. */
function onlyCapabilities(own: Record<string, unknown>): Record<string, unknown> | undefined {
  let caps: unknown;
  for (const key in own) {
    if (key !== MetaKey.ClientCapabilities) return undefined;
    caps = own[key];
  }
  return isObject(caps) ? caps : undefined;
}

/**
 * Per session `_meta` (base), the last capabilities a request declared and the merged `_meta`:
 * a {@link fixedJson} copy, built once and spliced as text into every such request. Keyed by
 * base, so clients taking turns in one process do not rebuild each other's. Only the last
 * pair is kept: a request whose entry was replaced meanwhile takes the merge above, same text.
 */
const merges = new WeakMap<
  object,
  { caps: Readonly<Record<string, unknown>>; meta: Readonly<Record<string, unknown>> }
>();

/**
 * The session's modern `_meta` (`base`) declaring `caps` as the client's capabilities: what a
 * request that declares an extension of its own (the tasks extension) carries. Cached, so a
 * request built with it passes {@link withModernMeta} as it is, one copy of its params fewer.
 * Internal.
 */
export function metaDeclaring(
  base: Readonly<Record<string, unknown>>,
  caps: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const last = merges.get(base);
  if (last?.caps === caps) return last.meta;
  const meta = fixedJson({ ...base, [MetaKey.ClientCapabilities]: caps });
  merges.set(base, { caps, meta });
  return meta;
}
