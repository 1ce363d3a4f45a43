/** Async iteration over paginated list results, with guards against endless cursors. */
import { LocalError } from '../jsonrpc/index.js';

/** Most pages one iteration follows before giving up. */
export const MAX_PAGES = 10_000;

/** One page as the iterator needs it. */
export interface Page<T> {
  items: readonly T[];
  nextCursor?: string | undefined;
}

/**
 * Yields every item of every page, fetching the next page only when the previous one is
 * used up. Stops with `InvalidResult` when the server repeats a cursor (which would loop
 * forever) or hands out more than {@link MAX_PAGES} pages. An empty or absent
 * `nextCursor` ends the listing.
 */
export async function* paginate<T>(
  what: string,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages: number = MAX_PAGES,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    yield* page.items;
    const next = page.nextCursor;
    if (typeof next !== 'string' || next === '') return;
    if (seen.has(next)) {
      throw new LocalError(
        'InvalidResult',
        `The server returned the cursor ${JSON.stringify(next.slice(0, 80))} twice while listing ${what}; stopping to avoid an endless loop`,
      );
    }
    if (pages >= maxPages) {
      throw new LocalError('InvalidResult', `Listing ${what} took more than ${maxPages} pages; stopping`);
    }
    seen.add(next);
    cursor = next;
  }
}

/**
 * Every item of a list method, page by page: `list` fetches one page given its cursor, `key`
 * names the page's items.
 */
export function listAll<K extends string, T>(
  what: string,
  key: K,
  list: (
    params: { cursor: string } | undefined,
  ) => Promise<{ nextCursor?: string | undefined } & Record<K, T[]>>,
): AsyncGenerator<T, void, undefined> {
  return paginate(what, async (cursor) => {
    const r = await list(cursor === undefined ? undefined : { cursor });
    return { items: r[key], nextCursor: r.nextCursor };
  });
}
