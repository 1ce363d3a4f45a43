/**
 * What changed between two catalogs (two servers, or a recording and a live server):
 * tools, resources, templates and prompts added, removed or changed, and for a change
 * which fields (schema, description, annotations…) with their differences. Pure and
 * import-free apart from the JSON diff: the page runs it too.
 */
import { diffJson } from './json-diff.js';
import type { JsonDifference } from './json-diff.js';

/** The definitions of one side, as `tools/list` and friends return them. */
export interface CatalogLists {
  tools: readonly unknown[];
  resources: readonly unknown[];
  templates: readonly unknown[];
  prompts: readonly unknown[];
}

export type CatalogKind = 'tool' | 'resource' | 'template' | 'prompt';

export interface CatalogChange {
  kind: CatalogKind;
  /** The name (tools, prompts), URI (resources) or URI template. */
  key: string;
  change: 'added' | 'removed' | 'changed';
  /** For `changed`: the top-level fields that differ (`inputSchema`, `description`…). */
  fields?: string[];
  differences?: JsonDifference[];
}

const KEYS: Record<keyof CatalogLists, [CatalogKind, string]> = {
  tools: ['tool', 'name'],
  resources: ['resource', 'uri'],
  templates: ['template', 'uriTemplate'],
  prompts: ['prompt', 'name'],
};

function byKey(list: readonly unknown[], field: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const d of list)
    if (typeof d === 'object' && d !== null && typeof (d as Record<string, unknown>)[field] === 'string')
      out.set((d as Record<string, string>)[field]!, d as Record<string, unknown>);
  return out;
}

/** The changes from `before` to `after`, by kind, then key. `_meta` is compared as any field. */
export function diffCatalogs(before: CatalogLists, after: CatalogLists): CatalogChange[] {
  const out: CatalogChange[] = [];
  for (const list of Object.keys(KEYS) as Array<keyof CatalogLists>) {
    const [kind, field] = KEYS[list];
    const a = byKey(before[list], field);
    const b = byKey(after[list], field);
    const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
    for (const key of keys) {
      const x = a.get(key);
      const y = b.get(key);
      if (!x) out.push({ kind, key, change: 'added' });
      else if (!y) out.push({ kind, key, change: 'removed' });
      else {
        const differences = diffJson(x, y, { limit: 20 });
        if (differences.length === 0) continue;
        const fields = [...new Set(differences.map((d) => d.path.split(/[.[]/)[0]!))];
        out.push({ kind, key, change: 'changed', fields, differences });
      }
    }
  }
  return out;
}
