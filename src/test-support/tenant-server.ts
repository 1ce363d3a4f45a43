/**
 * Test-only support for the principal-binding attacks (src/security/): two trusted issuers
 * ("tenants") minting tokens for one MCP server, that server behind bearer auth with tools
 * that tell whom they run for, ask the user, or hang as a task, and raw clients of both HTTP
 * transports (Streamable sessions and modern requests, the 2024-11-05 `/sse` + `/messages`).
 */
import { decodeJwt } from 'jose';
import { MetaKey } from '../protocol/meta-keys.js';
import { McpServer } from '../server/index.js';
import { serve } from '../serve/index.js';
import type { ServeOptions } from '../serve/index.js';
import { createBearerAuth } from '../auth/server/bearer-auth.js';
import { InvalidTokenError } from '../auth/server/auth-info.js';
import type { TokenVerifier } from '../auth/server/auth-info.js';
import { jwtVerifier } from '../auth/server/jwt-verifier.js';
import { principalKey } from '../protocol/principal.js';
import { TestAuthServer } from './auth-test-server.js';
import { waitFor } from './waiting.js';
import {
  LEGACY,
  fixtureOf,
  initializeRequest,
  modern,
  notification,
  openStream,
  postJson,
  rpc,
  sseMessages,
} from './http-server-harness.js';
import type { Fixture, Obj, RawResponse, SseReader } from './http-server-harness.js';

/** The audience of every token: one resource, however many nodes serve it. */
export const TENANT_RESOURCE = 'https://mcp.test/mcp';

/** The tasks extension, declared by modern callers that want tasks. */
export const TASKS_EXT = 'io.modelcontextprotocol/tasks';

/** Two issuers the server trusts, and their tokens. */
export interface Tenants {
  readonly a: TestAuthServer;
  readonly b: TestAuthServer;
  /** Verifies a token with the keys of the issuer it names (and refuses other issuers). */
  readonly verifier: TokenVerifier;
  /** A user's token: subject `sub` at `as`, obtained through the client `app`. */
  user(as: TestAuthServer, sub: string): Promise<string>;
  /** A client's own token (client credentials: `sub` is its `client_id`, RFC 9068 §2.2). */
  client(as: TestAuthServer, clientId: string): Promise<string>;
}

/** Two issuers, `https://tenant-a.test` and `https://tenant-b.test`, each with its own keys. */
export async function makeTenants(): Promise<Tenants> {
  const a = await TestAuthServer.create();
  const b = await TestAuthServer.create();
  a.attach('https://tenant-a.test');
  b.attach('https://tenant-b.test');
  const byIssuer = new Map<string, TokenVerifier>();
  for (const as of [a, b]) {
    byIssuer.set(
      as.issuer,
      jwtVerifier({ issuer: as.issuer, audience: TENANT_RESOURCE, jwks: await as.jwks() }),
    );
  }
  const verifier: TokenVerifier = {
    verify(token) {
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        throw new InvalidTokenError('not a JWT');
      }
      const v = typeof iss === 'string' ? byIssuer.get(iss) : undefined;
      if (!v) throw new InvalidTokenError('unknown issuer');
      return v.verify(token);
    },
  };
  return {
    a,
    b,
    verifier,
    user: (as, sub) => as.sign({ sub, client_id: 'app', aud: TENANT_RESOURCE }),
    client: (as, clientId) => as.sign({ sub: clientId, client_id: clientId, aud: TENANT_RESOURCE }),
  };
}

/**
 * The server every node runs: `whoami` answers the caller's principal key (`''` when the
 * handler got no authInfo), `ask` elicits a yes/no and reports the answer, `hang` (task
 * support optional) runs until cancelled.
 */
function tenantMcpServer(): McpServer {
  const server = new McpServer({ name: 'tenants', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_args, ctx) => principalKey(ctx.authInfo));
  server.tool({ name: 'ask' }, async (_args, ctx) => {
    const r = await ctx.elicit({
      message: 'Proceed?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return `answer ${r.action} ${JSON.stringify(r.content ?? null)}`;
  });
  server.tool({ name: 'hang', execution: { taskSupport: 'optional' } }, (_args, ctx) => {
    return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped')));
  });
  return server;
}

/** A {@link tenantMcpServer} on loopback behind bearer auth trusting both tenants. */
export async function startTenantNode(tenants: Tenants, options: ServeOptions = {}): Promise<Fixture> {
  const server = tenantMcpServer();
  const auth = createBearerAuth({
    resource: TENANT_RESOURCE,
    authorizationServers: [tenants.a.issuer, tenants.b.issuer],
    verifier: tenants.verifier,
  });
  return fixtureOf(server, await serve(server, { ...options, authenticate: auth.node }));
}

/** The Authorization header of a token. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** The JSON-RPC messages of a POST answer, JSON or SSE alike. */
function answerOf(r: RawResponse): Obj[] {
  if (String(r.headers['content-type'] ?? '').startsWith('text/event-stream')) return sseMessages(r.body);
  return r.json ? [r.json] : [];
}

/** What the raw legacy clients declare: they answer elicitation. */
const CAPS: Obj = { elicitation: {} };

/** Opens a legacy Streamable HTTP session (2025-11-25) as the holder of `token`; its id. */
export async function openSession(url: string, token: string): Promise<string> {
  const init = await postJson(url, initializeRequest(LEGACY, CAPS), bearer(token));
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string')
    throw new Error(`initialize: ${init.status} ${init.body}`);
  const done = await postJson(url, notification('notifications/initialized'), sessionHeaders(sid, token));
  if (done.status !== 202) throw new Error(`notifications/initialized: ${done.status}`);
  return sid;
}

/** The headers of a request in session `sid`, made with `token`. */
export const sessionHeaders = (sid: string, token: string): Record<string, string> => ({
  ...bearer(token),
  'mcp-session-id': sid,
  'mcp-protocol-version': LEGACY,
});

/** One stateless modern (2026-07-28) request with the tasks extension and elicitation declared. */
export function postModern(url: string, token: string, method: string, params: Obj): Promise<RawResponse> {
  const capabilities = { elicitation: {}, extensions: { [TASKS_EXT]: {} } };
  const m = modern(method, params, { meta: { [MetaKey.ClientCapabilities]: capabilities } });
  return postJson(url, m.body, { ...m.headers, ...bearer(token) });
}

/** A 2024-11-05 HTTP+SSE connection, initialized, and its POST endpoint. */
export interface SseConnection {
  /** The `/messages?sessionId=…` URL the server named. */
  readonly endpoint: string;
  readonly sse: SseReader;
  /** POSTs a message to the endpoint (with the opener's token unless another is given). */
  post(message: Obj, token?: string): Promise<RawResponse>;
  close(): void;
}

/**
 * Opens `GET /sse` with `token` and initializes the connection (protocol `version`, with
 * elicitation), as a 2024-11-05 client does.
 */
export async function openSseConnection(
  origin: string,
  token: string,
  version = '2025-06-18',
): Promise<SseConnection> {
  const { sse, abort, response } = await openStream(`${origin}/sse`, {
    method: 'GET',
    headers: bearer(token),
  });
  if (response.status !== 200) throw new Error(`GET /sse: ${response.status}`);
  await waitForEndpoint(sse);
  const path = sse.events.find((e) => e.event === 'endpoint')!.data;
  const endpoint = new URL(path, origin).href;
  const post = (message: Obj, as = token): Promise<RawResponse> => postJson(endpoint, message, bearer(as));
  const init = initializeRequest(version, { elicitation: {} });
  const accepted = await post(init);
  if (accepted.status !== 202) throw new Error(`initialize on /messages: ${accepted.status}`);
  await sse.response(init.id);
  await post(notification('notifications/initialized'));
  return { endpoint, sse, post, close: abort };
}

/** The `endpoint` event is not a JSON-RPC message, so SseReader.next cannot wait on it. */
async function waitForEndpoint(sse: SseReader): Promise<void> {
  await waitFor(
    () => sse.events.some((e) => e.event === 'endpoint') || sse.ended,
    undefined,
    'the endpoint event',
  );
  if (!sse.events.some((e) => e.event === 'endpoint')) throw new Error('GET /sse ended without an endpoint');
}

/** A request's HTTP status and its JSON-RPC answer (undefined when there is none). */
export interface Answered {
  readonly status: number;
  readonly body: string;
  readonly answer: Obj | undefined;
}

/** The answer among a response's messages: to request `id`, or the only request there was. */
function answered(r: RawResponse, id?: unknown): Answered {
  const answer = answerOf(r).find((m) => !('method' in m) && (id === undefined || m.id === id));
  return { status: r.status, body: r.body, answer };
}

/** One request in legacy session `sid`, made with `token`. */
export async function sessionRequest(
  url: string,
  sid: string,
  token: string,
  method: string,
  params: Obj = {},
): Promise<Answered> {
  const body = rpc(method, params);
  return answered(await postJson(url, body, sessionHeaders(sid, token)), body.id);
}

/** One stateless modern request made with `token` (see {@link postModern}). */
export async function modernRequest(
  url: string,
  token: string,
  method: string,
  params: Obj,
): Promise<Answered> {
  return answered(await postModern(url, token, method, params));
}
