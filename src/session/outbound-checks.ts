import { LocalError } from '../jsonrpc/index.js';
import {
  canSend,
  capabilityInRevision,
  describeMethod,
  hasCapability,
  methodInRevision,
} from '../protocol/methods.js';
import type { Era } from '../protocol/versions.js';
import type { SessionRole } from './session-role.js';

/** What the outbound checks need to know about the session. */
export interface OutboundState {
  readonly role: SessionRole;
  readonly era: Era | undefined;
  readonly protocolVersion: string | undefined;
  readonly capabilities: Record<string, unknown>;
  readonly peerCapabilities: Record<string, unknown> | undefined;
}

/**
 * Refuses to send a method MCP defines when our role does not send it, the negotiated
 * revision lacks it, the era forbids it (servers send no requests in the modern era), or
 * a capability is missing: ours for notifications we emit, the peer's for requests we make.
 */
export function refuseOutbound(
  s: OutboundState,
  method: string,
  kind: 'request' | 'notification',
): LocalError | undefined {
  if (s.role.checkMethods === false) return undefined;
  const d = describeMethod(method);
  if (!d) return undefined;
  const role = s.role;
  if (d.kind !== kind || !canSend(d, role.name)) {
    return new LocalError('CapabilityNotSupported', `A ${role.name} does not send ${method}`);
  }
  const version = s.protocolVersion;
  if (version !== undefined && !methodInRevision(d, version)) {
    return new LocalError('CapabilityNotSupported', `${method} does not exist in protocol ${version}`);
  }
  if (kind === 'request') {
    const refusal = role.refuseRequest(method, s.era, version);
    if (refusal) return refusal;
  }
  const cap = d.capability;
  if (!cap || (version !== undefined && !capabilityInRevision(cap, version))) return undefined;
  if (cap.side === role.name) {
    if (d.kind === 'notification' && !hasCapability(s.capabilities, cap.path)) {
      return new LocalError(
        'CapabilityNotSupported',
        `Cannot send ${method}: capability "${cap.path}" was not declared`,
      );
    }
    return undefined;
  }
  if (s.peerCapabilities && !hasCapability(s.peerCapabilities, cap.path)) {
    return new LocalError(
      'CapabilityNotSupported',
      `The ${role.peer} did not declare the "${cap.path}" capability needed for ${method}`,
    );
  }
  return undefined;
}
