/**
 * The host side of the skills extension (`io.modelcontextprotocol/skills`, final text of
 * 2026-09-13): list a server's skills, and load one only when it is needed, verifying every
 * file it reads against the held entry (size, then SHA-256 digest of the raw bytes) and the
 * SKILL.md frontmatter against the entry's, field by field. Nothing is fetched ahead of
 * need: listing reads no file, loading reads SKILL.md alone. Entries are checked before use
 * (skill-entry.ts); approvals bind to file sets (skill-approvals.ts).
 */
import { LocalError } from '../jsonrpc/index.js';
import { isObject } from '../jsonrpc/is-object.js';
import { SKILLS_EXTENSION } from '../protocol/meta-keys.js';
import type { Resource } from '../protocol/types/resources.js';
import type { Client } from './client.js';
import type { SkillApprovals } from './skill-approvals.js';
import { SKILL_LIMITS, checkFileUri, checkSkillEntry } from './skill-entry.js';
import type { SkillEntry } from './skill-entry.js';
import { parseFrontmatter } from './skill-frontmatter.js';

/** A skill whose SKILL.md passed verification; the host is acting on it under `entry`. */
export interface LoadedSkill {
  /** The entry the skill was loaded from: the only files it may read. */
  entry: SkillEntry;
  /** The SKILL.md markdown after its frontmatter. */
  instructions: string;
  /**
   * Reads one of the skill's files, by URI or by path relative to the skill's root
   * (`references/GUIDE.md`), verified like SKILL.md was. A file the entry does not list is
   * refused, even when the server now serves it: refresh the entry with {@link getSkill}
   * (which needs fresh approval when the set changed).
   */
  readFile(uriOrPath: string): Promise<string>;
}

/** Options of {@link loadSkill}. */
export interface LoadSkillOptions {
  /** When given, the skill loads only if approved from `server` for exactly this file set. */
  approvals?: SkillApprovals;
  /** The host's label for the server the entry came from (not its self-reported name). */
  server?: string;
}

const enc = new TextEncoder();

function refuse(message: string): never {
  throw new LocalError('InvalidResult', `Skill verification failed: ${message}`);
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Every skill the server lists, following `nextCursor` (at most 100 pages). Each entry is
 * checked first; a malformed one throws an `InvalidResult` naming the field
 * (`skills[1].resources[0].digest ...`).
 *
 * @example
 * ```ts
 * for (const s of await listSkills(client)) console.log(s.frontmatter.name, s.frontmatter.description);
 * ```
 */
export async function listSkills(client: Client): Promise<SkillEntry[]> {
  const out: SkillEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.request('skills/list', cursor === undefined ? {} : { cursor });
    if (!Array.isArray(result.skills))
      throw new LocalError('InvalidResult', 'Invalid skills/list result: skills must be an array');
    const base = out.length;
    out.push(...result.skills.map((s: unknown, i: number) => checkSkillEntry(s, `skills[${base + i}]`)));
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined) return out;
  }
  return out;
}

/**
 * The entry of one skill by the URI of its SKILL.md, listed or not; checked like a listed one.
 *
 * @example
 * ```ts
 * const entry = await getSkill(client, 'skill://acme/billing/refunds/SKILL.md');
 * ```
 */
export async function getSkill(client: Client, uri: string): Promise<SkillEntry> {
  const result = await client.request('skills/get', { uri });
  const entry = checkSkillEntry(result.skill, 'skill');
  if (entry.uri !== uri)
    throw new LocalError('InvalidResult', `Invalid skills/get result: skill.uri is ${entry.uri}, not ${uri}`);
  return entry;
}

/** JSON with sorted keys, so equal values compare equal (depth is bounded by the entry check). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Reads one file of the held entry: listed files by size then digest; dynamic ones by place and budget. */
async function readVerified(
  client: Client,
  entry: SkillEntry,
  uri: string,
  budget: { bytes: number },
): Promise<string> {
  const root = entry.uri.slice(0, -'/SKILL.md'.length);
  const listed = entry.resources === 'dynamic' ? undefined : entry.resources.find((r) => r.uri === uri);
  if (entry.resources !== 'dynamic' && !listed)
    refuse(`${uri} is not one of the files of ${entry.uri}; refresh the entry (and its approval) to read it`);
  if (uri !== entry.uri) {
    try {
      checkFileUri(root, uri, 'the file');
    } catch (e) {
      refuse((e as Error).message);
    }
  }
  const result = await client.readResource({ uri });
  const matching = result.contents.filter((c) => c.uri === uri);
  if (matching.length !== 1) refuse(`resources/read of ${uri} returned ${matching.length} contents for it`);
  const content = matching[0]!;
  const bytes =
    'text' in content
      ? enc.encode(content.text)
      : Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
  if (listed) {
    if (bytes.length !== listed.size)
      refuse(`${uri} is ${bytes.length} bytes; its entry says ${listed.size}`);
    if ((await sha256(bytes)) !== listed.digest) refuse(`${uri} does not match its digest ${listed.digest}`);
  } else {
    // A dynamic skill has no sizes to check up front: the total limit applies to what is read.
    budget.bytes += bytes.length;
    if (budget.bytes > SKILL_LIMITS.totalBytes)
      refuse(`${entry.uri} is dynamic and its files passed the ${SKILL_LIMITS.totalBytes}-byte limit`);
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Loads a skill the host has decided to use: checks the approval (when `approvals` is
 * given), reads its SKILL.md (nothing else), verifies size and digest against the entry,
 * and compares the frontmatter field by field. Any discrepancy throws and the skill must
 * not be used. Further files are read on demand through {@link LoadedSkill.readFile}, each
 * verified against the same entry.
 *
 * @example
 * ```ts
 * const [entry] = await listSkills(client);
 * const skill = await loadSkill(client, entry);
 * const forms = await skill.readFile('references/FORMS.md');
 * ```
 */
export async function loadSkill(
  client: Client,
  entry: SkillEntry,
  options: LoadSkillOptions = {},
): Promise<LoadedSkill> {
  entry = checkSkillEntry(entry);
  if (options.approvals) {
    if (options.server === undefined) throw new TypeError('loadSkill: approvals need the server label');
    const status = options.approvals.status(options.server, entry);
    if (status !== 'approved')
      throw new LocalError(
        'SkillNotApproved',
        status === 'changed'
          ? `${entry.uri} from ${options.server} changed since it was approved (its files differ); ask the user again`
          : `${entry.uri} from ${options.server} is not approved${entry.resources === 'dynamic' ? ' (a dynamic skill cannot be content-bound)' : ''}`,
      );
  }
  const budget = { bytes: 0 };
  const markdown = await readVerified(client, entry, entry.uri, budget);
  const { frontmatter, body } = parseFrontmatter(markdown);
  const keys = new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)]);
  for (const key of keys) {
    if (canonical(frontmatter[key]) !== canonical(entry.frontmatter[key]))
      refuse(`the frontmatter field ${key} of ${entry.uri} differs from its entry`);
  }
  const root = entry.uri.slice(0, -'/SKILL.md'.length);
  const held = entry;
  return {
    entry: held,
    instructions: body,
    readFile: (uriOrPath) =>
      readVerified(client, held, uriOrPath.includes('://') ? uriOrPath : `${root}/${uriOrPath}`, budget),
  };
}

/**
 * Lists the direct children of a directory resource (`resources/directory/read`), following
 * `nextCursor`. Only against a server that declared the skills extension with
 * `directoryRead: true`; any other gets no request and this throws `CapabilityNotSupported`.
 * A directory listing never extends a held entry: a file it shows that the entry does not
 * list is still refused by {@link LoadedSkill.readFile}.
 *
 * @example
 * ```ts
 * const children = await readSkillDirectory(client, 'skill://pdf-processing/templates');
 * ```
 */
export async function readSkillDirectory(client: Client, uri: string): Promise<Resource[]> {
  const ext = (client.serverCapabilities?.extensions as Record<string, unknown> | undefined)?.[
    SKILLS_EXTENSION
  ];
  if (!isObject(ext) || ext.directoryRead !== true)
    throw new LocalError(
      'CapabilityNotSupported',
      `The server did not declare ${SKILLS_EXTENSION} with directoryRead: true, so resources/directory/read is not called`,
    );
  const out: Resource[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.request(
      'resources/directory/read',
      cursor === undefined ? { uri } : { uri, cursor },
    );
    if (!Array.isArray(result.resources))
      throw new LocalError(
        'InvalidResult',
        'Invalid resources/directory/read result: resources must be an array',
      );
    out.push(...(result.resources as Resource[]));
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return out;
}
