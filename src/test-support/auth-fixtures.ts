/**
 * Test fixtures for the auth tests: an MCP server protected by the bearer layer, our
 * Client connected through an {@link OAuthClient}, and a fetch that records every URL.
 * Named `*.test.helpers.ts`: neither run as a test nor shipped.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '../client/index.js';
import type { EraPreference } from '../client/index.js';
import { McpServer } from '../server/index.js';
import { serve } from '../serve/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/node.js';
import { headlessInteraction } from '../auth/client/interaction.js';
import type { AuthorizationInteraction } from '../auth/client/interaction.js';
import type { OAuthClient } from '../auth/client/oauth-client.js';
import { createBearerAuth } from '../auth/server/bearer-auth.js';
import type { BearerAuth, BearerAuthOptions } from '../auth/server/bearer-auth.js';
import { authInfoOf } from '../auth/server/auth-info.js';
import { jwtVerifier } from '../auth/server/jwt-verifier.js';
import type { TokenVerifier } from '../auth/server/auth-info.js';
import type { TestAuthServer } from './auth-test-server.js';

export interface ProtectedMcp {
  url: string;
  auth: BearerAuth;
  /** Requests the MCP server received: method, path and Authorization header. */
  seen: { method: string; path: string; authorization: string }[];
  close(): Promise<void>;
}

export type ProtectOptions = Partial<Omit<BearerAuthOptions, 'resource' | 'verifier'>> & {
  /** Build the verifier from the resource (default: a JWT verifier trusting `as`). */
  verifier?: (resource: string) => TokenVerifier;
  /** Publish this resource instead of the real one (hostile servers). */
  resource?: string;
};

/** An MCP server with the tools `whoami` (the principal as JSON) and `write`, behind bearer auth. */
export async function startProtectedMcp(
  as: TestAuthServer,
  options: ProtectOptions = {},
): Promise<ProtectedMcp> {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_args, ctx) => JSON.stringify(authInfoOf(ctx) ?? null));
  server.tool({ name: 'write' }, () => 'written');
  const jwks = await as.jwks();
  const seen: ProtectedMcp['seen'] = [];
  const running = await serve(server, {
    authenticate: (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      seen.push({ method: req.method ?? '', path, authorization: String(req.headers.authorization ?? '') });
      if (options.resource !== undefined && path === new URL(auth.metadataUrl).pathname) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...auth.metadata, resource: options.resource }));
        return false;
      }
      return auth.node(req, res);
    },
  });
  const { verifier, resource: _r, ...rest } = options;
  const auth: BearerAuth = createBearerAuth({
    authorizationServers: [as.issuer],
    ...rest,
    resource: running.url,
    verifier: verifier
      ? verifier(running.url)
      : jwtVerifier({ issuer: as.issuer, audience: running.url, jwks }),
  });
  return {
    url: running.url,
    auth,
    seen,
    close: async () => {
      await running.close();
      await server.close();
    },
  };
}

/** How the transport is authorized: the OAuth client's `fetch`, or the transport's `auth` option. */
export type AuthVia = 'fetch' | 'auth option';

/** Connects our Client to `url`, authorized by `oauth` through its fetch or as the `auth` option. */
export async function connectWith(
  oauth: OAuthClient,
  url: string,
  era: EraPreference = 'legacy',
  via: AuthVia = 'fetch',
): Promise<Client> {
  const client = new Client({ name: 'auth-test', version: '1.0.0' }, { era, timeoutMs: 10_000 });
  const onwarning = (): undefined => undefined;
  await client.connect(
    via === 'fetch'
      ? new StreamableHttpClientTransport({ url, fetch: oauth.fetch, onwarning })
      : new StreamableHttpClientTransport({ url, auth: oauth, onwarning }),
  );
  return client;
}

/** The text of a tool result. */
export async function callText(client: Client, name: string): Promise<string> {
  const r = await client.callTool({ name, arguments: {} });
  const first = r.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** A fetch that records every URL it is asked for, and can refuse some. */
export function recordingFetch(refuse?: (url: URL) => boolean): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  const f = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    urls.push(url.href);
    if (refuse?.(url)) return Promise.reject(new Error(`test refused ${url.href}`));
    return fetch(input, init);
  };
  return { fetch: f as typeof fetch, urls };
}

/** A bare node:http server on 127.0.0.1 answering with `handler` (hostile servers). */
export async function startRawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** An interaction that records the URLs it was asked to open, then answers headlessly. */
export function spyInteraction(redirectUri = 'http://127.0.0.1:33418/callback'): AuthorizationInteraction & {
  opened: URL[];
} {
  const inner = headlessInteraction({ redirectUri });
  const opened: URL[] = [];
  return {
    redirectUri,
    opened,
    openAuthorizationUrl(url, context) {
      opened.push(url);
      return inner.openAuthorizationUrl(url, context);
    },
  };
}
