import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { isLegacyVersion, isModernVersion } from '../protocol/versions.js';
import { isObject } from '../jsonrpc/is-object.js';

/** Where a legacy connection stands. */
export type LegacyState = 'new' | 'initializing' | 'ready';

/** What the server learned from a client's `initialize`. */
export interface InitializeOutcome {
  version: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string; [k: string]: unknown };
}

/**
 * Negotiates a legacy version as the spec says: the client's version if the server speaks
 * it, otherwise the server's latest legacy version. A server that speaks no legacy version
 * at all names the versions it does speak.
 */
export function negotiateInitialize(
  params: Params,
  supported: readonly string[],
): InitializeOutcome | WireError {
  const requested = params.protocolVersion;
  if (typeof requested !== 'string') {
    return WireError.invalidParams('initialize needs a protocolVersion string');
  }
  if (!isObject(params.capabilities)) {
    return WireError.invalidParams('initialize needs a capabilities object');
  }
  const info = params.clientInfo;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
    return WireError.invalidParams('initialize needs clientInfo with a name and a version');
  }
  const legacy = supported.filter(isLegacyVersion);
  if (legacy.length === 0) {
    return new WireError(
      ErrorCode.UnsupportedProtocolVersion,
      `This server does not speak the initialize handshake; it supports ${supported.join(', ')}`,
      { supported: [...supported].reverse(), requested },
    );
  }
  const version = legacy.includes(requested as never) ? requested : legacy[legacy.length - 1]!;
  return {
    version,
    capabilities: params.capabilities,
    clientInfo: info as InitializeOutcome['clientInfo'],
  };
}

/** Whether a client that speaks `supported` can accept the server's answer. */
export function acceptsServerVersion(answer: unknown, supported: readonly string[]): boolean {
  return typeof answer === 'string' && isLegacyVersion(answer) && supported.includes(answer);
}

const modernCache = new WeakMap<readonly string[], string[]>();

/** The modern versions in a list; computed once per list, since it is asked on every request. */
export function modernOnly(versions: readonly string[]): string[] {
  let m = modernCache.get(versions);
  if (!m) {
    m = versions.filter(isModernVersion);
    modernCache.set(versions, m);
  }
  return m;
}
