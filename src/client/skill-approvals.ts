/**
 * Content-bound skill approval (skills extension, Security Considerations): a user's
 * approval of a skill is bound to the pair (host-assigned server label, SKILL.md URI) and to
 * the exact file set of the entry approved, every `uri` with its `digest`. An entry that
 * lists any other set (a file rotated, added or removed) is not approved: the host must ask
 * again. A `"dynamic"` skill cannot be content-bound, so it is never approved here.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { SkillEntry } from './skill-entry.js';

/** Where an entry stands against the approvals: approved as is, changed since, or never approved. */
export type SkillApprovalStatus = 'approved' | 'changed' | 'unapproved';

/** The file set an approval binds to: each `uri digest` pair, sorted, one per line. */
export function skillFileSet(entry: SkillEntry): string {
  if (entry.resources === 'dynamic')
    throw new LocalError('InvalidResult', `${entry.uri} is dynamic: its approval cannot be bound to content`);
  return entry.resources
    .map((r) => `${r.uri} ${r.digest}`)
    .sort()
    .join('\n');
}

// JSON keeps the two halves apart whatever characters they hold.
const keyOf = (server: string, uri: string): string => JSON.stringify([server, uri]);

/**
 * Per-skill approvals, keyed by the host's label for the server and the skill's URI (never
 * the URI alone: two servers may both serve `skill://refunds/SKILL.md`), each bound to the
 * file set approved. Persist with {@link SkillApprovals.toJSON} and restore by passing that
 * to the constructor.
 *
 * @example
 * ```ts
 * const approvals = new SkillApprovals();
 * const [entry] = await listSkills(client);
 * approvals.approve('docs-server', entry); // after the user said yes to these files
 * const skill = await loadSkill(client, entry, { approvals, server: 'docs-server' });
 * ```
 */
export class SkillApprovals {
  private readonly bound = new Map<string, string>();

  constructor(saved?: Readonly<Record<string, string>>) {
    for (const [k, v] of Object.entries(saved ?? {})) this.bound.set(k, v);
  }

  /** Records the user's approval of `entry` from `server`, bound to its current file set. */
  approve(server: string, entry: SkillEntry): void {
    this.bound.set(keyOf(server, entry.uri), skillFileSet(entry));
  }

  /**
   * `approved` only when the entry lists exactly the files (URI and digest) approved;
   * `changed` when it was approved for another set, which revokes that approval.
   */
  status(server: string, entry: SkillEntry): SkillApprovalStatus {
    const key = keyOf(server, entry.uri);
    const approved = this.bound.get(key);
    if (approved === undefined) return 'unapproved';
    if (entry.resources !== 'dynamic' && skillFileSet(entry) === approved) return 'approved';
    this.bound.delete(key);
    return 'changed';
  }

  /** Forgets the approval of one skill, or (without `uri`) of every skill of a server. */
  revoke(server: string, uri?: string): void {
    if (uri !== undefined) this.bound.delete(keyOf(server, uri));
    else
      for (const k of [...this.bound.keys()])
        if ((JSON.parse(k) as string[])[0] === server) this.bound.delete(k);
  }

  /** The approvals as plain JSON, for storage. */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.bound);
  }
}
