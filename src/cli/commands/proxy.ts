import { parseArgs } from 'node:util';
import { Gateway, Host, bridge } from '../../host/index.js';
import { appsClientCapabilities } from '../../protocol/apps.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { commandUi, reportStart } from '../headless.js';
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

Options:
  --config FILE   servers to front (mcpServers or VS Code's servers)
  --url URL       a single HTTP upstream
  --to T          how to serve: stdio (this process's stdin/stdout) or http (default http)
  --port N        HTTP port on 127.0.0.1 (default 0: any free port, printed on stderr)
  -y, --yes       consent to starting the config's commands without asking (a command given
                  after -- is consented to by typing it)
  -h, --help      show this help

Examples:
  mcpkit proxy --config mcp.json --port 3000
  mcpkit proxy --to http --port 3000 -- npx -y @modelcontextprotocol/server-filesystem /tmp
  mcpkit proxy --url http://127.0.0.1:3000/mcp --to stdio`;

export async function proxy(argv: string[]): Promise<number> {
  const dash = argv.indexOf('--');
  const head = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: head,
      options: {
        config: { type: 'string' },
        url: { type: 'string' },
        to: { type: 'string' },
        port: { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    throw new CliFailure(`${(e as Error).message}. See: mcpkit proxy --help`, ExitCode.Usage);
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
    // The gateway passes MCP App views through to clients that render them.
    const host = new Host(config, { ui, clientCapabilities: appsClientCapabilities() });
    const ready = reportStart(await host.start(), headless);
    if (ready === 0 && Object.keys(config.servers).length > 0) {
      await host.close();
      throw new CliFailure('No server of the config could start (see above)', ExitCode.Connection);
    }
    const gateway = new Gateway(host);
    if (to === 'stdio') await gateway.serveStdio();
    else {
      const running = await gateway.serveHttp({ port });
      process.stderr.write(`mcpkit gateway: ${running.url}\n`);
    }
    await stop;
    await gateway.close();
    await host.close();
    return ExitCode.Ok;
  }
  const entry =
    values.url !== undefined ? { url: values.url } : { command: command[0]!, args: command.slice(1) };
  const running = await bridge(entry, { to, port, ui });
  if (running.url) process.stderr.write(`mcpkit bridge: ${running.url}\n`);
  await stop;
  await running.close();
  return ExitCode.Ok;
}
