import { LocalError } from '../jsonrpc/index.js';
import { shapeResult } from '../protocol/revision-shaping.js';
import { discoverHandler, pingHandler, setLevelHandler } from './builtins.js';
import { routeServerRequest } from './inbound-route.js';
import { sessionEraOf } from './session-era.js';
import type { SessionRole } from './session-role.js';

/**
 * The server end: it answers `server/discover` and `logging/setLevel` itself, serves each
 * request in the era its `_meta` names, decorates modern results, and sends no requests in
 * the modern era (it asks through `input_required` results instead).
 */
export const serverRole: SessionRole = {
  name: 'server',
  peer: 'client',
  builtin: (method) =>
    method === 'ping'
      ? pingHandler
      : method === 'server/discover'
        ? discoverHandler
        : method === 'logging/setLevel'
          ? setLevelHandler
          : undefined,
  route: routeServerRequest,
  outboundParams: (params) => params,
  refuseRequest: (_method, era, version) =>
    era !== undefined && !sessionEraOf(era).serverRequests
      ? new LocalError('CapabilityNotSupported', `Servers send no requests in protocol ${version}`)
      : undefined,
  shapeAnswer: (ctx, value, info) =>
    shapeResult(
      ctx.method,
      ctx.protocolVersion,
      sessionEraOf(ctx.era).decorateResult(ctx.method, value, info),
    ),
  afterInitialized: (state) => (state === 'initializing' ? 'ready' : state),
};
