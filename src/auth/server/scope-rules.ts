/**
 * Scope decisions of the bearer layer, taken in one place and on validated values: what an
 * HTTP request needs as a whole (before its body is read), then what each message of the
 * parsed body needs (its method and name from the body, and the scopes its tool declares).
 */
import type {
  HttpRefusal,
  McpCall,
  RequestAuthorizer,
} from '../../transports/http-server/request-authorizer.js';
import type { AuthInfo } from './auth-info.js';
import type { BearerRequest } from './bearer-auth.js';

/** How scopes are decided: the user's rule, what the request as a whole needs, and how a grant matches. */
export interface ScopeRules {
  rule: readonly string[] | ((request: BearerRequest) => readonly string[]) | undefined;
  /** What the request as a whole needs (already checked). */
  base: readonly string[];
  satisfies: (granted: string, required: string) => boolean;
}

/** The headers that mirror the body, never to be read raw: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`. */
const MIRRORS = /^mcp-(method|name|param-.*)$/i;

/** The request as `requiredScopes` sees it before the body is read: no MCP method, no raw mirror. */
export function wholeRequest(req: BearerRequest): BearerRequest {
  return {
    method: req.method,
    path: req.path,
    query: req.query,
    header: (name) => (MIRRORS.test(name) ? undefined : req.header(name)),
    mcpMethod: undefined,
    mcpName: undefined,
  };
}

/** The request as `requiredScopes` sees it for one message: the body's method and name. */
function messageRequest(req: BearerRequest, call: McpCall): BearerRequest {
  return {
    method: req.method,
    path: req.path,
    query: req.query,
    header: (name) => {
      const n = name.toLowerCase();
      if (n === 'mcp-method') return call.method;
      if (n === 'mcp-name') return call.name;
      return MIRRORS.test(n) ? undefined : req.header(name);
    },
    mcpMethod: call.method,
    mcpName: call.name,
  };
}

/**
 * The authorizer of one authenticated request: asks the rule about each message of the
 * parsed body and adds the scopes its tool declares. When anything is missing, the answer
 * names every scope the request needs, so that one step-up is enough.
 */
export function scopeAuthorizer(
  req: BearerRequest,
  info: AuthInfo,
  rules: ScopeRules,
  insufficient: (scopes: readonly string[]) => HttpRefusal,
): RequestAuthorizer {
  const perMessage = typeof rules.rule === 'function' ? rules.rule : undefined;
  return {
    authorize(calls: readonly McpCall[]): HttpRefusal | undefined {
      const needed = new Set(rules.base);
      let short = false;
      for (const call of calls) {
        if (perMessage) {
          for (const s of perMessage(messageRequest(req, call))) {
            needed.add(s);
            if (!info.scopes.some((g) => rules.satisfies(g, s))) short = true;
          }
        }
        // A tool's own scopes are matched exactly, as the server itself matches them.
        for (const s of call.scopes) {
          needed.add(s);
          if (!info.scopes.includes(s)) short = true;
        }
      }
      return short ? insufficient([...needed]) : undefined;
    },
  };
}
