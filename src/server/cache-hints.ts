/**
 * The cache hints (SEP-2549: `ttlMs`, `cacheScope`) a server puts on its list and read
 * results. The session adds `ttlMs: 0, cacheScope: 'private'` to any modern result still
 * without them, so a server that says nothing is never cached.
 */

/** How long a result stays fresh, and who may cache it. */
export interface CacheHint {
  /** Milliseconds the client may reuse the result without asking again (0: not at all). */
  ttlMs: number;
  /** `public`: the same for every user, shared caches may keep it; `private`: this user's only. */
  scope: 'public' | 'private';
}

/** The methods whose results carry cache hints. */
export type CacheableMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read';

/**
 * A server's cache hints: one for every cacheable result, and any method's own. A read
 * handler that returns `ttlMs` or `cacheScope` itself keeps them.
 *
 * @example
 * ```ts
 * const server = new McpServer(
 *   { name: 'docs', version: '1.0.0' },
 *   {
 *     cache: {
 *       ttlMs: 0,
 *       scope: 'private',
 *       methods: { 'tools/list': { ttlMs: 300_000, scope: 'public' } },
 *     },
 *   },
 * );
 * ```
 */
export interface CacheHints extends CacheHint {
  methods?: Partial<Record<CacheableMethod, CacheHint>>;
}

function checked(hint: CacheHint, where: string): CacheHint {
  if (!(typeof hint.ttlMs === 'number' && hint.ttlMs >= 0 && Number.isFinite(hint.ttlMs))) {
    throw new RangeError(`${where}: ttlMs must be a number of at least 0`);
  }
  if (hint.scope !== 'public' && hint.scope !== 'private') {
    throw new RangeError(`${where}: scope must be 'public' or 'private'`);
  }
  return hint;
}

/** The hint of each cacheable method, resolved once. */
export function cacheHintsByMethod(hints: CacheHints | undefined): ReadonlyMap<string, CacheHint> {
  const out = new Map<string, CacheHint>();
  if (!hints) return out;
  const all = checked(hints, 'cache');
  for (const m of [
    'tools/list',
    'prompts/list',
    'resources/list',
    'resources/templates/list',
    'resources/read',
  ] as const) {
    const own = hints.methods?.[m];
    out.set(m, own ? checked(own, `cache.methods['${m}']`) : all);
  }
  return out;
}

/** Puts a method's hint on a result, leaving any the handler set itself. */
export function withCacheHint(
  hints: ReadonlyMap<string, CacheHint>,
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> {
  const hint = hints.get(method);
  if (hint) {
    if (typeof result.ttlMs !== 'number') result.ttlMs = hint.ttlMs;
    if (result.cacheScope !== 'public' && result.cacheScope !== 'private') result.cacheScope = hint.scope;
  }
  return result;
}

/** The list method of each list a server keeps. */
export const LIST_METHOD: Readonly<Record<string, CacheableMethod>> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};
