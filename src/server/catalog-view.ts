/**
 * The server's lists as each caller sees them. The wire form of a list is built once per
 * change; when nothing in it has a visibility rule that one array serves every caller. When
 * some items do, the caller's visible subset is keyed by which rules it passes, so callers
 * alike share one array, and the serialized pages cut from it are kept by that array.
 * Pagination runs over the subset: a cursor is an offset into what the caller sees, and
 * names nothing.
 */
import { shapeResult, shapesResult } from '../protocol/revision-shaping.js';
import { callerOf } from './visibility.js';
import type { CatalogCaller, VisibilityCheck, Visible } from './visibility.js';

export type ListKey = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

interface ListCache {
  /** The entries, in list order. */
  readonly all: readonly Visible[];
  /** The checks of the items that have one, in list order, with their positions. */
  readonly ruled: readonly { readonly index: number; readonly check: VisibilityCheck }[];
  /** Visible subsets by the string of rules passed ('1') and failed ('0'). */
  readonly subsets: Map<string, readonly Visible[]>;
}

/** How many distinct subsets of one list are kept (rules of a function per user can make many). */
const MAX_SUBSETS = 64;

/** Each list's wire form and visible subsets, rebuilt after a change. */
export class CatalogLists {
  private readonly lists = new Map<ListKey, ListCache>();
  /**
   * Page texts by the visible subset they were cut from, then revision and bounds. Keyed by
   * the subset array itself: it exists per list contents and per set of rules passed, so a
   * page is never served to a caller who sees another subset, and a change (which drops the
   * list's subsets) drops its pages with them.
   */
  private readonly pages = new WeakMap<readonly Visible[], Map<string, string>>();

  constructor(
    private readonly sources: Readonly<Record<ListKey, ReadonlyMap<string, Visible>>>,
    /** Told of each request that lists under rules (the server learns its connection's caller). */
    private readonly onRuledList?: (request: { readonly authInfo: unknown }) => void,
  ) {}

  /** A list's contents changed. */
  invalidate(key: ListKey): void {
    this.lists.delete(key);
  }

  /** Whether some item of `key` has a visibility rule. */
  hasRules(key: ListKey): boolean {
    return this.cache(key).ruled.length > 0;
  }

  /** The entries of `key` the `request`'s caller sees: the whole list when nothing has a rule. */
  visible(key: ListKey, request: { readonly authInfo: unknown }): readonly Visible[] {
    const c = this.cache(key);
    if (c.ruled.length === 0) return c.all;
    this.onRuledList?.(request);
    const caller: CatalogCaller = callerOf(request.authInfo);
    let passed = '';
    for (const r of c.ruled) passed += r.check(caller) ? '1' : '0';
    let subset = c.subsets.get(passed);
    if (subset === undefined) {
      const hidden = new Set<number>();
      for (let i = 0; i < c.ruled.length; i++) if (passed[i] === '0') hidden.add(c.ruled[i]!.index);
      subset = hidden.size === 0 ? c.all : c.all.filter((_, i) => !hidden.has(i));
      if (c.subsets.size >= MAX_SUBSETS) c.subsets.clear();
      c.subsets.set(passed, subset);
    }
    return subset;
  }

  /**
   * The JSON text of a page of `items` (a subset {@link visible} returned), made once per list
   * contents; a page of entries keeping their own texts (tools) is joined from them instead. Only pages a cursor of ours starts (multiples of the page size) are kept: a
   * client choosing other offsets must not fill memory with overlapping pages.
   */
  pageText(
    items: readonly Visible[],
    start: number,
    pageSize: number,
    key: ListKey,
    method: string,
    revision: string | undefined,
  ): string {
    const end = Math.min(items.length, start + pageSize);
    // Entries that keep their own text (tools) are joined per request, not kept twice.
    if (start % pageSize !== 0 || items[start]?.wireParts !== undefined) {
      return pageText(items, start, end, key, method, revision);
    }
    let texts = this.pages.get(items);
    if (texts === undefined) this.pages.set(items, (texts = new Map()));
    const at = `${revision}|${start}|${pageSize}`;
    let text = texts.get(at);
    if (text === undefined) {
      text = pageText(items, start, end, key, method, revision);
      texts.set(at, text);
    }
    return text;
  }

  private cache(key: ListKey): ListCache {
    let c = this.lists.get(key);
    if (!c) {
      const all: Visible[] = [];
      const ruled: { index: number; check: VisibilityCheck }[] = [];
      for (const e of this.sources[key].values()) {
        const check = e.listed ?? e.visible;
        if (check !== undefined) ruled.push({ index: all.length, check });
        all.push(e);
      }
      c = { all, ruled, subsets: new Map() };
      this.lists.set(key, c);
    }
    return c;
  }
}

/**
 * The JSON text of `items[start..end)` as the list `key` of `method` holds them in
 * `revision` (an entry the revision shapes, dropping a field it does not define, in its
 * shaped form).
 */
export function pageText(
  items: readonly Visible[],
  start: number,
  end: number,
  key: ListKey,
  method: string,
  revision: string | undefined,
): string {
  const shapes = revision !== undefined && shapesResult(method, revision);
  if (items[start]?.wireParts !== undefined) {
    const shape = shapes
      ? (item: Record<string, unknown>) =>
          (shapeResult(method, revision, { [key]: [item] })[key] as Record<string, unknown>[])[0]!
      : undefined;
    const parts: string[] = ['['];
    for (let i = start; i < end; i++) {
      if (i > start) parts.push(',');
      items[i]!.wireParts!(parts, shape);
    }
    parts.push(']');
    return parts.join('');
  }
  const page: unknown[] = new Array<unknown>(end - start);
  for (let i = start; i < end; i++) page[i - start] = items[i]!.wire;
  const shaped = shapes ? shapeResult(method, revision, { [key]: page })[key] : page;
  return JSON.stringify(shaped);
}

/**
 * Whether an entry exists for the caller with `authInfo`: registered, and visible to it.
 * Every lookup (call, read, get, complete) asks this one question, so a hidden item and a
 * missing one take the same path to the same error.
 */
export function exists<T extends Visible>(entry: T | undefined, authInfo: unknown): entry is T {
  return entry !== undefined && (entry.visible === undefined || entry.visible(callerOf(authInfo)));
}

/**
 * Who must hear that a list changed because of these entries (the one removed or replaced,
 * the one added): undefined for everyone (one of them has no rule), else the callers
 * passing one of their checks.
 */
export function audienceOf(...entries: Array<Visible | undefined>): VisibilityCheck[] | undefined {
  const checks: VisibilityCheck[] = [];
  for (const e of entries) {
    if (e === undefined) continue;
    const check = e.listed ?? e.visible;
    if (check === undefined) return undefined;
    checks.push(check);
  }
  return checks.length > 0 ? checks : undefined;
}
