/**
 * The host side of the skills extension (SEP-2640): list a server's skills, and load one
 * only when it is needed, verifying every file it reads against the listing (size, then
 * SHA-256 digest) and the SKILL.md frontmatter against the entry's, field by field. Nothing
 * is fetched ahead of need: listing reads no file, loading reads SKILL.md alone.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { Client } from './client.js';
import { isObject } from '../jsonrpc/is-object.js';

/** One file of a skill as the listing describes it. */
export interface SkillResource {
  uri: string;
  digest: string;
  size?: number;
}

/** A `skills/list` (or `skills/get`) entry. */
export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  /** Absent for dynamically generated skills, whose content cannot be verified. */
  resources?: SkillResource[];
}

/** A skill whose SKILL.md passed verification. */
export interface LoadedSkill {
  entry: SkillEntry;
  /** The SKILL.md markdown after its frontmatter. */
  instructions: string;
  /** Reads one of the skill's listed files, verified like SKILL.md was. */
  readFile(uri: string): Promise<string>;
}

const enc = new TextEncoder();

function refuse(message: string): never {
  throw new LocalError('InvalidResult', `Skill verification failed: ${message}`);
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function entryOf(v: unknown): SkillEntry {
  if (!isObject(v) || typeof v.uri !== 'string' || !isObject(v.frontmatter))
    throw new LocalError('InvalidResult', 'A skill entry needs a uri and a frontmatter object');
  const entry: SkillEntry = { uri: v.uri, frontmatter: v.frontmatter };
  if (Array.isArray(v.resources)) {
    entry.resources = v.resources.filter(
      (r): r is SkillResource => isObject(r) && typeof r.uri === 'string' && typeof r.digest === 'string',
    );
  }
  return entry;
}

/** Every skill the server lists, following `nextCursor` (at most 100 pages). */
export async function listSkills(client: Client): Promise<SkillEntry[]> {
  const out: SkillEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.request('skills/list', cursor === undefined ? {} : { cursor });
    if (!Array.isArray(result.skills))
      throw new LocalError('InvalidResult', 'skills/list returned no skills array');
    out.push(...result.skills.map(entryOf));
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined) return out;
  }
  return out;
}

/** The entry of one skill by the URI of its SKILL.md, listed or not. */
export async function getSkill(client: Client, uri: string): Promise<SkillEntry> {
  const result = await client.request('skills/get', { uri });
  return entryOf(result.skill);
}

/** Parses a YAML scalar of the frontmatter subset: JSON values, quoted or plain strings. */
function scalar(text: string): unknown {
  const t = text.trim();
  if (t === '') return null;
  if (t.startsWith("'") && t.endsWith("'") && t.length >= 2) return t.slice(1, -1).replace(/''/g, "'");
  if (/^["{[]/.test(t) || /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(t)) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      refuse(`the frontmatter value ${t.slice(0, 40)} is not in the YAML subset this host reads`);
    }
  }
  return t;
}

/**
 * The frontmatter of a SKILL.md: top-level `key: value` lines (plain, quoted or JSON flow
 * values) and one level of indented `key: value` lines under a key with no value. Anything
 * else cannot be compared reliably, so it fails verification.
 */
export function parseFrontmatter(markdown: string): { frontmatter: Record<string, unknown>; body: string } {
  const text = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) refuse('SKILL.md does not begin with YAML frontmatter');
  const out: Record<string, unknown> = {};
  let nested: Record<string, unknown> | undefined;
  for (const line of m[1]!.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const kv = /^(\s*)([A-Za-z0-9_./-]+):(?:\s+(.*))?$/.exec(line);
    if (!kv) refuse(`unreadable frontmatter line ${JSON.stringify(line.slice(0, 40))}`);
    const [, indent, key, value] = kv;
    if (indent === '') {
      nested = undefined;
      if (value === undefined || value.trim() === '') out[key!] = nested = {};
      else out[key!] = scalar(value);
    } else {
      if (!nested) refuse(`indented frontmatter line outside a mapping: ${key}`);
      nested[key!] = scalar(value ?? '');
    }
  }
  return { frontmatter: out, body: text.slice(m[0].length) };
}

/** JSON with sorted keys, so equal values compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Reads one file of `entry` and checks its size, then its digest, against the listing. */
async function readVerified(client: Client, entry: SkillEntry, uri: string): Promise<string> {
  const listed = entry.resources?.find((r) => r.uri === uri);
  if (entry.resources && !listed) refuse(`${uri} is not one of the skill's listed files`);
  const result = await client.readResource({ uri });
  const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (!content) refuse(`${uri} came back empty`);
  const bytes =
    'text' in content
      ? enc.encode(content.text)
      : Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
  if (listed) {
    if (typeof listed.size === 'number' && bytes.length !== listed.size)
      refuse(`${uri} is ${bytes.length} bytes; the listing says ${listed.size}`);
    if ((await sha256(bytes)) !== listed.digest.toLowerCase()) refuse(`${uri} does not match its digest`);
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Loads a skill the host has decided to use: reads its SKILL.md (nothing else), verifies
 * size and digest against the entry, and compares the frontmatter field by field. Any
 * discrepancy throws and the skill must not be used. Further files are read on demand
 * through {@link LoadedSkill.readFile}, each verified the same way.
 *
 * @example
 * ```ts
 * const [entry] = await listSkills(client);
 * const skill = await loadSkill(client, entry);
 * const forms = await skill.readFile(entry.uri.replace('SKILL.md', 'references/FORMS.md'));
 * ```
 */
export async function loadSkill(client: Client, entry: SkillEntry): Promise<LoadedSkill> {
  const markdown = await readVerified(client, entry, entry.uri);
  const { frontmatter, body } = parseFrontmatter(markdown);
  const keys = new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)]);
  for (const key of keys) {
    if (canonical(frontmatter[key]) !== canonical(entry.frontmatter[key]))
      refuse(`the frontmatter field ${key} of ${entry.uri} differs from the listing`);
  }
  return { entry, instructions: body, readFile: (uri) => readVerified(client, entry, uri) };
}
