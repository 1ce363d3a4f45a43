/** One thing `mcpkit lint` found. */
export interface LintFinding {
  /** `error` fails the run (exit code 1); `warning` and `info` do not. */
  severity: 'error' | 'warning' | 'info';
  /** A stable rule id, such as `openai/name` or `readiness/tool-description`. */
  rule: string;
  /** What it is about: `tool:NAME`, `server`, `server.json`, `server-card`. */
  subject: string;
  message: string;
}

/** The host families `--host` chooses between. */
export const HOSTS = ['claude', 'openai', 'gemini', 'cursor'] as const;
export type HostFamily = (typeof HOSTS)[number];
