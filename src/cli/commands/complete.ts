import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';

export const completeHelp = `Usage: mcpkit complete (--prompt NAME | --template URI_TEMPLATE) ARGUMENT [VALUE] <target>

Asks the server to complete an argument of a prompt or a resource template.

${TARGET_HELP}

Examples:
  mcpkit complete --prompt test_prompt_with_arguments arg1 pa --url http://127.0.0.1:3000/mcp
  mcpkit complete --template 'test://template/{id}/data' id 1 -- node server.js`;

export async function complete(argv: string[]): Promise<number> {
  const { global, values, positionals, help } = parseCommand(
    argv,
    { prompt: { type: 'string' }, template: { type: 'string' } },
    'mcpkit complete (--prompt NAME | --template URI) ARGUMENT [VALUE] <target>',
  );
  if (help) {
    console.log(completeHelp);
    return ExitCode.Ok;
  }
  const [argument, value = ''] = positionals;
  if ((values.prompt === undefined) === (values.template === undefined) || !argument) {
    throw new CliFailure(
      'Usage: mcpkit complete (--prompt NAME | --template URI) ARGUMENT [VALUE] <target>',
      ExitCode.Usage,
    );
  }
  const ref =
    values.prompt !== undefined
      ? { type: 'ref/prompt' as const, name: values.prompt as string }
      : { type: 'ref/resource' as const, uri: values.template as string };
  const client = await openClient(global);
  try {
    const result = await client.complete({ ref, argument: { name: argument, value } });
    if (global.json) console.log(JSON.stringify(result, null, 2));
    else console.log(result.completion.values.join('\n') || '(no completions)');
    return ExitCode.Ok;
  } finally {
    await client.close();
  }
}
