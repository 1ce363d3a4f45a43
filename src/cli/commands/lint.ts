import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette } from '../format.js';
import { HOSTS } from '../../host/lint/finding.js';
import type { HostFamily, LintFinding } from '../../host/lint/finding.js';
import {
  checkServerCard,
  checkServerJson,
  lintClient,
  lintSummary,
  sortFindings,
} from '../../host/lint/lint-run.js';
import type { Inventory } from '../../host/lint/readiness.js';

export const lintHelp = `Usage: mcpkit lint [--host claude|openai|gemini|cursor|all] [--probe] <target>

Connects, lists every tool, resource, template and prompt (following every cursor), and
reports findings with a severity:
  - portability of each tool's name and input schema to a host family's function
    calling (OpenAI, Gemini, Claude) and Cursor's tool budget
  - readiness: descriptions, property descriptions, annotations, titles, output
    schemas, capabilities declared but unused, pagination without duplicates or loops
  - the server's Server Card (for --url) and ./server.json, when present
Exit code 1 when any finding is an error.

Options:
  --host H    the host families to check (default all)
  --probe     also call each read-only tool that needs no arguments, once: flags
              structuredContent without an outputSchema, and calls over 5 s

With --json: {findings: [{severity, rule, subject, message}], summary: {tools, resources,
templates, prompts, pages, errors, warnings, infos}}.

${TARGET_HELP}

Examples:
  mcpkit lint -- node server.js
  mcpkit lint --host openai --json --url http://127.0.0.1:3000/mcp`;

export async function lint(argv: string[]): Promise<number> {
  const { global, values, help } = parseCommand(
    argv,
    { host: { type: 'string' }, probe: { type: 'boolean' } },
    'mcpkit lint <target>',
  );
  if (help) {
    console.log(lintHelp);
    return ExitCode.Ok;
  }
  const host = (values.host as string | undefined) ?? 'all';
  if (host !== 'all' && !(HOSTS as readonly string[]).includes(host))
    throw new CliFailure(
      `--host must be claude, openai, gemini, cursor or all, not "${host}"`,
      ExitCode.Usage,
    );
  const hosts: readonly HostFamily[] = host === 'all' ? HOSTS : [host as HostFamily];
  let findings: LintFinding[];
  let inv: Inventory;
  const client = await openClient(global, {});
  try {
    ({ findings, inventory: inv } = await lintClient(client, { hosts, probe: values.probe === true }));
  } finally {
    await client.close();
  }
  if (global.url !== undefined) await checkServerCard(global.url, findings);
  const file = join(process.cwd(), 'server.json');
  if (existsSync(file)) {
    const pkgFile = join(process.cwd(), 'package.json');
    await checkServerJson(
      readFileSync(file, 'utf8'),
      existsSync(pkgFile) ? readFileSync(pkgFile, 'utf8') : undefined,
      findings,
    );
  }
  sortFindings(findings);
  const summary = lintSummary(findings, inv);
  if (global.json) console.log(JSON.stringify({ findings, summary }, null, 2));
  else {
    const p = palette(process.stdout);
    for (const f of findings) {
      const tag =
        f.severity === 'error'
          ? p.red('error  ')
          : f.severity === 'warning'
            ? p.yellow('warning')
            : p.dim('info   ');
      console.log(`${tag} ${f.subject} ${p.dim(f.rule)}: ${f.message}`);
    }
    console.log(
      `${summary.tools} tools, ${summary.resources} resources, ${summary.templates} templates, ${summary.prompts} prompts; ` +
        `${summary.errors} errors, ${summary.warnings} warnings, ${summary.infos} infos`,
    );
  }
  return summary.errors > 0 ? ExitCode.ToolError : ExitCode.Ok;
}
