#!/usr/bin/env node
// Runs every compiled test file with node's test runner. Node 20 has no glob support in
// `node --test`, so the files are listed here. Pass paths or substrings to filter.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = walk(dist, [])
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error('No test files found: run `npm run build` first.');
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', cwd: root },
);
process.exit(result.status ?? 1);
