/**
 * The seam between an auth layer and the HTTP handler for per-request authorization. The
 * `authenticate` hook verifies the credential up front and returns an {@link Authentication}:
 * the principal, and an authorizer. Once the body is parsed and its mirrored headers are
 * checked, the handler asks that authorizer about every message, with the method and name
 * taken from the body: no decision is ever taken on a raw header. No auth code lives here
 * (transports do not import auth).
 */
import { InvalidMessage, ParsedBatch } from '../../jsonrpc/index.js';
import type { JsonRpcMessage } from '../../jsonrpc/index.js';
import type { HttpExchange } from './exchange.js';
import { checkLegacyMirrors, mirroredNameOf } from './header-checks.js';
import { sendError } from './respond.js';
import type { McpConnector } from './respond.js';

/** One message of a POST as an authorizer sees it: read from the parsed body, never from headers. */
export interface McpCall {
  /** The JSON-RPC method; undefined for a response (the client answering the server). */
  readonly method: string | undefined;
  /** What `Mcp-Name` mirrors: the tool or prompt name, the resource URI, the task id. */
  readonly name: string | undefined;
  /** The scopes the server declares this call needs (a tool's `scopes`); empty for most. */
  readonly scopes: readonly string[];
}

/** An HTTP answer that turns a request down, such as 403 `insufficient_scope`. */
export interface HttpRefusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Decides, once the body is parsed, whether the authenticated principal may make its calls. */
export interface RequestAuthorizer {
  /** Undefined to let the request through, or the answer that refuses it (all or nothing). */
  authorize(calls: readonly McpCall[]): HttpRefusal | undefined | Promise<HttpRefusal | undefined>;
}

/**
 * What an `authenticate` hook returns for a request it authenticated: the principal, which
 * handlers see as `ctx.authInfo`, and the authorizer the HTTP handler asks about each message
 * once the body is parsed. A hook that returns any other value gives only the principal.
 *
 * @example
 * ```ts
 * // In front of fetchHandler: a principal, and a rule over the parsed calls.
 * const authenticate = async (_request: Request) =>
 *   new Authentication({ subject: 'alice', scopes: ['mcp'] }, {
 *     authorize: (calls) =>
 *       calls.some((c) => c.name === 'admin_reset')
 *         ? { status: 403, headers: {}, body: '' }
 *         : undefined,
 *   });
 * ```
 */
export class Authentication<A = unknown> {
  constructor(
    readonly authInfo: A,
    readonly authorizer?: RequestAuthorizer,
  ) {}
}

/** Puts what an `authenticate` hook returned on the exchange: the principal, and any authorizer. */
export function attachAuthentication(ex: HttpExchange, auth: unknown): void {
  if (auth instanceof Authentication) {
    ex.authInfo = auth.authInfo;
    ex.authorizer = auth.authorizer;
  } else {
    ex.authInfo = auth;
  }
}

/** The calls of a parsed body; invalid batch items are left out (they are answered with errors). */
export function callsOf(
  frame: JsonRpcMessage | ParsedBatch,
  connector: McpConnector,
  authInfo?: unknown,
): McpCall[] {
  const items = frame instanceof ParsedBatch ? frame.items : [frame];
  const calls: McpCall[] = [];
  for (const m of items) {
    if (m instanceof InvalidMessage) continue;
    if (!('method' in m)) {
      calls.push({ method: undefined, name: undefined, scopes: [] });
      continue;
    }
    const name = mirroredNameOf(m);
    const scopes =
      m.method === 'tools/call' && name !== undefined ? (connector.toolScopes?.(name, authInfo) ?? []) : [];
    calls.push({ method: m.method, name, scopes });
  }
  return calls;
}

function answer(ex: HttpExchange, refusal: HttpRefusal | undefined): boolean {
  if (refusal === undefined) return false;
  ex.respond(refusal.status, { ...refusal.headers }, refusal.body);
  return true;
}

/**
 * Screens a parsed body before it is delivered: a legacy request's `Mcp-Method` and
 * `Mcp-Name`, when sent, must agree with the body (400, -32020, as in the modern era), and
 * the exchange's authorizer, if any, must allow every call. True when the request was
 * refused (the answer is sent). Synchronous when there is no authorizer, so a request that
 * is not screened pays no microtask.
 */
export function screenFrame(
  ex: HttpExchange,
  frame: JsonRpcMessage | ParsedBatch,
  connector: McpConnector,
  mirrored: boolean,
): boolean | Promise<boolean> {
  // A legacy request's Mcp-Method/Mcp-Name mirrors are checked here; a modern one's were
  // checked with its other headers before the body was parsed.
  // Most clients send neither mirror: then there is nothing to compare (and no closure to make).
  if (mirrored && (ex.header('mcp-method') !== undefined || ex.header('mcp-name') !== undefined)) {
    const mismatch = checkLegacyMirrors(frame, (n) => ex.header(n));
    if (mismatch) {
      const id = frame instanceof ParsedBatch || !('id' in frame) ? null : frame.id;
      sendError(ex, 400, mismatch.code, mismatch.message, id);
      return true;
    }
  }
  const authorizer = ex.authorizer;
  if (!authorizer) return false;
  const verdict = authorizer.authorize(callsOf(frame, connector, ex.authInfo));
  return verdict instanceof Promise ? verdict.then((r) => answer(ex, r)) : answer(ex, verdict);
}
