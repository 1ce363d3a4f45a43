/**
 * Runtime warnings for deprecated features (SEP-2596: implementations SHOULD warn when a
 * deprecated feature is exercised, with the language's idiomatic mechanism). Each id warns
 * once per process. Browser-safe: `process.emitWarning` when there is one, else `console.warn`.
 */

let silenced = false;
const warned = new Set<string>();

interface WarningProcess {
  env?: Record<string, string | undefined>;
  emitWarning?: (message: string, options: { type: string; code: string }) => void;
}

function nodeProcess(): WarningProcess | undefined {
  const p = (globalThis as { process?: WarningProcess }).process;
  return typeof p === 'object' && p !== null ? p : undefined;
}

/**
 * Warns once per process that the feature `id` is deprecated. Silenced by
 * {@link silenceDeprecations} or the environment variable `MCPKIT_NO_DEPRECATION=1`.
 *
 * @example
 * ```ts
 * warnDeprecated('dynamic-client-registration', 'use a Client ID Metadata Document instead');
 * ```
 */
export function warnDeprecated(id: string, message: string): void {
  if (silenced || warned.has(id)) return;
  warned.add(id);
  const p = nodeProcess();
  if (p?.env?.MCPKIT_NO_DEPRECATION === '1') return;
  const text = `mcpkit: ${id} is deprecated: ${message}`;
  if (typeof p?.emitWarning === 'function') {
    p.emitWarning(text, {
      type: 'DeprecationWarning',
      code: `MCPKIT_DEP_${id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`,
    });
  } else {
    console.warn(text);
  }
}

/**
 * Turns every deprecation warning of {@link warnDeprecated} off for this process.
 *
 * @example
 * ```ts
 * silenceDeprecations();
 * ```
 */
export function silenceDeprecations(): void {
  silenced = true;
}
