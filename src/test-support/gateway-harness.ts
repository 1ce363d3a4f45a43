/**
 * The gateway's security tests' bench: an upstream MCP server on loopback that only the
 * gateway's own token opens (and that records every request and tool call), a gateway in
 * front of it from a literal `mcpkit.gateway` config section, and clients of the gateway
 * with or without a token. Everything is real HTTP on 127.0.0.1.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Client } from '../client/index.js';
import { parseHostConfig } from '../host/config/config-parse.js';
import type { HostConfig } from '../host/config/config-types.js';
import { Host } from '../host/host.js';
import { AuditTrail } from '../host/policy/audit.js';
import { Gateway } from '../host/serve/gateway.js';
import { gatewayAuthenticator } from '../host/serve/gateway-auth.js';
import { ScriptedUi } from '../host/ui/ui.js';
import { McpServer } from '../server/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/node.js';
import { serve } from '../serve/index.js';

/** A random token of 32 hex digits. */
export function token(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface Upstream {
  readonly url: string;
  readonly port: number;
  /** Every HTTP request it received: method, path, headers. */
  readonly requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** Tool calls run, by tool name. */
  readonly calls: Map<string, number>;
  /** From now on, only `next` opens it (the gateway's token is then refused with 401). */
  rotate(next: string): void;
  close(): Promise<void>;
}

/**
 * An MCP server with `read_secret`, `delete_all` and `echo` (its arguments back, as JSON),
 * behind a bearer check that accepts `accepted` only: the gateway's own credential.
 */
export async function startUpstream(accepted: string): Promise<Upstream> {
  let current = accepted;
  const calls = new Map<string, number>();
  const count = (name: string): void => void calls.set(name, (calls.get(name) ?? 0) + 1);
  const server = new McpServer({ name: 'vault', version: '1.0.0' });
  server.tool({ name: 'read_secret' }, () => (count('read_secret'), 'vault-contents'));
  server.tool({ name: 'delete_all' }, () => (count('delete_all'), 'everything deleted'));
  server.tool(
    { name: 'echo' },
    (args, ctx) => (count('echo'), JSON.stringify({ args, meta: ctx.meta ?? null })),
  );
  const requests: Upstream['requests'] = [];
  const running = await serve(server, {
    authenticate: (req, res) => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers } });
      if (req.headers.authorization !== `Bearer ${current}`) {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="vault"' }).end();
        return false;
      }
      return {
        principal: { issuer: '', subject: 'gateway', kind: 'client' },
        scopes: [],
        audience: [],
        claims: {},
      };
    },
  });
  return {
    url: running.url,
    port: running.port,
    requests,
    calls,
    rotate: (next) => void (current = next),
    close: async () => {
      await running.close();
      await server.close();
    },
  };
}

export interface RunningGateway {
  readonly url: string;
  readonly host: Host;
  readonly config: HostConfig;
  readonly trail: AuditTrail;
  close(): Promise<void>;
}

/**
 * A gateway over one upstream server `vault` reached at `upstreamUrl` with `Authorization:
 * Bearer upstreamToken` (its own credential, from its config), serving HTTP on loopback with
 * the config's `mcpkit.gateway` (its `auth` as the gateway's `authenticate`).
 */
export async function startGateway(options: {
  upstreamUrl: string;
  upstreamToken: string;
  gateway: Record<string, unknown>;
  port?: number;
}): Promise<RunningGateway> {
  const config = parseHostConfig({
    mcpServers: {
      vault: {
        url: options.upstreamUrl,
        headers: { Authorization: `Bearer ${options.upstreamToken}` },
        policy: { default: 'allow' },
        restart: { maxRestarts: 0 },
      },
    },
    mcpkit: { gateway: options.gateway },
  });
  const trail = new AuditTrail();
  const host = new Host(config, { ui: new ScriptedUi({ confirmCommand: true }), audit: trail.sink });
  await host.start();
  const gateway = new Gateway(host);
  const auth = config.gateway?.auth;
  const running = await gateway.serveHttp({
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(auth ? { authenticate: gatewayAuthenticator(auth) } : {}),
  });
  return {
    url: running.url,
    host,
    config,
    trail,
    close: async () => {
      await gateway.close();
      await host.close();
    },
  };
}

/** A client of the gateway at `url`, sending `Authorization: Bearer bearer` when given. */
export async function gatewayClient(url: string, bearer?: string): Promise<Client> {
  const client = new Client({ name: 'gateway-caller', version: '1.0.0' }, { timeoutMs: 10_000 });
  await client.connect(
    new StreamableHttpClientTransport({
      url,
      ...(bearer !== undefined ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
      onwarning: () => undefined,
    }),
  );
  return client;
}

/** The text of a tool result. */
export function resultText(r: { content: Array<{ type: string; text?: string }> }): string {
  return r.content.map((c) => c.text ?? '').join('');
}
