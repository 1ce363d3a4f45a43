import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '../../client/index.js';
import type { EraPreference } from '../../client/index.js';
import { StdioClientTransport } from '../../transports/stdio/index.js';
import { CliFailure, ExitCode } from '../exit-codes.js';

export const demoHelp = `Usage: mcpkit demo [--era auto|legacy|modern]

The end-to-end demo that "npm start" runs: it starts the demo "everything" server as a
child process over stdio, connects a client in each protocol era, shows the catalog, calls
tools with progress, reads a resource, gets a prompt, answers an elicitation and a sampling
request with scripted answers, and exits. No network, no API keys.

Options:
  --era ERA   run one era only (auto probes server/discover and falls back to initialize)
  -h, --help  show this help

Examples:
  mcpkit demo
  mcpkit demo --era legacy`;

const tty = process.stdout.isTTY === true;
const paint = (code: string) => (s: string) => (tty ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = paint('1');
const dim = paint('2');
const green = paint('32');
const cyan = paint('36');
const yellow = paint('33');

function heading(text: string): void {
  console.log(`\n${bold(cyan('▸ ' + text))}`);
}

function textOf(result: { content?: Array<{ type: string; text?: string }> }): string {
  return (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : `[${c.type}]`))
    .join(' ')
    .trim();
}

function bar(progress: number, total: number): string {
  const width = 24;
  const filled = Math.round((progress / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progress}/${total}`;
}

async function runEra(era: EraPreference): Promise<void> {
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  const client = new Client(
    { name: 'mcpkit-demo', version: '0.1.0' },
    {
      era,
      handlers: {
        elicitation: {
          handler: async (params) => {
            console.log(`  ${yellow('server asks the user:')} ${String(params.message)}`);
            const answer = { username: 'ada', email: 'ada@example.com' };
            console.log(`  ${yellow('scripted answer:')} ${JSON.stringify(answer)}`);
            return { action: 'accept', content: answer };
          },
        },
        sampling: {
          handler: async (params) => {
            const first = params.messages[0]?.content as { type: string; text?: string } | undefined;
            console.log(`  ${yellow('server asks the model:')} ${first?.text ?? '(non-text)'}`);
            return {
              role: 'assistant',
              content: { type: 'text', text: 'A scripted model says: the sky is blue.' },
              model: 'scripted-demo-model',
              stopReason: 'endTurn',
            };
          },
        },
      },
    },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, 'demo-server', '--stdio'],
    stderr: 'ignore',
  });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new CliFailure(`Could not start the demo server: ${(e as Error).message}`, ExitCode.Connection);
  }
  try {
    heading(`Connected (era option "${era}")`);
    console.log(
      `  server ${bold(String(client.serverInfo?.name))} ${client.serverInfo?.version ?? ''}, ` +
        `protocol ${green(String(client.protocolVersion))} (${client.era} era)`,
    );

    heading('Catalog');
    const tools = [];
    for await (const t of client.tools()) tools.push(t.name);
    const resources = [];
    for await (const r of client.resources()) resources.push(r.uri);
    const prompts = [];
    for await (const p of client.prompts()) prompts.push(p.name);
    console.log(`  ${tools.length} tools: ${dim(tools.join(', '))}`);
    console.log(`  ${resources.length} resources: ${dim(resources.join(', '))}`);
    console.log(`  ${prompts.length} prompts: ${dim(prompts.join(', '))}`);

    heading('Call add {a: 2, b: 3} (structured output)');
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    console.log(`  ${textOf(sum)}  structuredContent=${JSON.stringify(sum.structuredContent)}`);

    heading('Call slow_count {n: 5} with progress');
    const counted = await client.callTool(
      { name: 'slow_count', arguments: { n: 5 } },
      {
        onprogress: (p) => console.log(`  ${bar(p.progress, p.total ?? 5)} ${dim(p.message ?? '')}`),
      },
    );
    console.log(`  ${textOf(counted)}`);

    heading('Read test://static-text');
    const read = await client.readResource({ uri: 'test://static-text' });
    const first = read.contents[0] as { text?: string } | undefined;
    console.log(`  ${first?.text ?? '(binary)'}`);

    heading('Get prompt test_prompt_with_arguments');
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'first', arg2: 'second' },
    });
    for (const m of prompt.messages) {
      const c = m.content as { type: string; text?: string };
      console.log(`  ${m.role}: ${c.type === 'text' ? c.text : `[${c.type}]`}`);
    }

    heading('Call test_elicitation (the server asks the user)');
    const elicited = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    });
    console.log(`  ${textOf(elicited)}`);

    heading('Call test_sampling (the server asks the model)');
    const sampled = await client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'What colour is the sky?' },
    });
    console.log(`  ${textOf(sampled)}`);

    heading('A bad call: test_error_handling');
    const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
    console.log(`  isError=${String(failed.isError)}: ${textOf(failed)}`);
  } finally {
    await client.close();
  }
}

export async function demo(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { era: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (e) {
    throw new CliFailure(`${(e as Error).message}. See: mcpkit demo --help`, ExitCode.Usage);
  }
  if (values.help) {
    console.log(demoHelp);
    return ExitCode.Ok;
  }
  const eras: EraPreference[] =
    values.era === undefined ? ['modern', 'legacy'] : [values.era as EraPreference];
  for (const era of eras) {
    if (era !== 'auto' && era !== 'legacy' && era !== 'modern') {
      throw new CliFailure(`--era must be auto, legacy or modern, not "${era}"`, ExitCode.Usage);
    }
  }
  console.log(bold('mcpkit demo: a client and the demo "everything" server, over stdio'));
  for (const era of eras) await runEra(era);
  console.log(
    `\n${green('Done.')} Both eras served by the same handlers; the server process was shut down cleanly.`,
  );
  return ExitCode.Ok;
}
