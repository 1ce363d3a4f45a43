/**
 * Roots as the host handles them: absolute, normalized paths, turned into `file://` URIs
 * only when a server is told. Pure string work, so it runs anywhere.
 */
import type { Root } from '../../protocol/types/index.js';

/** Resolves `.` and `..` segments and doubled slashes; `..` never climbs above `/`. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

/**
 * Reads a root as written in a config: an absolute path, `~/...` (with `home`), or a
 * `file://` URI. Returns the normalized path, or a reason it is not acceptable.
 */
export function parseRoot(raw: string, home: string | undefined): { path: string } | { error: string } {
  let p = raw;
  if (p.startsWith('file:')) {
    let url: URL;
    try {
      url = new URL(p);
    } catch {
      return { error: 'is not a valid file:// URI' };
    }
    if (url.host !== '' && url.host !== 'localhost') return { error: 'names a remote host' };
    try {
      p = decodeURIComponent(url.pathname);
    } catch {
      return { error: 'has an invalid percent-encoding' };
    }
  } else if (p === '~' || p.startsWith('~/')) {
    if (!home) return { error: 'starts with ~ but HOME is not set' };
    p = home + p.slice(1);
  }
  if (p.includes('\0')) return { error: 'contains a NUL character' };
  if (!p.startsWith('/')) return { error: 'is not absolute (expected /path, ~/path or file:///path)' };
  return { path: normalizePath(p) };
}

/** Whether `path` is `root` or lies inside it (both normalized). */
export function isWithin(path: string, root: string): boolean {
  if (root === '/') return true;
  return path === root || path.startsWith(root + '/');
}

/** A normalized absolute path as a `file://` URI, every segment percent-encoded. */
export function pathToFileUri(path: string): string {
  return 'file://' + path.split('/').map(encodeURIComponent).join('/');
}

/** The roots to tell one server: its own list (each inside the host's), or the host's. */
export function rootsFor(serverRoots: readonly string[] | undefined, hostRoots: readonly string[]): Root[] {
  const list = serverRoots ?? hostRoots;
  const allowed =
    hostRoots.length === 0 ? list : list.filter((p) => hostRoots.some((root) => isWithin(p, root)));
  return allowed.map((p) => ({ uri: pathToFileUri(p), name: p.split('/').filter(Boolean).pop() ?? '/' }));
}
