import { HeadlessUi } from '../host/index.js';
import { TerminalUi } from '../host/node.js';
import type { HostUi, ServerHealth } from '../host/index.js';

/**
 * The UI of a host command: the terminal when a person can answer, otherwise one that
 * refuses every consent question and says what would allow it. `--yes` consents to
 * starting the config's commands either way.
 */
export function commandUi(options: { canAsk: boolean; yes: boolean }): {
  ui: HostUi;
  headless?: HeadlessUi;
  terminal: TerminalUi;
} {
  const terminal = new TerminalUi();
  let ui: HostUi = terminal;
  let headless: HeadlessUi | undefined;
  if (!options.canAsk) {
    headless = new HeadlessUi(
      terminal,
      "run from a terminal, or pass --yes to consent to the config's commands",
    );
    ui = headless;
  }
  if (options.yes) ui = Object.assign(Object.create(ui) as HostUi, { confirmCommand: async () => true });
  return headless ? { ui, headless, terminal } : { ui, terminal };
}

/** Says on stderr which servers did not start and why; returns how many are ready. */
export function reportStart(health: ServerHealth[], headless: HeadlessUi | undefined): number {
  const refused = new Map((headless?.notStarted ?? []).map((n) => [n.server, n]));
  let up = 0;
  for (const h of health) {
    if (h.state === 'ready') up++;
    else if (h.state === 'disabled') continue;
    else {
      const n = refused.get(h.name);
      const why = n ? `${n.reason}: ${n.commandLine}` : (h.lastError ?? h.state);
      process.stderr.write(`mcpkit: server "${h.name}" was not started: ${why}\n`);
    }
  }
  return up;
}
