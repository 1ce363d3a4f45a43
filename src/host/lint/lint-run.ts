/**
 * One lint run over a connected client, shared by `mcpkit lint` and the inspector's Lint
 * view: readiness (listing every page), portability per host family, the optional probe,
 * and the Server Card and `server.json` checks when there is one to check.
 */
import type { Client } from '../../client/client.js';
import { LocalError } from '../../jsonrpc/index.js';
import { HOSTS } from './finding.js';
import type { HostFamily, LintFinding } from './finding.js';
import { hostFindings } from './host-rules.js';
import type { LintedTool } from './host-rules.js';
import { probeTools, readiness } from './readiness.js';
import type { Inventory } from './readiness.js';

/** The counts a lint run ends with. */
export interface LintSummary {
  tools: number;
  resources: number;
  templates: number;
  prompts: number;
  pages: Record<string, number>;
  errors: number;
  warnings: number;
  infos: number;
}

/** Options of {@link lintClient}. */
export interface LintOptions {
  /** The host families to check (default all). */
  hosts?: readonly HostFamily[];
  /** Also call each read-only tool that needs no arguments, once. */
  probe?: boolean;
}

/** Lists everything the client's server offers and checks it; findings are not yet sorted. */
export async function lintClient(
  client: Client,
  options: LintOptions = {},
): Promise<{ findings: LintFinding[]; inventory: Inventory }> {
  const findings: LintFinding[] = [];
  const inventory = await readiness(client, findings);
  if (options.probe === true) await probeTools(client, inventory.tools, findings);
  findings.push(...hostFindings(inventory.tools as unknown as LintedTool[], options.hosts ?? HOSTS));
  return { findings, inventory };
}

const ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Errors first, then warnings, then infos; by subject and rule within each. */
export function sortFindings(findings: LintFinding[]): LintFinding[] {
  return findings.sort(
    (a, b) =>
      ORDER[a.severity] - ORDER[b.severity] ||
      a.subject.localeCompare(b.subject) ||
      a.rule.localeCompare(b.rule),
  );
}

export function lintSummary(findings: readonly LintFinding[], inv: Inventory): LintSummary {
  const count = (s: LintFinding['severity']): number => findings.filter((f) => f.severity === s).length;
  return {
    tools: inv.tools.length,
    resources: inv.resources,
    templates: inv.templates,
    prompts: inv.prompts,
    pages: inv.pages,
    errors: count('error'),
    warnings: count('warning'),
    infos: count('info'),
  };
}

/** The card at `<url>/server-card`: absent is fine (info), present and malformed is an error. */
export async function checkServerCard(url: string, out: LintFinding[], signal?: AbortSignal): Promise<void> {
  // Loaded on first use: most runs have no card to read.
  const { fetchServerCard, serverCardUrl } = await import('../../client/index.js');
  try {
    await fetchServerCard(serverCardUrl(url), { timeoutMs: 5000, ...(signal ? { signal } : {}) });
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

/**
 * A `server.json` (its text) checked as `mcpkit server-json validate` would, with the
 * `package.json` beside it when there is one (its version and name are compared).
 */
export async function checkServerJson(
  text: string,
  packageJson: string | undefined,
  out: LintFinding[],
): Promise<void> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    out.push({
      severity: 'error',
      rule: 'server-json/parse',
      subject: 'server.json',
      message: (e as Error).message,
    });
    return;
  }
  let pkg: Record<string, unknown> | undefined;
  try {
    pkg = packageJson !== undefined ? (JSON.parse(packageJson) as Record<string, unknown>) : undefined;
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
