import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalError } from '../../jsonrpc/index.js';
import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette } from '../format.js';
import { HOSTS } from '../lint/finding.js';
import type { HostFamily, LintFinding } from '../lint/finding.js';
import { hostFindings } from '../lint/host-rules.js';
import type { LintedTool } from '../lint/host-rules.js';
import { probeTools, readiness } from '../lint/readiness.js';
import type { Inventory } from '../lint/readiness.js';

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
  const findings: LintFinding[] = [];
  const client = await openClient(global, {});
  let inv: Inventory;
  try {
    inv = await readiness(client, findings);
    if (values.probe === true) await probeTools(client, inv.tools, findings);
  } finally {
    await client.close();
  }
  findings.push(...hostFindings(inv.tools as unknown as LintedTool[], hosts));
  if (global.url !== undefined) await checkServerCard(global.url, findings);
  await checkServerJson(findings);

  const order = { error: 0, warning: 1, info: 2 } as const;
  findings.sort(
    (a, b) =>
      order[a.severity] - order[b.severity] ||
      a.subject.localeCompare(b.subject) ||
      a.rule.localeCompare(b.rule),
  );
  const count = (s: LintFinding['severity']): number => findings.filter((f) => f.severity === s).length;
  const summary = {
    tools: inv.tools.length,
    resources: inv.resources,
    templates: inv.templates,
    prompts: inv.prompts,
    pages: inv.pages,
    errors: count('error'),
    warnings: count('warning'),
    infos: count('info'),
  };
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

/** The card at `<url>/server-card`: absent is fine (info), present and malformed is an error. */
async function checkServerCard(url: string, out: LintFinding[]): Promise<void> {
  const { fetchServerCard, serverCardUrl } = await import('../../client/index.js');
  try {
    await fetchServerCard(serverCardUrl(url), { timeoutMs: 5000 });
    out.push({
      severity: 'info',
      rule: 'card/valid',
      subject: 'server-card',
      message: `${serverCardUrl(url)} is a valid Server Card`,
    });
  } catch (e) {
    if (e instanceof LocalError && e.code === 'ServerCardUnavailable')
      out.push({ severity: 'info', rule: 'card/absent', subject: 'server-card', message: e.message });
    else
      out.push({
        severity: 'error',
        rule: 'card/invalid',
        subject: 'server-card',
        message: e instanceof Error ? e.message : String(e),
      });
  }
}

/** ./server.json, checked as `mcpkit server-json validate` would. */
async function checkServerJson(out: LintFinding[]): Promise<void> {
  const file = join(process.cwd(), 'server.json');
  if (!existsSync(file)) return;
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    out.push({
      severity: 'error',
      rule: 'server-json/parse',
      subject: 'server.json',
      message: (e as Error).message,
    });
    return;
  }
  const pkgFile = join(process.cwd(), 'package.json');
  let pkg: Record<string, unknown> | undefined;
  try {
    pkg = existsSync(pkgFile)
      ? (JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, unknown>)
      : undefined;
  } catch {
    pkg = undefined;
  }
  const { validateServerJson } = await import('../registry/validate-server-json.js');
  for (const issue of await validateServerJson(doc, pkg))
    out.push({
      severity: issue.severity,
      rule: `server-json/${issue.source}`,
      subject: 'server.json',
      message: `${issue.pointer || '/'}: ${issue.message}`,
    });
}
