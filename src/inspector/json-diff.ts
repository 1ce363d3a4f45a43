/**
 * A structural diff of two JSON values, for replay (a recorded answer against a new one)
 * and the catalog diff. Pure and import-free: the page runs it too.
 */

/** One difference, at a JSON path such as `content[0].text`. */
export interface JsonDifference {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** Options of {@link diffJson}. */
export interface JsonDiffOptions {
  /** Object keys not compared, at any depth (e.g. `_meta`, whose contents vary by run). */
  ignoreKeys?: readonly string[];
  /** Stop after this many differences (default 50). */
  limit?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** The differences between `before` and `after`, depth first, at most `limit` of them. */
export function diffJson(before: unknown, after: unknown, options: JsonDiffOptions = {}): JsonDifference[] {
  const out: JsonDifference[] = [];
  const ignore = new Set(options.ignoreKeys ?? []);
  const limit = options.limit ?? 50;
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (out.length >= limit || a === b) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n && out.length < limit; i++) {
        if (i >= a.length) out.push({ path: join(path, i), kind: 'added', after: b[i] });
        else if (i >= b.length) out.push({ path: join(path, i), kind: 'removed', before: a[i] });
        else walk(a[i], b[i], join(path, i));
      }
      return;
    }
    if (isObj(a) && isObj(b)) {
      for (const k of Object.keys(a)) {
        if (out.length >= limit) return;
        if (ignore.has(k)) continue;
        if (!Object.hasOwn(b, k)) out.push({ path: join(path, k), kind: 'removed', before: a[k] });
        else walk(a[k], b[k], join(path, k));
      }
      for (const k of Object.keys(b)) {
        if (out.length >= limit) return;
        if (!ignore.has(k) && !Object.hasOwn(a, k))
          out.push({ path: join(path, k), kind: 'added', after: b[k] });
      }
      return;
    }
    if (Number.isNaN(a) && Number.isNaN(b)) return;
    out.push({ path: path || '(whole)', kind: 'changed', before: a, after: b });
  };
  walk(before, after, '');
  return out;
}
