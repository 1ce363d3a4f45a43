import { parseArgs } from 'node:util';
import { createEverythingServer } from '../../demo/everything-server.js';
import { Host, ScriptedUi, parseHostConfig } from '../../host/index.js';
import { cliScript } from '../../inspector/package-root.js';
import { serve } from '../../transports/http-server/index.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette, progressBar } from '../format.js';

export const demoHelp = `Usage: mcpkit demo

The end-to-end demo that "npm start" runs, with no network and no API keys:
  - serves the demo "everything" server over Streamable HTTP on 127.0.0.1 (modern era),
  - starts the mcpkit host over two servers: that one, and the same demo server as a stdio
    child process (legacy era), asking consent for the exact command first,
  - shows the aggregated, namespaced catalog,
  - calls tools through the host's policy (one with progress, one that asks the user),
  - reads a resource and gets a prompt,
  - and shuts everything down, leaving no process behind.
The person's answers are scripted and printed as they are given.

Examples:
  npm start
  mcpkit demo`;

function textOf(result: { content?: ReadonlyArray<{ type: string; text?: string }> }): string {
  return (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : `[${c.type}]`))
    .join(' ')
    .trim();
}

export async function demo(argv: string[]): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      console.log(demoHelp);
      return ExitCode.Ok;
    }
  } catch (e) {
    throw new CliFailure(`${(e as Error).message}. See: mcpkit demo --help`, ExitCode.Usage);
  }
  const p = palette(process.stdout);
  const step = (title: string): void => console.log(`\n${p.bold(p.cyan('▸ ' + title))}`);
  // The published CLI (the bundle), found from the package root: a bundle chunk has no `../main.js`.
  const main = cliScript();

  console.log(
    p.bold('mcpkit demo: a host, a client per server, and two servers (stdio and Streamable HTTP)'),
  );
  const remote = await serve(createEverythingServer({ name: 'mcpkit-everything-http' }), { port: 0 });
  const config = parseHostConfig(
    {
      mcpServers: {
        local: { command: process.execPath, args: [main, 'demo-server', '--stdio'], era: 'legacy' },
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
      const answer = { username: 'ada', email: 'ada@example.org' };
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
      console.log(
        `  ${server}: ${mine.length} tools, e.g. ${mine.filter((a) => /add|slow|elicitation$/.test(a)).join(', ')}`,
      );
    }
    console.log(`  ${host.catalog.resources().length} resources, ${host.catalog.prompts().length} prompts`);

    step('local__add {a: 2, b: 3} (stdio, legacy era)');
    console.log(`  ${textOf(await host.callTool('local__add', { a: 2, b: 3 }))}`);

    step('remote__slow_count {n: 4} with progress (HTTP, modern era)');
    const counted = await host.callTool(
      'remote__slow_count',
      { n: 4 },
      { onprogress: (pr) => console.log(`  ${p.cyan(progressBar(pr.progress, pr.total, pr.message))}`) },
    );
    console.log(`  ${textOf(counted)}`);

    step('remote__test_elicitation: the server asks the user (an input_required round trip)');
    console.log(`  ${textOf(await host.callTool('remote__test_elicitation', { message: 'Who are you?' }))}`);

    step('local__test_elicitation: the same handler, as a server-to-client request (legacy)');
    console.log(`  ${textOf(await host.callTool('local__test_elicitation', { message: 'Who are you?' }))}`);

    step('Read test://static-text from "local"');
    const read = await host.readResource('local', 'test://static-text');
    console.log(`  ${(read.contents[0] as { text?: string } | undefined)?.text ?? '(binary)'}`);

    step('Get prompt test_prompt_with_arguments from "remote"');
    const prompt = await host.getPrompt(
      { server: 'remote', prompt: 'test_prompt_with_arguments' },
      { arg1: 'first', arg2: 'second' },
    );
    for (const m of prompt.messages) {
      const c = m.content as { type: string; text?: string };
      console.log(`  ${m.role}: ${c.type === 'text' ? c.text : `[${c.type}]`}`);
    }
  } finally {
    step('Shutting down');
    await host.close();
    await remote.close();
  }
  console.log(`\n${p.green('Done.')} One handler set served both eras; every server stopped cleanly.`);
  return ExitCode.Ok;
}
