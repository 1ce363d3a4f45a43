import { parseArgs } from 'node:util';
import { createEverythingServer } from '../../demo/everything-server.js';
import { StdioServerTransport } from '../../transports/stdio/index.js';
import { LocalError } from '../../jsonrpc/index.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { argumentsError } from '../parse-error.js';
import { cliTelemetry } from '../otel-wanted.js';

export const demoServerHelp = `Usage: mcpkit demo-server [--stdio | --port N [--host H] [--redis URL]]

Runs the demo "everything" server: every tool, resource, prompt and completion that the
official conformance suite calls, plus a few extras (add, echo, slow_count).

Options:
  --stdio     serve over stdin/stdout (the default)
  --port N    serve Streamable HTTP at http://127.0.0.1:N/mcp (both eras) and the
              legacy HTTP+SSE transport at /sse; 0 picks a free port
  --host H    interface to bind (default 127.0.0.1; others need --allow-host)
  --allow-host NAME  a Host/Origin name to accept (repeatable)
  --redis URL run as one of many nodes behind a load balancer, with the shared
              state in Redis (redis://host:port); needs the ioredis package
  -h, --help  show this help

Examples:
  mcpkit demo-server --stdio
  mcpkit demo-server --port 3000
  mcpkit demo-server --port 3001 --redis redis://127.0.0.1:6379
  npx @modelcontextprotocol/inspector mcpkit demo-server --stdio`;

const OPTIONS = {
  stdio: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  redis: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function demoServer(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: OPTIONS,
      strict: true,
    }));
  } catch (e) {
    throw argumentsError(e, 'demo-server', OPTIONS);
  }
  if (values.help) {
    console.log(demoServerHelp);
    return ExitCode.Ok;
  }
  if (values.redis !== undefined && values.port === undefined) {
    throw new CliFailure('--redis needs --port: Redis shares the state of HTTP nodes', ExitCode.Usage);
  }
  const server = createEverythingServer(cliTelemetry());
  if (values.port !== undefined) {
    if (values.stdio) throw new CliFailure('Choose one of --stdio and --port', ExitCode.Usage);
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new CliFailure(`--port must be a port number, not "${values.port}"`, ExitCode.Usage);
    }
    const allowed = values['allow-host'];
    // The HTTP server loads only for --port: a stdio start stays a small module graph.
    const { serve } = await import('../../serve/index.js');
    let running;
    try {
      running = await serve(server, {
        port,
        ...(values.host !== undefined ? { host: values.host } : {}),
        ...(allowed ? { allowedHosts: allowed } : {}),
        ...(values.redis !== undefined ? { redis: values.redis } : {}),
      });
    } catch (e) {
      if (e instanceof LocalError && e.code === 'StoreUnavailable')
        throw new CliFailure(e.message, ExitCode.Connection);
      throw e;
    }
    const shared = values.redis !== undefined ? ', state shared in Redis' : '';
    console.error(`mcpkit demo server: ${running.url} (legacy HTTP+SSE at /sse${shared})`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        // The server first: its running tasks are recorded as cancelled while the shared
        // store is still connected, and their timers no longer hold the process open.
        void server
          .close()
          .then(() => running.close())
          .then(resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return ExitCode.Ok;
  }
  const session = await server.connect(new StdioServerTransport());
  console.error('mcpkit demo server ready on stdio');
  await new Promise<void>((resolve) => {
    session.onclose = () => resolve();
  });
  return ExitCode.Ok;
}
