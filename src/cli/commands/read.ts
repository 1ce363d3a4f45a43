import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { printContent } from './print-content.js';

export const readHelp = `Usage: mcpkit read URI <target>

Reads a resource (fixed or from a template) and prints its contents.

${TARGET_HELP}

Examples:
  mcpkit read test://static-text --url http://127.0.0.1:3000/mcp
  mcpkit read test://template/42/data --json -- node server.js`;

export async function read(argv: string[]): Promise<number> {
  const { global, positionals, help } = parseCommand(argv, {}, 'mcpkit read URI <target>');
  if (help) {
    console.log(readHelp);
    return ExitCode.Ok;
  }
  const uri = positionals[0];
  if (!uri) throw new CliFailure('Which resource? Usage: mcpkit read URI <target>', ExitCode.Usage);
  const client = await openClient(global);
  try {
    const result = await client.readResource({ uri });
    if (global.json) console.log(JSON.stringify(result, null, 2));
    else printContent(result.contents.map((c) => ({ type: 'resource', resource: c })));
    return ExitCode.Ok;
  } finally {
    await client.close();
  }
}
