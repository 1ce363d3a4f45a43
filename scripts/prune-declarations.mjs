// Leaves in dist/ only the declaration files the package's `exports` reach (following their
// relative imports): the others describe internal modules no consumer can import, and each
// costs at least one 4 KB block on disk in every install. Test declarations are left alone
// (the package's `files` never ships them). Run after `tsc`, as `npm run build` does.
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const reached = new Set();
const queue = [];
for (const entry of Object.values(pkg.exports)) {
  if (typeof entry !== 'object') continue;
  if (typeof entry.types === 'string') queue.push(resolve(root, entry.types));
  if (typeof entry.node === 'object' && typeof entry.node.types === 'string')
    queue.push(resolve(root, entry.node.types));
}
const IMPORT = /from\s+['"](\.[^'"]+)['"]|import\(['"](\.[^'"]+)['"]\)/g;
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file) || !existsSync(file)) continue;
  reached.add(file);
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT))
    queue.push(resolve(dirname(file), (m[1] ?? m[2]).replace(/\.js$/, '.d.ts')));
}

let removed = 0;
const walk = (dir) => {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isDirectory()) {
      if (d.name !== 'test-support' && d.name !== 'bundle') walk(path);
    } else if (d.name.endsWith('.d.ts') && !d.name.endsWith('.test.d.ts') && !reached.has(path)) {
      rmSync(path);
      removed++;
    }
  }
};
walk(join(root, 'dist'));
console.log(`declarations: ${reached.size} reached from the exports, ${removed} others removed`);
