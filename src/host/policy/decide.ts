/**
 * The host's one policy decision: may this happen, and if a person must be asked, what did
 * they say? Every call, read and server start goes through {@link decide}, which combines the
 * config's policy and rate limits, the catalog's view of pins and inspection (a new, changed
 * or flagged tool), remembered answers and command consents. Callers only audit and act on
 * the verdict.
 */
import type { CatalogTool } from '../catalog/catalog.js';
import { HostError } from '../errors.js';
import type { ServerConfig } from '../config/config-types.js';
import type { ApprovalReason, CommandConsentRequest, HostUi, ToolApprovalRequest } from '../ui/ui.js';
import { consentKey, describeCommand } from './command-consent.js';
import type { ApprovalStore } from './pins.js';
import type { CallPrincipal, Policy, RateLimiter } from './policy.js';

/** What the decision reads and records. */
export interface DecisionDeps {
  readonly policy: Policy;
  limiter(server: string): RateLimiter | undefined;
  ui(): Promise<HostUi>;
  /** Where command consents are kept. */
  readonly store: ApprovalStore;
  /** Pins a definition a person approved for good (the catalog's `approve`). */
  pin(tool: CatalogTool): void;
}

/** What is about to happen. */
export type Question =
  | {
      readonly kind: 'tool';
      readonly tool: CatalogTool;
      readonly caller: string;
      readonly arguments?: unknown;
      /** The gateway caller it is for (see {@link CallPrincipal}). */
      readonly principal?: CallPrincipal;
    }
  | {
      readonly kind: 'resource' | 'prompt';
      readonly server: string;
      readonly target: string;
      readonly caller: string;
      readonly principal?: CallPrincipal;
    }
  | { readonly kind: 'command'; readonly server: ServerConfig };

/** The answer: go ahead (and how it was decided), or a refusal to audit and throw. */
export type Verdict = (
  | { readonly allowed: true; readonly decision: 'allowed' | 'approved' | 'approved-always' }
  | { readonly allowed: false; readonly decision: 'denied' | 'rate-limited'; readonly error: HostError }
) & {
  /** For a command: what the person was shown (set only when they were asked). */
  readonly command?: CommandConsentRequest;
};

/** Why a tool in this catalog state needs approval whatever the policy says. */
const REASON: Record<string, ApprovalReason> = {
  pending: 'new-tool',
  changed: 'changed',
  flagged: 'flagged',
};

/**
 * Decides one question. A deny rule wins over everything; then the server's rate limit; then a
 * person is asked when the policy says `ask` or the tool is new, changed or flagged. An
 * "always" answer pins the tool and remembers the answer for the session.
 */
export function decide(deps: DecisionDeps, question: Question, signal?: AbortSignal): Promise<Verdict> {
  switch (question.kind) {
    case 'tool':
      return decideTool(deps, question, signal);
    case 'resource':
    case 'prompt':
      return decideRead(deps, question, signal);
    case 'command':
      return decideCommand(deps, question.server, signal);
  }
}

/** A gateway caller as a refusal names it. */
function callerName(principal: CallPrincipal): string {
  if (!principal) return 'an unauthenticated caller';
  return principal.issuer === ''
    ? `the token ${JSON.stringify(principal.subject)}`
    : `${principal.kind} ${JSON.stringify(principal.subject)} of ${principal.issuer}`;
}

const refused = (decision: 'denied' | 'rate-limited', error: HostError): Verdict => ({
  allowed: false,
  decision,
  error,
});

async function decideTool(
  deps: DecisionDeps,
  q: Extract<Question, { kind: 'tool' }>,
  signal: AbortSignal | undefined,
): Promise<Verdict> {
  const entry = q.tool;
  const policy = deps.policy.decide(entry.server, entry.name, q.principal);
  if (policy.decision === 'deny') {
    const what = `${JSON.stringify(entry.name)} on ${JSON.stringify(entry.server)}`;
    return refused(
      'denied',
      new HostError(
        'Denied',
        policy.source === 'principal-rule'
          ? `The gateway's rules (mcpkit.gateway.principals) do not let ${callerName(q.principal)} call ${what}`
          : `The policy denies ${what} (${policy.source})`,
      ),
    );
  }
  const limit = deps.limiter(entry.server)?.take();
  if (limit && !limit.ok) {
    return refused(
      'rate-limited',
      new HostError(
        'RateLimited',
        `Rate limit of server ${JSON.stringify(entry.server)} reached; retry in ${Math.ceil(limit.retryInMs / 1000)} s`,
      ),
    );
  }
  const reason = REASON[entry.status];
  if (policy.decision !== 'ask' && !reason) return { allowed: true, decision: 'allowed' };
  const ui = await deps.ui();
  const question: ToolApprovalRequest = {
    server: entry.server,
    tool: entry.name,
    alias: entry.alias,
    caller: q.caller,
    arguments: q.arguments as ToolApprovalRequest['arguments'],
    definition: entry.definition,
    reason: reason ?? 'policy',
    previous: entry.previous,
    warnings: entry.warnings,
  };
  const answer = await ui.approveTool(question, signal);
  if (answer === 'deny') {
    return refused(
      'denied',
      new HostError(
        'NotApproved',
        ui.explainRefusal?.(question) ??
          `The user did not approve ${JSON.stringify(entry.name)} on ${JSON.stringify(entry.server)}`,
      ),
    );
  }
  if (answer !== 'always') return { allowed: true, decision: 'approved' };
  deps.pin(entry);
  if (policy.decision === 'ask') deps.policy.remember(entry.server, entry.name, 'allow');
  return { allowed: true, decision: 'approved-always' };
}

async function decideRead(
  deps: DecisionDeps,
  q: Extract<Question, { kind: 'resource' | 'prompt' }>,
  signal: AbortSignal | undefined,
): Promise<Verdict> {
  const { kind, server, target } = q;
  const policy = deps.policy.decideRead(server, q.principal);
  if (policy.decision === 'deny')
    return refused(
      'denied',
      new HostError(
        'Denied',
        policy.source === 'principal-rule'
          ? `The gateway's rules (mcpkit.gateway.principals) do not let ${callerName(q.principal)} read from ${JSON.stringify(server)}`
          : `The policy denies reading from ${JSON.stringify(server)}`,
      ),
    );
  const limit = deps.limiter(server)?.take();
  if (limit && !limit.ok)
    return refused(
      'rate-limited',
      new HostError('RateLimited', `Rate limit of server ${JSON.stringify(server)} reached`),
    );
  if (policy.decision !== 'ask') return { allowed: true, decision: 'allowed' };
  const ui = await deps.ui();
  const question: ToolApprovalRequest = {
    server,
    tool: `${kind}:${target}`,
    alias: target,
    caller: q.caller,
    arguments: undefined,
    definition: {
      name: target,
      description: `${kind === 'resource' ? 'Read the resource' : 'Get the prompt'} ${target}`,
      inputSchema: { type: 'object' },
    },
    reason: 'policy',
    previous: undefined,
    warnings: [],
  };
  const answer = await ui.approveTool(question, signal);
  if (answer === 'deny')
    return refused(
      'denied',
      new HostError(
        'NotApproved',
        ui.explainRefusal?.(question) ?? `The user did not approve reading ${target}`,
      ),
    );
  return { allowed: true, decision: 'approved' };
}

/** A local server's command line runs only with consent, given once per exact command. */
async function decideCommand(
  deps: DecisionDeps,
  server: ServerConfig,
  signal: AbortSignal | undefined,
): Promise<Verdict> {
  if (server.transport !== 'stdio') return { allowed: true, decision: 'allowed' };
  const key = await consentKey(server);
  if (deps.store.hasConsent(key)) return { allowed: true, decision: 'allowed' };
  const command = describeCommand(server);
  const ui = await deps.ui();
  if (!(await ui.confirmCommand(command, signal)))
    return {
      ...refused(
        'denied',
        new HostError('ConsentRefused', `Starting ${command.commandLine} was not allowed`),
      ),
      command,
    };
  deps.store.addConsent(key);
  return { allowed: true, decision: 'approved', command };
}
