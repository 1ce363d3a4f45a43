import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { argumentsError } from '../parse-error.js';
import { CLI_TOKEN_NAME, tokenProblem } from '../../host/config/config-gateway.js';
import { Gateway, Host, bridge, checkGatewayBind, gatewayAuthenticator } from '../../host/index.js';
import type { GatewayAuthConfig, GatewayHttpOptions, HostConfig } from '../../host/index.js';
import { fileAudit } from '../../host/node.js';
import { appsClientCapabilities } from '../../protocol/apps.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { commandUi, reportStart } from '../headless.js';
import { cliTelemetry } from '../otel-wanted.js';
import { loadConfigFor } from './host.js';

export const proxyHelp = `Usage: mcpkit proxy --config FILE [--to stdio|http] [--port N]
       mcpkit proxy --to http [--port N] -- COMMAND ARGS...
       mcpkit proxy --url URL --to stdio

The gateway and the bridge. With --config, every server of the config is fronted as ONE MCP
server (tools namespaced server__tool), with the config's policy applied to each call. With
a single upstream (-- COMMAND or --url), it bridges transports: a stdio server exposed over
Streamable HTTP, or an HTTP server exposed over stdio.
Questions (consent to start a command, approvals) go to the terminal on stderr. Without a
terminal (or with --to stdio, whose stdin is the protocol) they are refused: each server
not started is named with the reason, the exit code is 3 when none could start, and a
refused tool call names the config key that would allow it.

Every caller of the HTTP endpoint uses the upstream servers with the gateway's credentials.
Callers are authenticated with a bearer token (--auth-token-env, --auth-token-file) or as
the config's mcpkit.gateway.auth says (named tokens, JWTs); a non-loopback --host is refused
without that. The audit log (--audit) names each authenticated caller.

Options:
  --config FILE            servers to front (mcpServers or VS Code's servers)
  --url URL                a single HTTP upstream
  --to T                   how to serve: stdio (this process's stdin/stdout) or http (default http)
  --port N                 HTTP port (default 0: any free port, printed on stderr)
  --host ADDR              HTTP interface (default 127.0.0.1); another one needs authentication
  --allowed-host NAME      a Host header name clients use (repeatable; needed off loopback)
  --auth-token-env NAME    callers must send "Authorization: Bearer" with the token in $NAME
  --auth-token-file FILE   the same, with the token read from FILE
  --allow-unauthenticated  serve a non-loopback --host without authentication (only behind a
                           proxy that authenticates every request)
  --audit FILE             append the audit log (JSON lines) to FILE
  -y, --yes                consent to starting the config's commands without asking (a command
                           given after -- is consented to by typing it)
  -h, --help               show this help

Examples:
  mcpkit proxy --config mcp.json --port 3000
  GATEWAY_TOKEN=$(openssl rand -hex 32) mcpkit proxy --config mcp.json --host 0.0.0.0 \
    --allowed-host gateway.internal --auth-token-env GATEWAY_TOKEN --audit gateway.jsonl
  mcpkit proxy --to http --port 3000 -- npx -y @modelcontextprotocol/server-filesystem /tmp
  mcpkit proxy --url http://127.0.0.1:3000/mcp --to stdio`;

/** The token given with --auth-token-env or --auth-token-file, checked; undefined without either. */
function commandLineToken(env: string | undefined, file: string | undefined): string | undefined {
  if (env !== undefined && file !== undefined)
    throw new CliFailure('Give one of --auth-token-env and --auth-token-file', ExitCode.Usage);
  let token: string | undefined;
  let where: string;
  if (env !== undefined) {
    where = `$${env}`;
    token = process.env[env];
    if (token === undefined || token === '')
      throw new CliFailure(`--auth-token-env: the environment variable ${env} is not set`, ExitCode.Usage);
  } else if (file !== undefined) {
    where = file;
    try {
      token = readFileSync(file, 'utf8').replace(/\s+$/, '');
    } catch (e) {
      throw new CliFailure(`--auth-token-file: cannot read ${file}: ${(e as Error).message}`, ExitCode.Usage);
    }
  } else return undefined;
  const problem = tokenProblem(token);
  if (problem) throw new CliFailure(`The gateway token in ${where} must be ${problem}`, ExitCode.Usage);
  return token;
}

/** What the start line says about who may call. */
function authNote(serving: GatewayHttpOptions): string {
  if (serving.authenticate) return ' (callers must authenticate)';
  if (serving.allowUnauthenticated) return ' (unauthenticated: the proxy in front must authenticate)';
  return ' (unauthenticated: any local process may call it; see --auth-token-env)';
}

/** The HTTP serving options: interface, Host names, and who may call (config and command line). */
function httpOptions(
  values: Record<string, unknown>,
  port: number,
  config: HostConfig | undefined,
): GatewayHttpOptions {
  const token = commandLineToken(
    values['auth-token-env'] as string | undefined,
    values['auth-token-file'] as string | undefined,
  );
  const configured = config?.gateway?.auth;
  const auth: GatewayAuthConfig | undefined =
    configured || token !== undefined
      ? {
          tokens: { ...configured?.tokens, ...(token !== undefined ? { [CLI_TOKEN_NAME]: token } : {}) },
          jwt: configured?.jwt,
        }
      : undefined;
  const options: GatewayHttpOptions = { port };
  if (values.host !== undefined) options.host = values.host as string;
  const allowed = values['allowed-host'] as string[] | undefined;
  if (allowed) options.allowedHosts = allowed;
  if (auth) options.authenticate = gatewayAuthenticator(auth);
  if (values['allow-unauthenticated'] === true) {
    if (auth)
      throw new CliFailure('--allow-unauthenticated contradicts the authentication given', ExitCode.Usage);
    options.allowUnauthenticated = true;
  }
  try {
    checkGatewayBind(options);
  } catch (e) {
    throw new CliFailure((e as Error).message, ExitCode.Usage);
  }
  return options;
}

const PROXY_OPTIONS = {
  config: { type: 'string' },
  url: { type: 'string' },
  to: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'auth-token-env': { type: 'string' },
  'auth-token-file': { type: 'string' },
  'allow-unauthenticated': { type: 'boolean' },
  audit: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function proxy(argv: string[]): Promise<number> {
  const dash = argv.indexOf('--');
  const head = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: head,
      options: PROXY_OPTIONS,
      strict: true,
    }));
  } catch (e) {
    throw argumentsError(e, 'proxy', PROXY_OPTIONS);
  }
  if (values.help) {
    console.log(proxyHelp);
    return ExitCode.Ok;
  }
  const to = values.to ?? 'http';
  if (to !== 'http' && to !== 'stdio') throw new CliFailure('--to must be stdio or http', ExitCode.Usage);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliFailure('--port must be a port number', ExitCode.Usage);
  const sources = [values.config !== undefined, values.url !== undefined, command.length > 0].filter(
    Boolean,
  ).length;
  if (sources !== 1)
    throw new CliFailure('Give exactly one of --config FILE, --url URL or -- COMMAND', ExitCode.Usage);
  const httpOnly = ['host', 'allowed-host', 'auth-token-env', 'auth-token-file', 'allow-unauthenticated'];
  const misplaced = httpOnly.find((k) => (values as Record<string, unknown>)[k] !== undefined);
  if (to === 'stdio' && misplaced) throw new CliFailure(`--${misplaced} is for --to http`, ExitCode.Usage);
  const audit = values.audit === undefined ? undefined : fileAudit(values.audit);
  // Typing the command on the command line is the consent to start it; --yes extends that to a
  // config. Questions need a terminal, and never the stdin of a stdio gateway (the protocol).
  const { ui, headless } = commandUi({
    canAsk: process.stdin.isTTY === true && to !== 'stdio',
    yes: command.length > 0 || values.yes === true,
  });
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (to === 'stdio') process.stdin.once('end', () => resolve());
  });
  if (values.config !== undefined) {
    const config = await loadConfigFor(values.config);
    // Checked before any server starts: a refused bind starts nothing.
    const serving = to === 'http' ? httpOptions(values, port, config) : undefined;
    // The gateway passes MCP App views through to clients that render them.
    const host = new Host(config, {
      ui,
      clientCapabilities: appsClientCapabilities(),
      ...(audit ? { audit } : {}),
      ...cliTelemetry(),
    });
    const ready = reportStart(await host.start(), headless);
    if (ready === 0 && Object.keys(config.servers).length > 0) {
      await host.close();
      throw new CliFailure('No server of the config could start (see above)', ExitCode.Connection);
    }
    const gateway = new Gateway(host, cliTelemetry());
    if (!serving) await gateway.serveStdio();
    else {
      const running = await gateway.serveHttp(serving);
      process.stderr.write(`mcpkit gateway: ${running.url}${authNote(serving)}\n`);
    }
    await stop;
    await gateway.close();
    await host.close();
    return ExitCode.Ok;
  }
  const entry =
    values.url !== undefined ? { url: values.url } : { command: command[0]!, args: command.slice(1) };
  const serving = to === 'http' ? httpOptions(values, port, undefined) : undefined;
  const { host: hostname, ...rest } = serving ?? {};
  const running = await bridge(entry, {
    to,
    port,
    ui,
    ...rest,
    ...(hostname !== undefined ? { hostname } : {}),
    ...(audit ? { audit } : {}),
    ...cliTelemetry(),
  });
  if (running.url && serving) process.stderr.write(`mcpkit bridge: ${running.url}${authNote(serving)}\n`);
  await stop;
  await running.close();
  return ExitCode.Ok;
}
