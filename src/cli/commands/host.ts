import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { Agent, ConfigError, Host, InteractiveProvider } from '../../host/index.js';
import { loadHostConfig } from '../../host/node.js';
import type { HostConfig } from '../../host/index.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { argumentsError } from '../parse-error.js';
import { commandUi, reportStart } from '../headless.js';
import { palette } from '../format.js';
import { defaultConfigPaths } from '../server-config.js';
import { cliTelemetry } from '../otel-wanted.js';

export const hostHelp = `Usage: mcpkit host [--config FILE] [--model NAME] [--yes]

Runs the mcpkit host over every server in a config file (mcpServers, or VS Code's servers):
it asks consent before starting a local command, shows the aggregated catalog, and then
runs an agent loop: type a message, the model picks tools, the policy is checked (you
approve in the terminal), the tools run and the results go back to the model.

The model comes from the config's "llm" section (OpenAI-compatible or Anthropic, keys from
the environment); without one, the interactive provider is used: you type the model's
answers yourself, so no network or key is needed.

Options:
  --config FILE   the config (default: .mcp.json, mcp.json, .vscode/mcp.json, Cursor, Claude Desktop)
  --model NAME    the model to use from the config
  -y, --yes       consent to starting the config's commands without asking (without a
                  terminal, questions are refused and the servers not started are named)
  -h, --help      show this help

Examples:
  mcpkit host --config mcp.json
  mcpkit host --config ~/.cursor/mcp.json --model gpt-4.1`;

/**
 * Loads a host config: its validation issues become one usage error (a line per problem),
 * and its warnings (unknown fields, with a "did you mean") are printed on stderr.
 */
export async function loadConfigFor(path: string | undefined): Promise<HostConfig> {
  const file = path ?? defaultConfigPaths().find((f) => existsSync(f));
  if (!file) throw new CliFailure('No MCP config file found; pass --config FILE', ExitCode.Usage);
  let config: HostConfig;
  try {
    config = await loadHostConfig(file, { env: process.env });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliFailure(e.message, ExitCode.Usage);
    throw new CliFailure(`${file}: ${(e as Error).message}`, ExitCode.Usage);
  }
  for (const warning of config.warnings) process.stderr.write(`mcpkit: warning: ${warning}\n`);
  return config;
}

const OPTIONS = {
  config: { type: 'string' },
  model: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function host(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: OPTIONS,
      strict: true,
    }));
  } catch (e) {
    throw argumentsError(e, 'host', OPTIONS);
  }
  if (values.help) {
    console.log(hostHelp);
    return ExitCode.Ok;
  }
  const config = await loadConfigFor(values.config);
  const p = palette(process.stderr);
  const { ui, headless, terminal } = commandUi({
    canAsk: process.stdin.isTTY === true,
    yes: values.yes === true,
  });
  // A config without models (no "llm" section, or an empty one) gets the interactive provider.
  const configured = config.llm.models.length > 0;
  if (!configured)
    process.stderr.write(
      p.dim('No "llm" models in the config: you type the model\'s answers (the interactive provider).\n'),
    );
  const h = new Host(
    config,
    configured
      ? { ui, ...cliTelemetry() }
      : { ui, llm: { provider: new InteractiveProvider(ui), model: 'you' }, ...cliTelemetry() },
  );
  h.on('health', (s) => process.stderr.write(p.dim(`[${s.name}] ${s.state}\n`)));
  try {
    const ready = reportStart(await h.start(), headless);
    if (ready === 0 && Object.keys(config.servers).length > 0)
      throw new CliFailure('No server of the config could start (see above)', ExitCode.Connection);
    const tools = h.catalog.usableTools();
    console.log(`${tools.length} tools from ${new Set(tools.map((t) => t.server)).size} servers:`);
    for (const t of tools)
      console.log(`  ${t.alias}  ${p.dim(String(t.definition.description ?? '').slice(0, 80))}`);
    const agent = new Agent(h, {
      ...(values.model ? { model: values.model } : {}),
      ...cliTelemetry(),
      onStep: (s) => {
        if (s.type === 'assistant') {
          for (const c of s.toolCalls)
            process.stderr.write(p.yellow(`→ ${c.name} ${JSON.stringify(c.input)}\n`));
        }
        if (s.type === 'task')
          process.stderr.write(
            p.cyan(`… ${s.name} [task ${s.status}]${s.statusMessage ? ` ${s.statusMessage}` : ''}\n`),
          );
        if (s.type === 'tool')
          process.stderr.write(p.dim(`← ${s.name}: ${s.ok ? 'ok' : 'refused or failed'}\n`));
      },
    });
    // The messages are read by the same reader as the questions, so a piped script feeds
    // both in order, and the end of the input ends the loop.
    try {
      for (;;) {
        const line = await terminal.readLine(p.green('you> '));
        if (line === undefined) break;
        if (line.trim() === '') continue;
        if (line.trim() === 'exit' || line.trim() === 'quit') break;
        try {
          const { text } = await agent.run(line);
          console.log(text);
        } catch (e) {
          console.error(p.red((e as Error).message));
        }
      }
    } finally {
      terminal.close();
    }
    return ExitCode.Ok;
  } finally {
    await h.close();
  }
}
