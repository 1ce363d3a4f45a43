/**
 * Which JavaScript runtime runs the Node build. Bun and Deno take a package's `node` export
 * condition when it has no `bun` or `deno` one (a bundler may pick the Node build as well),
 * and their Node compatibility stops short of undici's dispatcher on Bun. Internal.
 */

/** `bun` or `deno` when one of them runs this code, `undefined` on Node. */
export function nonNodeRuntime(): 'bun' | 'deno' | undefined {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  if (g.Bun !== undefined) return 'bun';
  if (g.Deno !== undefined) return 'deno';
  return undefined;
}
