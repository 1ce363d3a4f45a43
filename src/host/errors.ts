/**
 * The host's errors, in one place below all its sub-folders (it imports nothing): a config
 * that does not validate, refusals of calls, and the one-line rendering of any error for logs.
 */

/** One problem in a config: where it is and what was expected there. */
export interface ConfigIssue {
  /** The file, when the config came from one. */
  file: string | undefined;
  /** The server entry, when the problem is inside one. */
  server: string | undefined;
  /** The field's path inside the entry (or from the top for host settings), e.g. `args[1]`. */
  field: string;
  /** What the field should hold. */
  expected: string;
  /** What it held instead, shortened. */
  got: string | undefined;
}

/** Renders an issue as one line: `file: server "x": field "args[1]": expected ..., got ...`. */
export function formatIssue(issue: ConfigIssue): string {
  const parts: string[] = [];
  if (issue.file) parts.push(issue.file);
  if (issue.server !== undefined) parts.push(`server ${JSON.stringify(issue.server)}`);
  if (issue.field) parts.push(`field ${JSON.stringify(issue.field)}`);
  const what = `expected ${issue.expected}${issue.got === undefined ? '' : `, got ${issue.got}`}`;
  return parts.length ? `${parts.join(': ')}: ${what}` : what;
}

/**
 * A config that cannot be used. `issues` lists every problem found (not only the
 * first), each with its file, server, field and what was expected; `message` has one
 * line per issue.
 *
 * @example
 * ```ts
 * try { parseHostConfig(json, { file: 'mcp.json' }); }
 * catch (e) { if (e instanceof ConfigError) for (const i of e.issues) console.error(formatIssue(i)); }
 * ```
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(
      issues.length === 1
        ? `Invalid MCP config: ${formatIssue(issues[0]!)}`
        : `Invalid MCP config (${issues.length} problems):\n${issues.map((i) => `  - ${formatIssue(i)}`).join('\n')}`,
    );
  }
}

/** Why the host refused or could not run something. */
export type HostErrorCode =
  | 'Denied'
  | 'NotApproved'
  | 'RateLimited'
  | 'UnknownTool'
  | 'UnknownServer'
  | 'ServerUnavailable'
  | 'ConsentRefused'
  | 'ToolConflict'
  | 'Timeout'
  /** The gateway refused to serve a non-loopback address without authenticating its callers. */
  | 'Unprotected';

/**
 * A refusal or failure decided by the host (never by a server): a policy denial, an
 * approval the user did not give, a rate limit, an unknown or ambiguous tool.
 *
 * @example
 * ```ts
 * try { await host.callTool('fs__write_file', args); }
 * catch (e) { if (e instanceof HostError && e.code === 'Denied') console.error(e.message); }
 * ```
 */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: HostErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A one-line, bounded rendering of an error for the log. */
export function errorText(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.length > 500 ? m.slice(0, 500) + '…' : m;
}
