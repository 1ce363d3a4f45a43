/**
 * The skills extension (`io.modelcontextprotocol/skills`, SEP-2640, final text of 2026-09-13): Agent Skills served as
 * resources under `skill://<skill-path>/<file-path>`, enumerated by `skills/list`, looked up
 * by `skills/get`, and browsed with `resources/directory/read`.
 */
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { McpServer } from './server.js';
import type { ServerContext } from './server-context.js';
import { serverEraOf } from './server-era.js';
import { SKILLS_EXTENSION } from '../protocol/meta-keys.js';

/** The mimeType of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
const MAX_FILES = 512;
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/** Agent Skills naming: lowercase letters, digits and single hyphens, at most 64 characters. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** One skill: its place, its SKILL.md frontmatter and body, and its supporting files. */
export interface SkillDefinition {
  /** `<skill-path>`: `/`-separated segments; the last one is the skill's `name`. */
  path: string;
  /** The SKILL.md frontmatter: `name` and `description` at least (Agent Skills spec). */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** The markdown of SKILL.md after its frontmatter. */
  instructions: string;
  /** Supporting files (text), by path relative to the skill root: `references/FORMS.md`. */
  files?: Readonly<Record<string, string>>;
}

interface SkillFile {
  uri: string;
  text: string;
  bytes: number;
}

interface ServedSkill {
  uri: string;
  root: string;
  frontmatter: Record<string, unknown>;
  files: SkillFile[];
  /** Its files and those of the skills nested in it: the entry's complete `resources`. */
  manifest: SkillFile[];
  entry?: Promise<Record<string, unknown>>;
}

const enc = new TextEncoder();

/** YAML frontmatter: one `key: value` line per field, each value in JSON (which YAML 1.2 reads). */
function frontmatterText(fm: Record<string, unknown>): string {
  return Object.entries(fm)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n');
}

function mimeTypeOf(path: string): string {
  if (path.endsWith('.md')) return 'text/markdown';
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.py')) return 'text/x-python';
  return 'text/plain';
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(text)));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Frontmatter keys the hosts' YAML subset reads back unchanged. */
const FRONTMATTER_KEY = /^[A-Za-z0-9_./-]+$/;
const MAX_DEPTH = 32;

function depthOf(v: unknown, d = 1): number {
  if (d > MAX_DEPTH || v === null || typeof v !== 'object') return d;
  let max = d;
  for (const c of Object.values(v)) max = Math.max(max, depthOf(c, d + 1));
  return max;
}

function check(def: SkillDefinition): void {
  const fail = (field: string, why: string): never => {
    throw new TypeError(`Skill ${JSON.stringify(def.path)}: ${field} ${why}`);
  };
  const segments = def.path.split('/');
  if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..'))
    fail(
      'path',
      'needs non-empty URI segments (letters, digits, ".", "_", "~", "-"), none of them "." or ".."',
    );
  const fm = def.frontmatter;
  const name = fm.name;
  if (typeof name !== 'string' || !SKILL_NAME.test(name))
    fail('frontmatter.name', 'must be 1-64 lowercase letters, digits and single hyphens');
  if (segments.at(-1) !== name) fail('path', `must end with the name ${JSON.stringify(name)}`);
  const description = fm.description;
  if (typeof description !== 'string' || description.length === 0 || description.length > 1024)
    fail('frontmatter.description', 'must be 1 to 1024 characters');
  if (
    fm.compatibility !== undefined &&
    (typeof fm.compatibility !== 'string' || fm.compatibility.length > 500)
  )
    fail('frontmatter.compatibility', 'must be a string of at most 500 characters');
  for (const [key, value] of Object.entries(fm)) {
    if (!FRONTMATTER_KEY.test(key))
      fail(`frontmatter key ${JSON.stringify(key)}`, 'must be letters, digits, "_", ".", "/" or "-"');
    if (value === undefined || JSON.stringify(value) === undefined)
      fail(`frontmatter.${key}`, 'must be a JSON value');
    if (depthOf(value) > MAX_DEPTH) fail(`frontmatter.${key}`, `is nested deeper than ${MAX_DEPTH} levels`);
  }
  const meta = fm.metadata;
  if (
    meta &&
    typeof meta === 'object' &&
    Object.keys(meta).some((k) => k.startsWith('io.modelcontextprotocol/'))
  )
    fail('frontmatter.metadata', 'keys under io.modelcontextprotocol/ are reserved');
  const seen = new Set<string>(['skill.md']);
  for (const path of Object.keys(def.files ?? {})) {
    const parts = path.split('/');
    if (parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..'))
      fail(
        `files[${JSON.stringify(path)}]`,
        'is not a plain relative path (no "..", "/" at either end, "\\", ":" or NUL)',
      );
    // Two names that differ only in case would overwrite each other on many disks.
    if (seen.has(path.toLowerCase()))
      fail(`files[${JSON.stringify(path)}]`, 'collides with SKILL.md or another file when case is ignored');
    seen.add(path.toLowerCase());
  }
}

function build(def: SkillDefinition): ServedSkill {
  check(def);
  const root = `skill://${def.path}`;
  const skillMd = `---\n${frontmatterText(def.frontmatter)}\n---\n\n${def.instructions}`;
  const files: SkillFile[] = [{ uri: `${root}/SKILL.md`, text: skillMd, bytes: enc.encode(skillMd).length }];
  for (const [path, text] of Object.entries(def.files ?? {})) {
    files.push({ uri: `${root}/${path}`, text, bytes: enc.encode(text).length });
  }
  if (files.length > MAX_FILES)
    throw new TypeError(
      `Skill ${JSON.stringify(def.path)}: files make ${files.length} with SKILL.md; at most ${MAX_FILES}`,
    );
  const total = files.reduce((n, f) => n + f.bytes, 0);
  if (total > MAX_TOTAL_BYTES)
    throw new TypeError(
      `Skill ${JSON.stringify(def.path)}: files add up to ${total} bytes; at most 16 MiB (${MAX_TOTAL_BYTES})`,
    );
  return { uri: files[0]!.uri, root, frontmatter: { ...def.frontmatter }, files, manifest: files };
}

/** The `skills/list` entry of a skill: its URI, frontmatter and every file with digest and size. */
function entryOf(skill: ServedSkill): Promise<Record<string, unknown>> {
  skill.entry ??= Promise.all(
    skill.manifest.map(async (f) => ({ uri: f.uri, digest: await sha256(f.text), size: f.bytes })),
  ).then((resources) => ({ uri: skill.uri, frontmatter: skill.frontmatter, resources }));
  return skill.entry;
}

/** The direct children of a directory URI among the skills' files, or undefined when it is no directory. */
function childrenOf(skills: readonly ServedSkill[], dir: string): Array<Record<string, unknown>> | undefined {
  const prefix = `${dir}/`;
  const files = new Map<string, Record<string, unknown>>();
  const dirs = new Set<string>();
  let found = false;
  for (const skill of skills) {
    for (const f of skill.files) {
      if (!f.uri.startsWith(prefix)) continue;
      found = true;
      const rest = f.uri.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash === -1) {
        files.set(f.uri, { uri: f.uri, name: rest, mimeType: mimeTypeOf(rest), size: f.bytes });
      } else dirs.add(rest.slice(0, slash));
    }
  }
  if (!found) return undefined;
  return [
    ...[...dirs].sort().map((d) => ({ uri: `${prefix}${d}`, name: d, mimeType: DIRECTORY_MIME_TYPE })),
    ...[...files.values()],
  ];
}

function uriParam(params: Params): string {
  if (typeof params.uri !== 'string') throw WireError.invalidParams('uri must be a string');
  return params.uri;
}

/** Adds the caching fields the 2026-07-28 era expects on these results (SEP-2549). */
function listResult(result: Record<string, unknown>, ctx: ServerContext): Record<string, unknown> {
  return serverEraOf(ctx.era).withCacheHints(result);
}

/**
 * Serves skills (SEP-2640): every file becomes a resource (`SKILL.md` as `text/markdown`
 * with the frontmatter's name and description), and the server declares the extension and
 * answers `skills/list`, `skills/get` and `resources/directory/read`. Each entry lists every
 * file with its size and SHA-256 digest, a nested skill's files in the enclosing entry too.
 * Definitions are checked now and a bad one throws a `TypeError` naming the field: the last
 * path segment must be the name, names follow the Agent Skills rules, file paths are plain
 * relative paths (no `..`, `.`, empty segment, backslash, colon or NUL, no two differing only
 * in case), and a skill holds at most 512 files and 16 MiB.
 *
 * @example
 * ```ts
 * registerSkills(server, [{
 *   path: 'git-workflow',
 *   frontmatter: { name: 'git-workflow', description: 'Branch and commit the way this team does' },
 *   instructions: '# Git workflow\n\nBranch from main…',
 * }]);
 * ```
 */
export function registerSkills(server: McpServer, definitions: readonly SkillDefinition[]): void {
  const skills = definitions.map(build);
  const byUri = new Map(skills.map((s) => [s.uri, s]));
  const owner = new Map<string, string>();
  for (const skill of skills) {
    for (const f of skill.files) {
      const other = owner.get(f.uri);
      if (other !== undefined) throw new TypeError(`Skills ${other} and ${skill.root}: both serve ${f.uri}`);
      owner.set(f.uri, skill.root);
    }
  }
  // A nested skill's files are supporting files of every skill enclosing it, so they are in
  // the enclosing entries too (a change to the nested skill changes the enclosing set).
  for (const skill of skills) {
    const nested = skills.filter((s) => s !== skill && s.root.startsWith(`${skill.root}/`));
    if (nested.length === 0) continue;
    skill.manifest = [...skill.files, ...nested.flatMap((s) => s.files)];
    const total = skill.manifest.reduce((n, f) => n + f.bytes, 0);
    if (skill.manifest.length > MAX_FILES || total > MAX_TOTAL_BYTES)
      throw new TypeError(
        `Skill ${skill.root}: with its nested skills it passes ${MAX_FILES} files or 16 MiB`,
      );
  }
  for (const skill of skills) {
    for (const f of skill.files) {
      const isManifest = f === skill.files[0];
      const name = isManifest ? String(skill.frontmatter.name) : f.uri.slice(skill.root.length + 1);
      const mimeType = isManifest ? 'text/markdown' : mimeTypeOf(f.uri);
      server.resource(
        {
          uri: f.uri,
          name,
          mimeType,
          size: f.bytes,
          description: isManifest
            ? String(skill.frontmatter.description)
            : `${name}, a file of the skill ${String(skill.frontmatter.name)}`,
        },
        () => [{ uri: f.uri, mimeType, text: f.text }],
      );
    }
  }
  server.declareExtension(SKILLS_EXTENSION, { directoryRead: true });
  server.method('skills/list', async (params, ctx) => {
    // One page holds every skill; a cursor can only be one we never issued.
    if (params.cursor !== undefined) throw WireError.invalidParams('Unknown cursor');
    return listResult({ skills: await Promise.all(skills.map(entryOf)) }, ctx);
  });
  server.method('skills/get', async (params, ctx) => {
    const uri = uriParam(params);
    const skill = byUri.get(uri);
    if (!skill) throw new WireError(ErrorCode.InvalidParams, `No skill is served at ${uri}`, { uri });
    return listResult({ skill: await entryOf(skill) }, ctx);
  });
  server.method('resources/directory/read', (params) => {
    const uri = uriParam(params);
    if (params.cursor !== undefined) throw WireError.invalidParams('Unknown cursor');
    const children = childrenOf(skills, uri.replace(/\/$/, ''));
    if (!children)
      throw new WireError(ErrorCode.InvalidParams, `${uri} is not a directory resource`, { uri });
    return { resources: children };
  });
}
