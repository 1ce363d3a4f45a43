/**
 * The audit log: one JSON object per line for every call the host makes or refuses, and
 * every consent asked for. Who asked, what, the decision, how long it took, how it ended.
 */
import type { Principal } from '../../protocol/principal.js';

/** What an entry is about. */
export type AuditKind =
  'tool' | 'resource' | 'prompt' | 'sampling' | 'elicitation' | 'roots' | 'start' | 'tool-approval';

/** How the decision was reached. */
export type AuditDecision =
  'allowed' | 'approved' | 'approved-always' | 'denied' | 'refused' | 'rate-limited' | 'not-applicable';

/** One line of the audit log. */
export interface AuditEntry {
  /** ISO 8601 time the call started. */
  time: string;
  kind: AuditKind;
  /** Who asked: `agent`, `app`, `gateway`, or `server:<name>` for a server's own request. */
  caller: string;
  /**
   * The gateway's caller the call was made for: its principal (issuer, subject, kind; the
   * issuer is `''` for a gateway token), or `null` when it was not authenticated. Absent for
   * the host's own calls.
   */
  principal?: Principal | null;
  server: string;
  /** The tool, resource URI, prompt name; absent when not applicable. */
  target?: string;
  /** The alias the model used, when it differs from the target. */
  alias?: string;
  decision: AuditDecision;
  /** Why: the policy rule, the user's answer, the limit. */
  reason?: string;
  /** Time spent running it, in ms (approval time excluded); absent when it never ran. */
  durationMs?: number;
  outcome: 'ok' | 'error' | 'tool-error' | 'not-run';
  /** The failure, shortened. */
  error?: string;
  /** The arguments' size in bytes (the values are not logged: they may hold secrets). */
  argumentBytes?: number;
  /** The server's task id, when the tool call ran as a task. */
  taskId?: string;
}

/** Receives audit entries. */
export type AuditSink = (entry: AuditEntry) => void;

/**
 * A sink that writes JSON lines through `write` (a file stream, stderr, a collector).
 *
 * @example
 * ```ts
 * const host = new Host(config, { audit: jsonLinesAudit((line) => log.write(line)) });
 * ```
 */
export function jsonLinesAudit(write: (line: string) => void): AuditSink {
  return (entry) => write(JSON.stringify(entry) + '\n');
}

/** Collects entries in memory (tests, UIs showing recent activity); keeps the last `max`. */
export class AuditTrail {
  readonly entries: AuditEntry[] = [];
  constructor(private readonly max = 10_000) {}
  readonly sink: AuditSink = (entry) => {
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.shift();
  };
}

/** The byte length of a value's JSON, for `argumentBytes`. */
export function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  return new TextEncoder().encode(JSON.stringify(value)).length;
}
