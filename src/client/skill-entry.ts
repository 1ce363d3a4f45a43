/**
 * The `Skill` entry of the skills extension (final text, 2026-09-13) checked as a host must
 * before loading anything: `resources` is an array of `{uri, digest, size}` or `"dynamic"`,
 * every digest is `sha256:` and 64 lowercase hex digits, every file lies inside the skill's
 * directory and appears once, SKILL.md is listed, the URI's last skill-path segment is the
 * frontmatter's name, and the skill stays within 512 files and 16 MiB. A bad entry is
 * refused with an error naming the field.
 */
import { LocalError } from '../jsonrpc/index.js';
import { isObject } from '../jsonrpc/is-object.js';

/** One file of a skill as its entry describes it. */
export interface SkillResource {
  uri: string;
  /** `sha256:` followed by 64 lowercase hex digits, over the file's raw bytes. */
  digest: string;
  /** Length in bytes of the same raw bytes. */
  size: number;
}

/** A `skills/list` (or `skills/get`) entry. */
export interface SkillEntry {
  /** The URI of the skill's SKILL.md. */
  uri: string;
  /** The SKILL.md frontmatter as JSON: `name` and `description` at least. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /**
   * Every file of the skill, SKILL.md included, or `"dynamic"` for a generated skill whose
   * content cannot be verified (and whose approval cannot be bound to content).
   */
  resources: SkillResource[] | 'dynamic';
}

/** The per-skill limits every host supports (and this one enforces). */
export const SKILL_LIMITS = { files: 512, totalBytes: 16 * 1024 * 1024 } as const;

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Agent Skills naming: 1–64 lowercase letters, digits and single inner hyphens. */
export const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;
/** Frontmatter JSON deeper than this is refused before anything walks it recursively. */
export const MAX_FRONTMATTER_DEPTH = 32;

function invalid(where: string, why: string): never {
  throw new LocalError('InvalidResult', `Invalid skill entry: ${where} ${why}`);
}

/** The depth of a JSON value, stopping (at `limit + 1`) as soon as it is too deep. */
export function depthOf(v: unknown, limit = MAX_FRONTMATTER_DEPTH): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > limit) return max;
    if (x !== null && typeof x === 'object') for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}

/**
 * The skill's root (the SKILL.md URI without `/SKILL.md`), after checking the file URI is
 * a plain path under it: no `.`/`..` segment (also percent-encoded), no empty segment, no
 * backslash, NUL or control character, and no drive letter.
 */
export function checkFileUri(root: string, uri: string, where: string): void {
  if (!uri.startsWith(`${root}/`)) invalid(where, `${JSON.stringify(uri)} is not inside ${root}/`);
  for (const raw of uri.slice(root.length + 1).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      invalid(where, `${JSON.stringify(uri)} has a malformed percent-encoding`);
    }
    if (seg === '' || seg === '.' || seg === '..')
      invalid(where, `${JSON.stringify(uri)} has an empty, "." or ".." segment`);
    // eslint-disable-next-line no-control-regex -- NUL and control characters are what is refused
    if (/[\\/\u0000-\u001f\u007f]/.test(seg) || /^[A-Za-z]:/.test(seg))
      invalid(
        where,
        `${JSON.stringify(uri)} has a segment with a separator, control character or drive letter`,
      );
  }
}

/**
 * Checks one entry as received from the server and returns it typed; `where` names it in
 * errors (`skills[2]`).
 */
export function checkSkillEntry(v: unknown, where = 'skill'): SkillEntry {
  if (!isObject(v)) invalid(where, 'is not an object');
  if (typeof v.uri !== 'string') invalid(`${where}.uri`, 'must be a string');
  const uri = v.uri;
  if (!uri.endsWith('/SKILL.md')) invalid(`${where}.uri`, `${JSON.stringify(uri)} must end with /SKILL.md`);
  const root = uri.slice(0, -'/SKILL.md'.length);
  const fm = v.frontmatter;
  if (!isObject(fm)) invalid(`${where}.frontmatter`, 'must be an object');
  if (depthOf(fm) > MAX_FRONTMATTER_DEPTH)
    invalid(`${where}.frontmatter`, `is nested deeper than ${MAX_FRONTMATTER_DEPTH} levels`);
  if (typeof fm.name !== 'string' || !SKILL_NAME.test(fm.name))
    invalid(`${where}.frontmatter.name`, 'must be 1-64 lowercase letters, digits and single hyphens');
  if (typeof fm.description !== 'string' || fm.description.length === 0 || fm.description.length > 1024)
    invalid(`${where}.frontmatter.description`, 'must be a string of 1 to 1024 characters');
  const last = root.slice(root.lastIndexOf('/') + 1);
  if (last !== fm.name)
    invalid(
      `${where}.uri`,
      `the last skill-path segment ${JSON.stringify(last)} must equal frontmatter.name`,
    );
  const frontmatter = fm as SkillEntry['frontmatter'];
  if (v.resources === 'dynamic') return { uri, frontmatter, resources: 'dynamic' };
  if (!Array.isArray(v.resources)) invalid(`${where}.resources`, 'must be an array of files or "dynamic"');
  if (v.resources.length > SKILL_LIMITS.files)
    invalid(
      `${where}.resources`,
      `lists ${v.resources.length} files; a skill may have at most ${SKILL_LIMITS.files}`,
    );
  const seen = new Set<string>();
  let total = 0;
  const resources: SkillResource[] = [];
  v.resources.forEach((r: unknown, i: number) => {
    const at = `${where}.resources[${i}]`;
    if (!isObject(r)) invalid(at, 'is not an object');
    if (typeof r.uri !== 'string') invalid(`${at}.uri`, 'must be a string');
    if (r.uri !== uri) checkFileUri(root, r.uri, `${at}.uri`);
    if (seen.has(r.uri)) invalid(`${at}.uri`, `${JSON.stringify(r.uri)} is listed twice`);
    seen.add(r.uri);
    if (typeof r.digest !== 'string' || !DIGEST.test(r.digest))
      invalid(`${at}.digest`, 'must be "sha256:" followed by 64 lowercase hex digits');
    if (typeof r.size !== 'number' || !Number.isSafeInteger(r.size) || r.size < 0)
      invalid(`${at}.size`, 'must be a non-negative integer');
    total += r.size;
    resources.push({ uri: r.uri, digest: r.digest, size: r.size });
  });
  if (!seen.has(uri)) invalid(`${where}.resources`, `does not list the skill's SKILL.md (${uri})`);
  if (total > SKILL_LIMITS.totalBytes)
    invalid(
      `${where}.resources`,
      `add up to ${total} bytes; a skill may have at most 16 MiB (${SKILL_LIMITS.totalBytes})`,
    );
  return { uri, frontmatter, resources };
}
