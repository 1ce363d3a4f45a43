/**
 * Runtime deprecation warnings (SEP-2596: Tier 1 SDKs warn when a deprecated feature is
 * exercised). One warning per process per feature, so a busy server does not flood its
 * logs. Runs anywhere: `process` is used only when it exists (browsers and Workers fall back
 * to `console.warn`), and nothing here imports a `node:` module.
 */

const warned = new Set<string>();
let silenced = false;

interface ProcessLike {
  env?: Record<string, string | undefined>;
  emitWarning?: (message: string, options: { type: string; code: string }) => void;
}

function processLike(): ProcessLike | undefined {
  const p = (globalThis as { process?: ProcessLike }).process;
  return typeof p === 'object' && p !== null ? p : undefined;
}

/**
 * Warns, once per process for each `id`, that a deprecated MCP feature is in use: through
 * `process.emitWarning` (type `DeprecationWarning`, code `MCPKIT_DEP_<ID>`) where there is
 * a `process`, else `console.warn`. Silenced by the environment variable
 * `MCPKIT_NO_DEPRECATION=1` or by {@link silenceDeprecations}; Node's own
 * `--no-deprecation` silences `emitWarning` too.
 *
 * @example
 * ```ts
 * warnDeprecated('roots', 'Roots are deprecated (SEP-2577); pass paths as tool parameters.');
 * ```
 */
export function warnDeprecated(id: string, message: string): void {
  if (silenced || warned.has(id)) return;
  warned.add(id);
  const p = processLike();
  if (p?.env?.MCPKIT_NO_DEPRECATION === '1') return;
  const code = `MCPKIT_DEP_${id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
  if (typeof p?.emitWarning === 'function') p.emitWarning(message, { type: 'DeprecationWarning', code });
  else console.warn(`DeprecationWarning [${code}]: ${message}`);
}

/**
 * Turns off every later deprecation warning of this process (for example in a host that
 * knowingly keeps a deprecated feature for old servers). Exported from `mcpkit/advanced`.
 *
 * @example
 * ```ts
 * silenceDeprecations();
 * ```
 */
export function silenceDeprecations(): void {
  silenced = true;
}
