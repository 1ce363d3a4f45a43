/** Minimal shape checks on results, so a broken server fails loudly and locally. */
import { LocalError } from '../jsonrpc/index.js';

/** The member each method's result must have, and what it must be. */
const REQUIRED: ReadonlyMap<string, readonly [field: string, kind: 'array' | 'object']> = new Map([
  ['tools/list', ['tools', 'array']],
  ['tools/call', ['content', 'array']],
  ['resources/list', ['resources', 'array']],
  ['resources/templates/list', ['resourceTemplates', 'array']],
  ['resources/read', ['contents', 'array']],
  ['prompts/list', ['prompts', 'array']],
  ['prompts/get', ['messages', 'array']],
  ['completion/complete', ['completion', 'object']],
  ['server/discover', ['supportedVersions', 'array']],
]);

/**
 * Throws `InvalidResult` when a result lacks the member its method requires (for example
 * `tools/list` without a `tools` array), or has a `nextCursor` that is not a string.
 */
export function checkResultShape(method: string, result: Record<string, unknown>): void {
  const rule = REQUIRED.get(method);
  if (rule) {
    const [field, kind] = rule;
    const v = result[field];
    const ok = kind === 'array' ? Array.isArray(v) : typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!ok) {
      throw new LocalError(
        'InvalidResult',
        `The server's ${method} result has no ${field} ${kind === 'array' ? 'array' : 'object'}`,
      );
    }
  }
  const cursor = result.nextCursor;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') {
    throw new LocalError(
      'InvalidResult',
      `The server's ${method} result has a nextCursor that is not a string`,
    );
  }
}
