/**
 * LLM-facing names for tools and prompts: `server__tool`, in the `^[a-zA-Z0-9_-]{1,64}$`
 * shape the OpenAI and Anthropic APIs accept. The name is only a label for the model;
 * the host always resolves it back to the exact (server, tool) pair it was made from.
 */

/** The pattern every alias matches. */
export const ALIAS_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Joins the server and the tool in an alias. */
export const SEPARATOR = '__';
const MAX = 64;

/** Replaces every character outside `[a-zA-Z0-9_-]` with `_`. */
export function sanitize(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** FNV-1a over UTF-16 code units, 32 bits, as 8 hex digits (names only: not a security hash). */
function fnv(s: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** A short digest of the exact pair: different pairs get different suffixes. */
export function pairDigest(server: string, item: string, length = 8): string {
  const key = `${server}\u0000${item}`;
  return (fnv(key, 0x811c9dc5) + fnv(key, 0x01000193)).slice(0, length);
}

/**
 * The alias of one (server, item) pair. When both names are already in the safe alphabet,
 * the server name holds no `__` and the result fits in 64 characters, the alias is simply
 * `server__item`: such aliases never collide, since the first `__` splits them uniquely.
 * Otherwise (spaces, dots, unicode, length) the sanitized form is truncated and suffixed
 * with a digest of the exact pair, so two pairs that sanitize alike still differ.
 * The result depends on the pair alone, never on what else is in the catalog, so it is
 * stable across restarts and list changes.
 *
 * @example
 * ```ts
 * aliasFor('files', 'read_file');      // 'files__read_file'
 * aliasFor('my files', 'read.file');   // 'my_files__read_file_3f2a9c1e' (digest varies)
 * ```
 */
export function aliasFor(server: string, item: string): string {
  const plain = `${server}${SEPARATOR}${item}`;
  const clean =
    sanitize(server) === server && !server.includes(SEPARATOR) && sanitize(item) === item && server !== '';
  if (clean && item !== '' && plain.length <= MAX) return plain;
  return withDigest(`${sanitize(server)}${SEPARATOR}${sanitize(item)}`, server, item, 8);
}

/** `base` cut to fit, then `_` and a digest of the pair of the given length. */
export function withDigest(base: string, server: string, item: string, length: number): string {
  const suffix = `_${pairDigest(server, item, length)}`;
  return base.slice(0, MAX - suffix.length) + suffix;
}
