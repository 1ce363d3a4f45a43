// The package's public surface: for each entry of package.json's `exports`, the names its
// declaration file exports (values and types alike, read with the TypeScript checker from the
// built dist/*.d.ts), and the names exported from two or more entries. An entry with a `node`
// condition is listed once per declaration file (`./auth`, `./auth [node]`); a condition that
// re-exports the portable entry's names does not count as a second home for them.
//
//   node scripts/api-surface.mjs            a table: entry, count
//   node scripts/api-surface.mjs --names    every entry's names, then the shared ones
//   node scripts/api-surface.mjs --json     { entries: { entry: names[] }, shared: { name: entries[] } }
//
// Run after `npx tsc -p tsconfig.json`. src/api-surface.test.ts uses `surface()`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `{ entry label: .d.ts path }` from package.json's `exports` (`node` conditions labelled). */
export function declarationEntries(root = ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = {};
  for (const [sub, entry] of Object.entries(pkg.exports)) {
    if (typeof entry !== 'object') continue;
    if (typeof entry.types === 'string') out[sub] = join(root, entry.types);
    if (typeof entry.node === 'object' && typeof entry.node.types === 'string')
      out[`${sub} [node]`] = join(root, entry.node.types);
  }
  return out;
}

/** Each entry's exported names, sorted, and the names more than one entry exports. */
export function surface(root = ROOT) {
  const files = declarationEntries(root);
  const program = ts.createProgram(Object.values(files), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const entries = {};
  for (const [label, file] of Object.entries(files)) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`api-surface: ${label}: ${file} is not built`);
    const symbol = checker.getSymbolAtLocation(source);
    entries[label] = symbol
      ? checker
          .getExportsOfModule(symbol)
          .map((s) => s.name)
          .sort()
      : [];
  }
  const homes = new Map();
  for (const [label, names] of Object.entries(entries)) {
    // A `node` condition is the same entry as its portable sibling for a user.
    if (label.endsWith(' [node]')) continue;
    for (const name of names) homes.set(name, [...(homes.get(name) ?? []), label]);
  }
  const shared = Object.fromEntries(
    [...homes].filter(([, where]) => where.length > 1).sort(([a], [b]) => a.localeCompare(b)),
  );
  return { entries, shared, distinct: homes.size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { entries, shared, distinct } = surface();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ entries, shared }, null, 2));
  } else {
    const width = Math.max(...Object.keys(entries).map((k) => k.length));
    for (const [label, names] of Object.entries(entries)) {
      console.log(`${label.padEnd(width)}  ${String(names.length).padStart(4)}`);
      if (process.argv.includes('--names')) console.log(`  ${names.join(' ')}`);
    }
    console.log(`${'distinct'.padEnd(width)}  ${String(distinct).padStart(4)}`);
    console.log(`${'shared'.padEnd(width)}  ${String(Object.keys(shared).length).padStart(4)}`);
    if (process.argv.includes('--names'))
      for (const [name, where] of Object.entries(shared)) console.log(`  ${name}: ${where.join(', ')}`);
  }
}
