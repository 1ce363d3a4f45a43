/**
 * Consent before the CLI starts a command it read from a config file. Config files travel
 * with repositories (a cloned project's `.mcp.json`), so a command named there is someone
 * else's until the person at the terminal says it may run; a command typed after `--` is
 * theirs already, and `--yes` is consent given in advance.
 */
import type { StdioServerConfig } from '../host/config/config-types.js';
import { describeCommand } from '../host/policy/command-consent.js';
import { TerminalUi } from '../host/ui/terminal-ui.js';
import { CliFailure, ExitCode } from './exit-codes.js';

/** The parts of a stdio server that decide what runs. */
export type CommandToStart = Pick<StdioServerConfig, 'name' | 'command' | 'args' | 'env' | 'cwd'>;

/**
 * Asks, on a terminal, before each command runs; without one, refuses unless `yes`.
 * Throws a {@link CliFailure} (exit 2) naming the command and `--yes` when it may not run.
 */
export async function consentToCommands(
  commands: readonly CommandToStart[],
  source: string,
  yes: boolean,
  canAsk: boolean = process.stdin.isTTY === true,
): Promise<void> {
  if (yes || commands.length === 0) return;
  const described = commands.map((c) => describeCommand(c));
  if (!canAsk) {
    const lines = described.map((d) => `  ${d.server}: ${d.commandLine}`).join('\n');
    throw new CliFailure(
      `${source} asks to start ${described.length === 1 ? 'this command' : 'these commands'}:\n${lines}\n` +
        'Nothing was started: there is no terminal to ask. Pass --yes to consent to running them.',
      ExitCode.Usage,
    );
  }
  const ui = new TerminalUi();
  try {
    for (const d of described) {
      if (!(await ui.confirmCommand(d)))
        throw new CliFailure(`Starting ${d.commandLine} was not allowed`, ExitCode.Usage);
    }
  } finally {
    ui.close();
  }
}
