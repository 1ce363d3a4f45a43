#!/usr/bin/env node
// Runs every compiled test file with node's test runner. Node 20 has no glob support in
// `node --test`, so the files are listed here. Pass paths or substrings to filter.
// A suite that needs a program that is not installed (redis-server, haproxy, tmux, openssl,
// chromium: src/test-support/services.ts) skips with a line naming its Debian package; the
// skips are listed again at the end, by reason.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
let files = [];
try {
  files = walk(dist, [])
    .map((f) => relative(root, f))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
} catch {
  // No dist/: reported below.
}

if (files.length === 0) {
  console.error('No test files found: run `npm run build` first.');
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-run-tests-'));
const skips = join(scratch, 'skips.jsonl');
const result = spawnSync(
  process.execPath,
  [
    '--test',
    '--test-concurrency=2',
    '--test-timeout=300000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'scripts/skip-reporter.mjs')}`,
    `--test-reporter-destination=${skips}`,
    ...files,
  ],
  // Deprecated features (roots, sampling, logging) are tested on purpose: their once-per-
  // process warnings would only clutter the output. deprecation.test.ts sets its own env.
  { stdio: 'inherit', cwd: root, env: { MCPKIT_NO_DEPRECATION: '1', ...process.env } },
);

/** The source file of a compiled test file, as a reader finds it. */
const sourceOf = (file) =>
  relative(root, file ?? '')
    .replace(/^dist\//, 'src/')
    .replace(/\.js$/, '.ts');

let lines = [];
try {
  lines = readFileSync(skips, 'utf8').split('\n').filter(Boolean);
} catch {
  // The runner wrote nothing (it could not start): its own output says why.
}
rmSync(scratch, { recursive: true, force: true });
const byReason = new Map();
for (const line of lines) {
  const { file, reason } = JSON.parse(line);
  const perFile = byReason.get(reason) ?? new Map();
  perFile.set(sourceOf(file), (perFile.get(sourceOf(file)) ?? 0) + 1);
  byReason.set(reason, perFile);
}
if (byReason.size === 0) {
  console.log('\nNothing skipped.');
} else {
  console.log(`\nSkipped (${lines.length} tests or suites), by reason:`);
  for (const [reason, perFile] of byReason) {
    console.log(`  ${reason}:`);
    for (const [file, count] of perFile) console.log(`    ${file} (${count})`);
  }
  if ([...byReason.keys()].some((reason) => reason.startsWith('needs '))) {
    console.log('  `npm test` installs these packages itself when it runs as root with apt-get.');
  }
}
process.exit(result.status ?? 1);
