import { WireError } from '../jsonrpc/index.js';
import { describeJsonError } from '../jsonrpc/json-position.js';
import { CliFailure, ExitCode } from './exit-codes.js';

/**
 * Turns `key=value` words into tool arguments, coercing each value to the type the tool's
 * input schema gives that property: numbers, integers, booleans, and JSON for objects and
 * arrays. Unknown keys are kept as strings; the server's own validation has the last word.
 */
export function coerceArguments(
  words: readonly string[],
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new CliFailure(`Argument "${word}" is not key=value`, ExitCode.Usage);
    const key = word.slice(0, eq);
    const raw = word.slice(eq + 1);
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    const type = Array.isArray(prop?.type) ? prop.type.find((t) => t !== 'null') : prop?.type;
    out[key] = coerce(key, raw, typeof type === 'string' ? type : undefined);
  }
  return out;
}

function coerce(key: string, raw: string, type: string | undefined): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) {
        throw new CliFailure(
          `${key} must be ${type === 'integer' ? 'an integer' : 'a number'}, not "${raw}"`,
          ExitCode.Usage,
        );
      }
      return n;
    }
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      throw new CliFailure(`${key} must be true or false, not "${raw}"`, ExitCode.Usage);
    case 'object':
    case 'array':
      try {
        return JSON.parse(raw);
      } catch {
        throw new CliFailure(`${key} must be JSON (an ${type}), not "${raw}"`, ExitCode.Usage);
      }
    default:
      return raw;
  }
}

/** Parses `--args JSON`, which must be an object. */
export function parseArgsJson(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new CliFailure(`--args is not valid JSON: ${describeJsonError(text, e)}`, ExitCode.Usage);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new CliFailure('--args must be a JSON object', ExitCode.Usage);
  return v as Record<string, unknown>;
}

/** A one-line description of an error from the server or the connection. */
export function describeError(e: unknown): string {
  if (e instanceof WireError) return `server error ${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
