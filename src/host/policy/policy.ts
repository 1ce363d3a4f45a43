/**
 * Who may call what: allow, deny or ask, per server and per tool, decided on the exact
 * (server, tool) pair the server listed. The LLM-facing alias is never consulted, so a
 * tool cannot borrow another's permissions by sanitizing to the same alias.
 */
import type { Principal } from '../../protocol/principal.js';
import type { Decision, HostConfig, PrincipalRule, RateLimit, ServerConfig } from '../config/config-types.js';

/** Why a decision came out as it did, for the audit log and approval prompts. */
export type DecisionSource =
  'tool-rule' | 'server-default' | 'host-default' | 'read-default' | 'remembered' | 'principal-rule';

/**
 * Who a call is made for. A principal (issuer, subject, kind): a caller the gateway
 * authenticated. `null`: a gateway caller that is not authenticated. `undefined`: the
 * host's own call (its agent, an app), which per-caller rules do not concern.
 */
export type CallPrincipal = Principal | null | undefined;

const samePrincipal = (a: Principal, b: Principal): boolean =>
  a.issuer === b.issuer && a.subject === b.subject && a.kind === b.kind;

/** The policy's answer for one call. */
export interface PolicyDecision {
  decision: Decision;
  source: DecisionSource;
}

/**
 * The policy of one host, from its config. `remember` records an "always" answer for
 * the rest of the session (a changed definition forgets it again, see the catalog).
 *
 * @example
 * ```ts
 * const policy = Policy.fromConfig(config);
 * policy.decide('files', 'write_file');  // { decision: 'ask', source: 'tool-rule' }
 * ```
 */
export class Policy {
  private readonly remembered = new Map<string, Decision>();

  constructor(
    private readonly servers: Readonly<Record<string, Pick<ServerConfig, 'policy'>>>,
    private readonly hostDefault: Decision = 'ask',
    private readonly principals?: readonly PrincipalRule[],
  ) {}

  static fromConfig(config: HostConfig): Policy {
    return new Policy(config.servers, config.defaultDecision, config.gateway?.principals);
  }

  /**
   * Whether the per-caller rules (`mcpkit.gateway.principals`) let `principal` reach `tool`
   * on `server` (`tool` undefined: a resource or prompt of it). Always true for the host's own
   * calls and when there are no such rules; never for an unauthenticated or unlisted caller.
   */
  principalAllows(server: string, tool: string | undefined, principal: CallPrincipal): boolean {
    if (principal === undefined || this.principals === undefined) return true;
    if (principal === null) return false;
    const rule = this.principals.find((r) => samePrincipal(r.principal, principal));
    if (!rule) return false;
    if (rule.allow === '*') return true;
    const forServer = Object.hasOwn(rule.allow, server) ? rule.allow[server] : undefined;
    if (forServer === '*') return true;
    return tool !== undefined && forServer !== undefined && forServer.includes(tool);
  }

  /** The decision for calling `tool` on `server`, for `principal`. A deny anywhere wins. */
  decide(server: string, tool: string, principal?: CallPrincipal): PolicyDecision {
    if (!this.principalAllows(server, tool, principal)) return { decision: 'deny', source: 'principal-rule' };
    const policy = this.servers[server]?.policy;
    const rule = policy?.tools && Object.hasOwn(policy.tools, tool) ? policy.tools[tool] : undefined;
    if (rule === 'deny' || (rule === undefined && policy?.default === 'deny')) {
      return { decision: 'deny', source: rule ? 'tool-rule' : 'server-default' };
    }
    const remembered = this.remembered.get(key(server, tool));
    if (remembered) return { decision: remembered, source: 'remembered' };
    if (rule) return { decision: rule, source: 'tool-rule' };
    if (policy?.default) return { decision: policy.default, source: 'server-default' };
    return { decision: this.hostDefault, source: 'host-default' };
  }

  /** The decision for reading a resource or fetching a prompt (default allow), for `principal`. */
  decideRead(server: string, principal?: CallPrincipal): PolicyDecision {
    if (!this.principalAllows(server, undefined, principal))
      return { decision: 'deny', source: 'principal-rule' };
    const policy = this.servers[server]?.policy;
    if (policy?.default === 'deny') return { decision: 'deny', source: 'server-default' };
    return { decision: policy?.reads ?? 'allow', source: 'read-default' };
  }

  /** Remembers an answer for this pair until {@link Policy.forget} (never overrides a deny rule). */
  remember(server: string, tool: string, decision: Decision): void {
    this.remembered.set(key(server, tool), decision);
  }

  forget(server: string, tool: string): void {
    this.remembered.delete(key(server, tool));
  }
}

function key(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

/**
 * A sliding-window limit on calls per server. `take` says whether one more call fits
 * now, and how long until one would.
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter({ calls: 10, perMs: 60_000 });
 * const { ok, retryInMs } = limiter.take();
 * ```
 */
export class RateLimiter {
  private readonly stamps: number[] = [];

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  take(): { ok: boolean; retryInMs: number } {
    const t = this.now();
    while (this.stamps.length > 0 && this.stamps[0]! <= t - this.limit.perMs) this.stamps.shift();
    if (this.stamps.length >= this.limit.calls) {
      return { ok: false, retryInMs: this.stamps[0]! + this.limit.perMs - t };
    }
    this.stamps.push(t);
    return { ok: true, retryInMs: 0 };
  }
}
