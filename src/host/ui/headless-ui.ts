/**
 * The UI of a host that has no one to ask (no terminal, a stdio gateway whose stdin is the
 * protocol, a service): questions of consent are refused, and each refusal says why and
 * which flag or config key would allow it, instead of leaving a silently empty catalog.
 */
import type { CommandConsentRequest, HostUi, ToolApproval, ToolApprovalRequest } from './ui.js';

/** A local server that was not started, and why. */
export interface NotStarted {
  server: string;
  commandLine: string;
  reason: string;
}

/**
 * Refuses command consent and tool approval (the questions that need a person), and
 * passes every other question to `base` (whose safe defaults refuse when it cannot ask).
 *
 * @example
 * ```ts
 * const ui = new HeadlessUi(new TerminalUi(), 'pass --yes to consent to the config\'s commands');
 * const host = new Host(config, { ui });
 * await host.start();
 * for (const s of ui.notStarted) console.error(`${s.server}: ${s.reason}`);
 * ```
 */
export class HeadlessUi implements HostUi {
  /** Every local server refused so far. */
  readonly notStarted: NotStarted[] = [];

  constructor(
    private readonly base: HostUi,
    /** What would allow starting commands (a flag, a setting), said in each refusal. */
    private readonly howToConsent: string,
  ) {}

  confirmCommand(r: CommandConsentRequest): Promise<boolean> {
    this.notStarted.push({
      server: r.server,
      commandLine: r.commandLine,
      reason: `consent to run its command cannot be asked (no terminal); ${this.howToConsent}`,
    });
    return Promise.resolve(false);
  }

  approveTool(): Promise<ToolApproval> {
    return Promise.resolve('deny');
  }

  /** Why a question was refused: names the config key that would allow the call. */
  explainRefusal(r: ToolApprovalRequest): string {
    const what = `${JSON.stringify(r.tool)} on ${JSON.stringify(r.server)}`;
    if (r.reason !== 'policy') {
      return (
        `Cannot ask for approval of ${what} (no terminal): its definition is ${r.reason === 'new-tool' ? 'new' : r.reason}; ` +
        'approve it once from a terminal (mcpkit host) so its pin is stored'
      );
    }
    const key =
      r.tool.startsWith('resource:') || r.tool.startsWith('prompt:')
        ? `mcpServers.${r.server}.policy.reads`
        : `mcpServers.${r.server}.policy.tools.${r.tool}`;
    return `Cannot ask for approval of ${what} (no terminal); set ${key} to "allow" in the config to allow it`;
  }

  reviewSampling: HostUi['reviewSampling'] = (r, s) => this.base.reviewSampling(r, s);
  reviewSamplingResult: HostUi['reviewSamplingResult'] = (r, s) => this.base.reviewSamplingResult(r, s);
  elicitForm: HostUi['elicitForm'] = (r, s) => this.base.elicitForm(r, s);
  confirmUrl: HostUi['confirmUrl'] = (r, s) => this.base.confirmUrl(r, s);
  typeCompletion: HostUi['typeCompletion'] = (r, s) => this.base.typeCompletion(r, s);
}
