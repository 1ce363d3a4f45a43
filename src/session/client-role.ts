import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { shapeResult } from '../protocol/revision-shaping.js';
import { LATEST_LEGACY_VERSION } from '../protocol/versions.js';
import { pingHandler } from './builtins.js';
import { withModernMeta } from './modern-meta.js';
import { sessionEraOf } from './session-era.js';
import type { SessionRole } from './session-role.js';

/**
 * The client end: it answers only legacy server-to-client requests (the modern era has
 * none), and stamps the modern `_meta` on every request once a version is pinned.
 */
export const clientRole: SessionRole = {
  name: 'client',
  peer: 'server',
  builtin: (method) => (method === 'ping' ? pingHandler : undefined),
  route: (s) => {
    if (s.era !== undefined && !sessionEraOf(s.era).serverRequests) {
      return WireError.invalidRequest(`Servers send no requests in protocol ${s.protocolVersion}`);
    }
    return {
      version: s.protocolVersion ?? LATEST_LEGACY_VERSION,
      era: 'legacy',
      peerCapabilities: s.peerCapabilities ?? {},
      peerInfo: s.peerInfo,
    };
  },
  outboundParams: (params: Params | undefined, modernMeta) =>
    modernMeta ? withModernMeta(params, modernMeta) : params,
  refuseRequest: () => undefined,
  shapeAnswer: (ctx, value) => shapeResult(ctx.method, ctx.protocolVersion, value),
  // Only a server waits for the handshake's last message.
  afterInitialized: (state) => state,
};
