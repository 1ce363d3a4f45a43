// The public surface stays tidy: each name is exported from one package entry (its home), so a
// reader finds one import for it and two entries never drift apart. scripts/api-surface.mjs
// reads the names (values and types) from the built .d.ts files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

interface Surface {
  entries: Record<string, string[]>;
  shared: Record<string, string[]>;
  distinct: number;
}
const { surface } = (await import(new URL('../scripts/api-surface.mjs', import.meta.url).href)) as {
  surface: (root?: string) => Surface;
};

/** `serve()` and its types: Node-only, the node condition's addition to `mcpkit/http-server`. */
const SERVE_NAMES = new Set(['serve', 'ServeOptions', 'RunningServer']);

/** Names two entries may both export, each with its reason. Keep it short. */
const ALLOWED_TWICE: Record<string, string> = {};

describe('the public API', () => {
  const { entries, shared } = surface(root);

  test('no name is exported from two entries', () => {
    const twice = Object.entries(shared).filter(([name]) => !(name in ALLOWED_TWICE));
    assert.deepEqual(
      twice.map(([name, where]) => `${name}: ${where.join(', ')}`),
      [],
      'export each name from the one entry where it belongs',
    );
    for (const name of Object.keys(ALLOWED_TWICE)) assert.ok(name in shared, `${name} is no longer shared`);
  });

  test("every exports entry has a declaration file with names, and a node condition has its portable entry's names", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: object };
    for (const sub of Object.keys(pkg.exports)) {
      if (sub === './package.json') continue;
      assert.ok((entries[sub]?.length ?? 0) > 0, `${sub} exports nothing`);
    }
    for (const [label, names] of Object.entries(entries)) {
      if (!label.endsWith(' [node]')) continue;
      const portable = new Set(entries[label.slice(0, -' [node]'.length)]);
      assert.deepEqual(
        names.filter((n) => !portable.has(n)),
        names.filter(
          (n) => !portable.has(n) && (/^(node|undici)|^(Node|Undici)/.test(n) || SERVE_NAMES.has(n)),
        ),
        `${label} adds names that are not Node-specific`,
      );
    }
  });
});
