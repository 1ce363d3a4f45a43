import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocalError } from '../jsonrpc/index.js';
import { paginate } from './list-iterators.js';
import { collect } from '../test-support/client-harness.js';

describe('paginate', () => {
  test('yields every item in order and stops at an absent or empty cursor', async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: 'b' },
      b: { items: [], nextCursor: 'c' },
      c: { items: [3], nextCursor: '' },
    };
    const asked: Array<string | undefined> = [];
    const out = await collect(
      paginate('numbers', async (cursor) => {
        asked.push(cursor);
        return pages[cursor ?? 'start']!;
      }),
    );
    assert.deepEqual(out, [1, 2, 3]);
    assert.deepEqual(asked, [undefined, 'b', 'c']);
  });

  test('fetches lazily: breaking early fetches no more pages', async () => {
    let fetched = 0;
    for await (const n of paginate('n', async (c) => {
      fetched++;
      return { items: [Number(c ?? 0)], nextCursor: String(Number(c ?? 0) + 1) };
    })) {
      if (n === 2) break;
    }
    assert.equal(fetched, 3);
  });

  test('a repeated cursor stops with InvalidResult, even after a cycle', async () => {
    const next: Record<string, string> = { a: 'b', b: 'c', c: 'a' };
    await assert.rejects(
      collect(paginate('things', async (c) => ({ items: [c], nextCursor: next[c ?? 'c'] }))),
      (e: unknown) =>
        e instanceof LocalError &&
        e.code === 'InvalidResult' &&
        e.message.includes('"a" twice while listing things'),
    );
  });

  test('more pages than allowed stops with InvalidResult', async () => {
    let n = 0;
    await assert.rejects(
      collect(paginate('pages', async () => ({ items: [], nextCursor: String(n++) }), 50)),
      (e: unknown) =>
        e instanceof LocalError && e.code === 'InvalidResult' && e.message.includes('more than 50 pages'),
    );
    assert.equal(n, 50);
  });

  test('property: any chain of distinct cursors is followed to the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 20 }), async (cursors) => {
        const items = await collect(
          paginate('x', async (c) => {
            const i = c === undefined ? 0 : cursors.indexOf(c) + 1;
            return { items: [i], nextCursor: cursors[i] };
          }),
        );
        assert.equal(items.length, cursors.length + 1);
      }),
      { numRuns: 100 },
    );
  });
});
