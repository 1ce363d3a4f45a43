/**
 * Transport bridges: one server, reached one way, served another way. A local stdio
 * server becomes a Streamable HTTP endpoint; a remote HTTP server becomes a stdio server
 * for clients that only spawn processes. Both eras work on both sides, since the bridge
 * is a host of one server plus a gateway that keeps the original names.
 */
import { appsClientCapabilities } from '../../protocol/apps.js';
import { parseHostConfig } from '../config/config-parse.js';
import type { ParseConfigOptions } from '../config/config-parse.js';
import { Gateway, checkGatewayBind } from './gateway.js';
import type { GatewayHttpOptions } from './gateway.js';
import { Host } from '../host.js';
import type { HostOptions } from '../host.js';

/** Options of {@link bridge}. */
export interface BridgeOptions
  extends
    HostOptions,
    Pick<GatewayHttpOptions, 'authenticate' | 'allowUnauthenticated' | 'allowedHosts' | 'allowedOrigins'> {
  /** How to serve: `http` (default) or `stdio` (this process's stdin and stdout). */
  to: 'http' | 'stdio';
  /**
   * HTTP: the port (default 0, any free one) and the interface (default 127.0.0.1; another
   * one needs `authenticate`, or `allowUnauthenticated` behind an authenticating proxy).
   */
  port?: number;
  hostname?: string;
  path?: string;
  /** For `${...}` in the entry (default: nothing). */
  parse?: ParseConfigOptions;
}

/** A running bridge. */
export interface RunningBridge {
  host: Host;
  gateway: Gateway;
  /** The HTTP endpoint (`to: 'http'`). */
  url: string | undefined;
  close(): Promise<void>;
}

/**
 * Serves one server through another transport. `entry` is one `mcpServers` entry
 * (`{ command, args }` or `{ url }`). A bridge is a transport adapter, so calls are allowed
 * unless the entry's own `policy` says otherwise; starting a local command still needs
 * consent (pass a `ui`, or a `store` that remembers it). With `to: 'stdio'`, stdin carries
 * MCP: give a UI that does not read it.
 *
 * @example
 * ```ts
 * const b = await bridge({ command: 'node', args: ['server.js'] }, { to: 'http', port: 8080, ui });
 * console.error(`stdio server now at ${b.url}`);
 * ```
 */
export async function bridge(entry: Record<string, unknown>, options: BridgeOptions): Promise<RunningBridge> {
  const {
    to,
    port,
    hostname,
    path,
    parse,
    authenticate,
    allowUnauthenticated,
    allowedHosts,
    allowedOrigins,
    ...hostOptions
  } = options;
  // Refused before anything starts, as serveHttp would after.
  if (to === 'http')
    checkGatewayBind({
      ...(hostname !== undefined ? { host: hostname } : {}),
      ...(authenticate ? { authenticate } : {}),
      ...(allowUnauthenticated !== undefined ? { allowUnauthenticated } : {}),
    });
  const withPolicy = { policy: { default: 'allow' }, ...entry };
  const config = parseHostConfig({ mcpServers: { upstream: withPolicy } }, parse);
  // The gateway passes MCP App views through to clients that render them.
  const host = new Host(config, { clientCapabilities: appsClientCapabilities(), ...hostOptions });
  const health = await host.start();
  const up = health[0]!;
  if (up.state !== 'ready') {
    await host.close();
    throw new Error(`The bridged server did not start (${up.state}): ${up.lastError ?? 'no reason given'}`);
  }
  const gateway = new Gateway(host, {
    names: 'original',
    info: { name: `bridge:${up.serverInfo?.name ?? 'upstream'}`, version: up.serverInfo?.version ?? '0' },
    ...(hostOptions.telemetry ? { telemetry: hostOptions.telemetry } : {}),
  });
  let url: string | undefined;
  if (to === 'http') {
    try {
      const running = await gateway.serveHttp({
        ...(port !== undefined ? { port } : {}),
        ...(hostname !== undefined ? { host: hostname } : {}),
        ...(path !== undefined ? { path } : {}),
        ...(authenticate ? { authenticate } : {}),
        ...(allowUnauthenticated !== undefined ? { allowUnauthenticated } : {}),
        ...(allowedHosts ? { allowedHosts } : {}),
        ...(allowedOrigins ? { allowedOrigins } : {}),
      });
      url = running.url;
    } catch (e) {
      await gateway.close();
      await host.close();
      throw e;
    }
  } else {
    await gateway.serveStdio();
  }
  return {
    host,
    gateway,
    url,
    close: async () => {
      await gateway.close();
      await host.close();
    },
  };
}
