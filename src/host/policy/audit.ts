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

/** The byte length of a value's JSON, for `argumentBytes`: counted, not encoded into a copy. */
export function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  return utf8Length(JSON.stringify(value));
}

/** The UTF-8 byte length of a string (a lone surrogate counts as U+FFFD's 3 bytes, as encoders write it). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      // A surrogate pair: 4 bytes for its 2 code units.
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2;
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}
