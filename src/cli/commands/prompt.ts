import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { ErrorCode, WireError } from '../../jsonrpc/index.js';
import { suggestion } from '../suggest.js';
import { printContent } from './print-content.js';

export const promptHelp = `Usage: mcpkit prompt NAME [key=value ...] <target>

Gets a prompt with its arguments and prints its messages.

${TARGET_HELP}

Examples:
  mcpkit prompt test_prompt_with_arguments arg1=a arg2=b --url http://127.0.0.1:3000/mcp`;

export async function prompt(argv: string[]): Promise<number> {
  const { global, positionals, help } = parseCommand(argv, {}, 'mcpkit prompt NAME [key=value ...] <target>');
  if (help) {
    console.log(promptHelp);
    return ExitCode.Ok;
  }
  const [name, ...words] = positionals;
  if (!name)
    throw new CliFailure('Which prompt? Usage: mcpkit prompt NAME [key=value ...] <target>', ExitCode.Usage);
  const args: Record<string, string> = {};
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq <= 0) throw new CliFailure(`Argument "${w}" is not key=value`, ExitCode.Usage);
    args[w.slice(0, eq)] = w.slice(eq + 1);
  }
  const client = await openClient(global);
  try {
    let result;
    try {
      result = await client.getPrompt({ name, arguments: args });
    } catch (e) {
      // The server refused the name or the arguments: the command line was wrong (exit 2).
      if (!(e instanceof WireError) || e.code !== ErrorCode.InvalidParams) throw e;
      const names: string[] = [];
      for await (const p of client.prompts()) names.push(p.name);
      const hint = names.includes(name) ? '' : suggestion(name, names);
      throw new CliFailure(`${e.message}${hint}`, ExitCode.Usage);
    }
    if (global.json) console.log(JSON.stringify(result, null, 2));
    else
      for (const m of result.messages) {
        process.stdout.write(`${m.role}: `);
        printContent([m.content as unknown as Record<string, unknown>]);
      }
    return ExitCode.Ok;
  } finally {
    await client.close();
  }
}
