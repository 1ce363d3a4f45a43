/**
 * The SKILL.md frontmatter reader the host uses to compare a fetched SKILL.md with its entry.
 * It reads the YAML a skill's frontmatter is written in (plain, quoted and JSON flow values,
 * one level of nested mappings) and refuses the rest rather than guess: anchors and aliases
 * (so no alias bomb can expand), tags, block scalars, duplicate keys and values nested
 * deeper than 32 levels. A refusal is a verification failure: the skill is not loaded.
 */
import { LocalError } from '../jsonrpc/index.js';
import { MAX_FRONTMATTER_DEPTH, depthOf } from './skill-entry.js';

function refuse(message: string): never {
  throw new LocalError('InvalidResult', `Skill verification failed: ${message}`);
}

/** Parses a YAML scalar of the frontmatter subset: JSON values, quoted or plain strings. */
function scalar(text: string, key: string): unknown {
  const t = text.trim();
  if (t === '') return null;
  if (/^[&*!|>%@`]/.test(t))
    refuse(
      `the frontmatter field ${key} uses YAML anchors, aliases, tags or block scalars, which this host does not read`,
    );
  if (t.startsWith("'") && t.endsWith("'") && t.length >= 2) return t.slice(1, -1).replace(/''/g, "'");
  if (/^["{[]/.test(t) || /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(t)) {
    let v: unknown;
    try {
      v = JSON.parse(t) as unknown;
    } catch {
      refuse(`the frontmatter field ${key} (${t.slice(0, 40)}) is not in the YAML subset this host reads`);
    }
    if (depthOf(v) > MAX_FRONTMATTER_DEPTH)
      refuse(`the frontmatter field ${key} is nested deeper than ${MAX_FRONTMATTER_DEPTH} levels`);
    return v;
  }
  return t;
}

function put(into: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.hasOwn(into, key)) refuse(`the frontmatter field ${key} appears twice`);
  // defineProperty: a `__proto__` key is a field like any other, not a prototype swap.
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The frontmatter of a SKILL.md: top-level `key: value` lines (plain, quoted or JSON flow
 * values) and one level of indented `key: value` lines under a key with no value. Anything
 * else cannot be compared reliably, so it fails verification.
 *
 * @example
 * ```ts
 * const { frontmatter, body } = parseFrontmatter('---\nname: tour\ndescription: A tour\n---\n# Tour\n');
 * ```
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
      if (value === undefined || value.trim() === '') put(out, key!, (nested = {}));
      else put(out, key!, scalar(value, key!));
    } else {
      if (!nested) refuse(`indented frontmatter line outside a mapping: ${key}`);
      put(nested, key!, scalar(value ?? '', key!));
    }
  }
  return { frontmatter: out, body: text.slice(m[0].length) };
}
