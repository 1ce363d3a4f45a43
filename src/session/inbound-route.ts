import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import {
  canSend,
  capabilityInRevision,
  describeMethod,
  hasCapability,
  methodInRevision,
} from '../protocol/methods.js';
import { LATEST_LEGACY_VERSION } from '../protocol/versions.js';
import type { Era } from '../protocol/versions.js';
import type { LegacyState } from './lifecycle.js';
import { modernOnly } from './lifecycle.js';
import { readModernMeta } from './modern-meta.js';
import type { PeerInfo } from './request-context.js';
import type { SessionRole } from './session-role.js';

/** Under which version, era and peer facts an inbound request is served. */
export interface InboundRoute {
  version: string;
  era: Era;
  peerCapabilities: Record<string, unknown>;
  peerInfo: PeerInfo | undefined;
}

/** What routing needs to know about the session. */
export interface RouteState {
  readonly versions: readonly string[];
  readonly capabilities: Record<string, unknown>;
  readonly legacyState: LegacyState;
  readonly era: Era | undefined;
  readonly protocolVersion: string | undefined;
  readonly peerCapabilities: Record<string, unknown> | undefined;
  readonly peerInfo: PeerInfo | undefined;
}

/**
 * Decides the era of one inbound request to a server. A request carrying the modern
 * `_meta` fields is served statelessly under its own version; anything else belongs to the
 * legacy session, which must have been initialized (ping excepted). `initialize` itself is
 * the caller's to handle, signalled by the string `'initialize'`.
 */
export function routeServerRequest(
  s: RouteState,
  method: string,
  params: Params,
): InboundRoute | WireError | 'initialize' {
  // The -32022 list names what this endpoint serves in the modern era, as server/discover does.
  const modern = readModernMeta(params, modernOnly(s.versions));
  if (modern instanceof WireError) return modern;
  if (modern) {
    return {
      version: modern.version,
      era: 'modern',
      peerCapabilities: modern.capabilities,
      peerInfo: modern.clientInfo,
    };
  }
  if (method === 'initialize') return 'initialize';
  if (method === 'server/discover') {
    return WireError.invalidParams(
      `server/discover needs _meta with ${MetaKey.ProtocolVersion} and ${MetaKey.ClientCapabilities}`,
    );
  }
  if (s.legacyState === 'new') {
    if (method !== 'ping') {
      return WireError.invalidRequest(
        `Received ${method} before initialize: send initialize first, or put ${MetaKey.ProtocolVersion} in _meta (protocol 2026-07-28)`,
      );
    }
    return {
      version: LATEST_LEGACY_VERSION,
      era: 'legacy',
      peerCapabilities: {},
      peerInfo: undefined,
    };
  }
  return {
    version: s.protocolVersion ?? LATEST_LEGACY_VERSION,
    era: 'legacy',
    peerCapabilities: s.peerCapabilities ?? {},
    peerInfo: s.peerInfo,
  };
}

/**
 * Refuses a method MCP defines when it is not a request the peer may send in this version,
 * or when it needs a capability we did not declare. Methods MCP does not define pass.
 */
export function refuseMethod(
  role: SessionRole,
  capabilities: Record<string, unknown>,
  method: string,
  version: string,
): WireError | undefined {
  if (role.checkMethods === false) return undefined;
  const d = describeMethod(method);
  if (!d) return undefined;
  const peerRole = role.peer;
  if (d.kind !== 'request' || !canSend(d, peerRole) || !methodInRevision(d, version)) {
    return WireError.methodNotFound(`${method} (not a ${peerRole} request in protocol ${version})`);
  }
  const cap = d.capability;
  if (
    cap &&
    cap.side === role.name &&
    capabilityInRevision(cap, version) &&
    !hasCapability(capabilities, cap.path)
  ) {
    return WireError.methodNotFound(`${method} (capability "${cap.path}" is not offered)`);
  }
  return undefined;
}
