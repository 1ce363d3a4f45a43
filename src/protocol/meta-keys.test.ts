// Every extension id and reserved `_meta` key is spelled once, in meta-keys.ts: the rest of the
// code names the constant, so two spellings of one key can never disagree.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { APPS_EXTENSION, MetaKey, SKILLS_EXTENSION, TASKS_EXTENSION } from './meta-keys.js';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? d.name === 'test-support' || d.name === 'fixtures'
        ? []
        : sources(join(dir, d.name))
      : d.name.endsWith('.ts') && !d.name.endsWith('.test.ts')
        ? [join(dir, d.name)]
        : [],
  );

test('extension ids and _meta keys are string literals only in protocol/meta-keys.ts', () => {
  const literal = /(['"`])io\.modelcontextprotocol\/[A-Za-z][\w-]*\1/;
  const stray: string[] = [];
  for (const file of sources(src)) {
    const path = relative(src, file);
    // The message types name the keys as property names of their interfaces.
    if (path === join('protocol', 'meta-keys.ts') || path.startsWith(join('protocol', 'types'))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\*|\/\/)/.test(line)) return;
        if (literal.test(line)) stray.push(`${path}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(stray, []);
});

test('the ids and keys are distinct', () => {
  const all = [APPS_EXTENSION, SKILLS_EXTENSION, TASKS_EXTENSION, ...Object.values(MetaKey)];
  assert.equal(new Set(all).size, all.length);
});
