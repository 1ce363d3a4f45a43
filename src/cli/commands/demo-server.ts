import { parseArgs } from 'node:util';
import { createEverythingServer } from '../../demo/everything-server.js';
import { StdioServerTransport } from '../../transports/stdio/index.js';
import { CliFailure, ExitCode } from '../exit-codes.js';

export const demoServerHelp = `Usage: mcpkit demo-server [--stdio]

Runs the demo "everything" server: every tool, resource, prompt and completion that the
official conformance suite calls, plus a few extras (add, echo, slow_count).

Options:
  --stdio     serve over stdin/stdout (the default)
  -h, --help  show this help

Examples:
  mcpkit demo-server --stdio
  npx @modelcontextprotocol/inspector mcpkit demo-server --stdio`;

export async function demoServer(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        stdio: { type: 'boolean' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    throw new CliFailure(`${(e as Error).message}. See: mcpkit demo-server --help`, ExitCode.Usage);
  }
  if (values.help) {
    console.log(demoServerHelp);
    return ExitCode.Ok;
  }
  if (values.port !== undefined) {
    throw new CliFailure(
      '--port needs the Streamable HTTP transport, which this build does not have yet',
      ExitCode.Usage,
    );
  }
  const server = createEverythingServer();
  const session = await server.connect(new StdioServerTransport());
  console.error('mcpkit demo server ready on stdio');
  await new Promise<void>((resolve) => {
    session.onclose = () => resolve();
  });
  return ExitCode.Ok;
}
