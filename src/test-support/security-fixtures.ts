/**
 * Fixtures of the attack tests in src/security/: an MCP server with a user tool and an admin
 * tool behind the bearer layer, that records which tool handlers actually ran, plus the raw
 * requests an attacker sends (any header, either era, batches). Test-only.
 */
import { McpServer } from '../server/index.js';
import type { ToolDefinition } from '../server/index.js';
import { createBearerAuth } from '../auth/server/bearer-auth.js';
import type { BearerAuth, BearerAuthOptions, NodeRequestLike } from '../auth/server/bearer-auth.js';
import { jwtVerifier } from '../auth/server/jwt-verifier.js';
import type { JwtVerifierOptions } from '../auth/server/jwt-verifier.js';
import { authInfoOf } from '../auth/server/auth-info.js';
import { serve } from '../serve/index.js';
import { TestAuthServer } from './auth-test-server.js';
import { initializeRequest, notification, postJson } from './http-server-harness.js';
import type { RawResponse } from './http-server-harness.js';

export interface ScopedMcp {
  readonly as: TestAuthServer;
  readonly auth: BearerAuth;
  /** The MCP endpoint. */
  readonly url: string;
  /** The tool handlers that ran, in order. */
  readonly ran: string[];
  /** The Node request as code after the bearer layer sees it, for each authenticated request. */
  readonly afterAuth: NodeRequestLike[];
  /** A token for this server granting `scope`, signed by the test authorization server. */
  token(scope: string, claims?: Record<string, unknown>, typ?: string): Promise<string>;
  close(): Promise<void>;
}

export interface ScopedMcpOptions {
  /** The bearer layer's options besides resource and verifier. */
  bearer?: Partial<Omit<BearerAuthOptions, 'resource' | 'verifier'>>;
  /** The admin tool's own scopes (default none: the bearer rule alone guards it). */
  adminScopes?: readonly string[];
  /** The JWT verifier's options besides issuer, audience and keys. */
  verifier?: Partial<JwtVerifierOptions>;
  /** Serve the legacy HTTP+SSE endpoints too (default off). */
  legacySse?: boolean;
  /** A running authorization server to trust (default: one that is not listening). */
  as?: TestAuthServer;
}

/** `whoami` for users, `admin_reset` for admins, behind createBearerAuth on a real socket. */
export async function startScopedMcp(options: ScopedMcpOptions = {}): Promise<ScopedMcp> {
  let as = options.as;
  if (!as) {
    as = await TestAuthServer.create();
    as.attach('https://auth.example.com');
  }
  const trusted = as;
  const jwks = await as.jwks();
  const server = new McpServer({ name: 'scoped', version: '1.0.0' });
  const ran: string[] = [];
  const afterAuth: NodeRequestLike[] = [];
  server.tool({ name: 'whoami' }, (_args, ctx) => {
    ran.push('whoami');
    return authInfoOf(ctx)?.subject ?? 'anonymous';
  });
  const admin: ToolDefinition = { name: 'admin_reset' };
  if (options.adminScopes) admin.scopes = options.adminScopes;
  server.tool(admin, () => {
    ran.push('admin_reset');
    return 'reset done';
  });
  // Made once the port is known; the hook runs only after that.
  const made: { auth?: BearerAuth } = {};
  const running = await serve(server, {
    legacySse: options.legacySse === true ? { ssePath: '/sse', messagesPath: '/messages' } : null,
    authenticate: async (req, res) => {
      const outcome = await made.auth!.node(req, res);
      if (outcome) afterAuth.push({ headers: { ...req.headers }, rawHeaders: [...req.rawHeaders] });
      return outcome;
    },
  });
  const auth = (made.auth = createBearerAuth({
    authorizationServers: [as.issuer],
    ...options.bearer,
    resource: running.url,
    verifier: jwtVerifier({ issuer: as.issuer, audience: running.url, jwks, ...options.verifier }),
  }));
  return {
    as,
    auth,
    url: running.url,
    ran,
    afterAuth,
    token: (scope, claims = {}, typ) =>
      trusted.sign({ sub: 'user-1', client_id: 'app', aud: running.url, scope, ...claims }, 300, typ),
    close: async () => {
      await running.close();
      await server.close();
    },
  };
}

/** The bearer header of a token. */
export const bearerOf = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Opens a legacy session (initialize, then initialized) with these headers; returns its id. */
export async function openSession(
  url: string,
  headers: Record<string, string>,
  version = '2025-11-25',
): Promise<string> {
  const init = await postJson(url, initializeRequest(version), headers);
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string') {
    throw new Error(`initialize answered ${init.status}: ${init.body}`);
  }
  const h = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': version };
  const done = await postJson(url, notification('notifications/initialized'), h);
  if (done.status !== 202) throw new Error(`notifications/initialized answered ${done.status}`);
  return sid;
}

/** The `WWW-Authenticate` header of an answer ('' when absent). */
export const challengeOf = (r: RawResponse): string => String(r.headers['www-authenticate'] ?? '');
