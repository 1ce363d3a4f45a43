import type { LocalError, Params, WireError } from '../jsonrpc/index.js';
import type { Era } from '../protocol/versions.js';
import type { InboundRoute, RouteState } from './inbound-route.js';
import type { LegacyState } from './lifecycle.js';
import type { RequestContext } from './request-context.js';
import type { Implementation, RequestHandler, Role } from './session-types.js';

/**
 * What differs between the two ends of an MCP connection, as one object the engine is
 * given (see `clientRole` and `serverRole`). The engine itself never asks which role it
 * plays: every such question is a member here.
 */
export interface SessionRole {
  /** Which end this is. */
  readonly name: Role;
  /** Which end the peer is. */
  readonly peer: Role;
  /**
   * False for a dialect where both ends send what MCP gives to one (the MCP Apps view
   * channel: the view calls the host's tools, the host calls the view's): no method's
   * direction, revision or capability is checked, and the handlers registered are the
   * only gate. Default: checked.
   */
  readonly checkMethods?: boolean;
  /** A request this role answers itself, before any registered handler. */
  builtin(method: string): RequestHandler | undefined;
  /**
   * Under which version, era and peer facts an inbound request is served; a refusal; or
   * `'initialize'`, which the engine handles itself.
   */
  route(s: RouteState, method: string, params: Params): InboundRoute | WireError | 'initialize';
  /** The params of an outbound request, with the modern `_meta` when this role sends it. */
  outboundParams(
    params: Params | undefined,
    modernMeta: Readonly<Record<string, unknown>> | undefined,
  ): Params | undefined;
  /** The era refuses this role's outbound requests (servers send none in the modern era). */
  refuseRequest(method: string, era: Era | undefined, version: string | undefined): LocalError | undefined;
  /** The wire result of a handler's value, for the request's revision. */
  shapeAnswer(
    ctx: RequestContext,
    value: Record<string, unknown>,
    info: Implementation,
  ): Record<string, unknown>;
  /** The legacy state after the peer's `notifications/initialized`. */
  afterInitialized(state: LegacyState): LegacyState;
}
