import { parseArgs } from 'node:util';
import { NOTES_BOARD_URI, createNotesServer } from '../../demo/notes-server.js';
import { Host, ScriptedUi, parseHostConfig } from '../../host/index.js';
import { cliScript } from '../../inspector/package-root.js';
import { serve } from '../../serve/index.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { argumentsError } from '../parse-error.js';
import { palette, progressBar } from '../format.js';

export const demoHelp = `Usage: mcpkit demo [--stdio]

The end-to-end demo that "npm start" runs, with no network and no API keys. Its server is a
small notes service written as an application would write one (src/demo/notes-server.ts):
tools with schemas and structured output, progress, a question to the user before a delete,
a task, an MCP App view, a resource template and a prompt. The demo
  - serves it over Streamable HTTP on 127.0.0.1 (modern era),
  - starts the mcpkit host over two servers: that one, and the same server as a stdio
    child process (legacy era), asking consent for the exact command first,
  - shows the aggregated, namespaced catalog,
  - calls tools through the host's policy: a search, an import with progress, a delete the
    user confirms, a digest that runs as a task, the app's tool and its view,
  - reads a resource and gets a prompt,
  - and shuts everything down, leaving no process behind.
The person's answers are scripted and printed as they are given.

Options:
  --stdio     serve the demo's notes server over stdin/stdout instead (what the demo
              starts as its stdio server; point any MCP host at it)
  -h, --help  show this help

"mcpkit demo-server" is another server: the "everything" server of the conformance suite.

Examples:
  npm start
  mcpkit demo
  mcpkit inspect -- mcpkit demo --stdio`;

function textOf(result: { content?: ReadonlyArray<{ type: string; text?: string }> }): string {
  return (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : `[${c.type}]`))
    .join(' ')
    .trim();
}

const OPTIONS = { stdio: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export async function demo(argv: string[]): Promise<number> {
  let stdio: boolean | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: OPTIONS,
      strict: true,
    });
    if (values.help) {
      console.log(demoHelp);
      return ExitCode.Ok;
    }
    stdio = values.stdio;
  } catch (e) {
    throw argumentsError(e, 'demo', OPTIONS);
  }
  if (stdio) return serveStdio();
  const p = palette(process.stdout);
  const step = (title: string): void => console.log(`\n${p.bold(p.cyan('▸ ' + title))}`);
  // The published CLI (the bundle), found from the package root: a bundle chunk has no `../main.js`.
  const main = cliScript();

  console.log(p.bold('mcpkit demo: a notes server, twice (stdio and Streamable HTTP), and a host over both'));
  const remote = await serve(createNotesServer(), { port: 0 });
  const config = parseHostConfig(
    {
      mcpServers: {
        local: { command: process.execPath, args: [main, 'demo', '--stdio'], era: 'legacy' },
        remote: { url: remote.url, era: 'modern' },
      },
    },
    { file: '(demo config)' },
  );
  const ui = new ScriptedUi({
    confirmCommand: (r) => {
      console.log(`  ${p.yellow('consent:')} start "${r.server}": ${p.dim(r.commandLine)} → yes`);
      return true;
    },
    approveTool: (r) => {
      console.log(
        `  ${p.yellow('approve:')} ${r.server}/${r.tool} ${p.dim(JSON.stringify(r.arguments ?? {}))} → once`,
      );
      return 'once';
    },
    elicitForm: (r) => {
      const answer = { confirm: true };
      console.log(`  ${p.yellow('the user is asked:')} "${r.message}" → ${JSON.stringify(answer)}`);
      return { action: 'accept', content: answer };
    },
  });
  const host = new Host(config, { ui, clientInfo: { name: 'mcpkit-demo-host', version: '0.1.0' } });
  host.on('health', (h) => console.log(`  ${p.dim(`[health] ${h.name}: ${h.state}`)}`));
  try {
    step('Starting the host');
    const health = await host.start();
    for (const h of health) {
      if (h.state !== 'ready')
        throw new CliFailure(`Server ${h.name} did not start: ${h.state}`, ExitCode.Connection);
    }

    step('The aggregated catalog (names are namespaced by server)');
    const tools = host.catalog.usableTools();
    for (const server of ['local', 'remote']) {
      const mine = tools.filter((t) => t.server === server).map((t) => t.alias);
      console.log(`  ${server}: ${mine.join(', ')}`);
    }
    console.log(`  ${host.catalog.resources().length} resources, ${host.catalog.prompts().length} prompts`);

    step('local__search_notes {query: "trip"} (stdio, legacy era): text and structured content');
    const found = await host.callTool('local__search_notes', { query: 'trip' });
    console.log(`  ${textOf(found)}`);
    console.log(`  ${p.dim(`structured: ${JSON.stringify(found.structuredContent)}`)}`);

    step('remote__import_notes {count: 3} with progress (HTTP, modern era)');
    const imported = await host.callTool(
      'remote__import_notes',
      { count: 3 },
      { onprogress: (pr) => console.log(`  ${p.cyan(progressBar(pr.progress, pr.total, pr.message))}`) },
    );
    console.log(`  ${textOf(imported)}`);

    step('remote__delete_note {id: "n1"}: the server asks the user first (an input_required round trip)');
    console.log(`  ${textOf(await host.callTool('remote__delete_note', { id: 'n1' }))}`);

    step('local__weekly_digest as a task: the host polls it and shows its status');
    const digest = await host.callTool(
      'local__weekly_digest',
      {},
      {
        asTask: true,
        onTaskStatus: (t) =>
          console.log(`  ${p.dim(`[task] ${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}`)}`),
      },
    );
    console.log(`  ${textOf(digest).replace(/\n/g, '\n  ')}`);

    step('remote__show_board: an MCP App (its view is a ui:// resource a host renders)');
    const board = await host.callTool('remote__show_board', {});
    console.log(`  ${textOf(board).replace(/\n/g, '\n  ')}`);
    const view = await host.readResource('remote', NOTES_BOARD_URI);
    const html = (view.contents[0] as { text?: string; mimeType?: string } | undefined) ?? {};
    console.log(
      `  ${p.dim(`${NOTES_BOARD_URI}: ${html.mimeType ?? '?'}, ${html.text?.length ?? 0} characters; "mcpkit inspect -- mcpkit demo --stdio" renders it`)}`,
    );

    step('Read notes://n2 from "local"');
    const read = await host.readResource('local', 'notes://n2');
    console.log(
      `  ${((read.contents[0] as { text?: string } | undefined)?.text ?? '').replace(/\n/g, '\n  ')}`,
    );

    step('Get prompt plan_from_note {id: "n3"} from "remote"');
    const prompt = await host.getPrompt({ server: 'remote', prompt: 'plan_from_note' }, { id: 'n3' });
    for (const m of prompt.messages) {
      const c = m.content as { type: string; text?: string };
      console.log(
        `  ${m.role}: ${(c.type === 'text' ? (c.text ?? '') : `[${c.type}]`).replace(/\n/g, '\n  ')}`,
      );
    }
  } finally {
    step('Shutting down');
    await host.close();
    await remote.close();
  }
  console.log(
    `\n${p.green('Done.')} One server, written once, served both eras; every server stopped cleanly.`,
  );
  return ExitCode.Ok;
}

/** `mcpkit demo --stdio`: the demo's notes server on stdin/stdout, until the client leaves. */
async function serveStdio(): Promise<number> {
  const { StdioServerTransport } = await import('../../transports/stdio/index.js');
  const session = await createNotesServer().connect(new StdioServerTransport());
  console.error('mcpkit demo notes server ready on stdio');
  await new Promise<void>((resolve) => {
    session.onclose = () => resolve();
  });
  return ExitCode.Ok;
}
