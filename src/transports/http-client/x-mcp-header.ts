/**
 * `x-mcp-header` (2026-07-28): a tool's inputSchema may mark primitive parameters to be
 * mirrored into `Mcp-Param-{Name}` request headers. This file validates the annotations of
 * one tool and computes the headers of one call.
 */
import { encodeHeaderValue } from './header-values.js';
import { isObject } from '../../jsonrpc/is-object.js';

/** One annotated parameter: the header name part and the `properties` path to the value. */
export interface ParamHeader {
  readonly name: string;
  readonly path: readonly string[];
}

const ANNOTATION = 'x-mcp-header';
/** RFC 9110 `tchar`: the characters of a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Keywords whose value maps names to subschemas (the names are not keywords). */
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords whose value is a subschema or an array of subschemas. */
const SUBSCHEMAS: ReadonlySet<string> = new Set([
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
]);
const MAX_DEPTH = 64;
const MAX_NODES = 10_000;

class Walk {
  readonly found: ParamHeader[] = [];
  readonly seen = new Set<string>();
  problem: string | undefined;
  nodes = 0;

  visit(schema: unknown, path: string[] | null, depth: number): void {
    if (this.problem !== undefined || !isObject(schema)) return;
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) {
      this.problem = 'the inputSchema is too large or too deep to check for x-mcp-header';
      return;
    }
    if (Object.hasOwn(schema, ANNOTATION)) this.check(schema, path);
    for (const key of Object.keys(schema)) {
      const value = schema[key];
      if (key === 'properties' && isObject(value)) {
        for (const name of Object.keys(value)) {
          this.visit(value[name], path ? [...path, name] : null, depth + 1);
        }
      } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
        for (const name of Object.keys(value)) this.visit(value[name], null, depth + 1);
      } else if (SUBSCHEMAS.has(key)) {
        if (Array.isArray(value)) for (const v of value) this.visit(v, null, depth + 1);
        else this.visit(value, null, depth + 1);
      }
    }
  }

  private check(schema: Record<string, unknown>, path: string[] | null): void {
    const name = schema[ANNOTATION];
    const where = path === null ? 'a nested schema' : `property "${path.join('.')}"`;
    if (typeof name !== 'string' || !TOKEN.test(name)) {
      this.problem = `x-mcp-header on ${where} must be a non-empty HTTP token, got ${JSON.stringify(name)}`;
    } else if (path === null) {
      this.problem = `x-mcp-header "${name}" is not reachable from the root through "properties" alone`;
    } else if (path.length === 0) {
      this.problem = `x-mcp-header "${name}" is on the schema root, which is not a primitive parameter`;
    } else if (!isPrimitive(schema.type)) {
      this.problem = `x-mcp-header "${name}" on ${where} needs type string, integer or boolean, got ${JSON.stringify(schema.type)}`;
    } else if (this.seen.has(name.toLowerCase())) {
      this.problem = `x-mcp-header "${name}" is used twice (names are case-insensitive)`;
    } else {
      this.seen.add(name.toLowerCase());
      this.found.push({ name, path });
    }
  }
}

function isPrimitive(type: unknown): boolean {
  const types = Array.isArray(type) ? type.filter((t) => t !== 'null') : [type];
  return types.length > 0 && types.every((t) => PRIMITIVE_TYPES.has(t));
}

/**
 * Reads the `x-mcp-header` annotations of one tool's inputSchema. Returns the annotated
 * parameters, or a string saying why the tool definition is invalid (the client must then
 * leave the tool out of `tools/list`).
 *
 * @example
 * ```ts
 * readParamHeaders({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
 * // [{ name: 'Region', path: ['region'] }]
 * ```
 */
export function readParamHeaders(inputSchema: unknown): ParamHeader[] | string {
  const walk = new Walk();
  walk.visit(inputSchema, [], 0);
  return walk.problem ?? walk.found;
}

/** The header text of a parameter value; undefined when it has none (absent, null, not primitive). */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * Adds the `Mcp-Param-{Name}` headers of one `tools/call` to `headers`. Values that are
 * present but cannot be carried (a fraction, an object) are reported through `warn`.
 */
export function addParamHeaders(
  headers: Record<string, string>,
  params: readonly ParamHeader[],
  args: unknown,
  warn: (message: string) => void,
): void {
  for (const p of params) {
    let cur: unknown = args;
    for (const key of p.path) {
      cur = isObject(cur) && Object.hasOwn(cur, key) ? cur[key] : undefined;
    }
    if (cur === undefined || cur === null) continue;
    const text = paramHeaderText(cur);
    if (text === undefined) {
      warn(`Argument "${p.path.join('.')}" cannot be sent as Mcp-Param-${p.name}: ${typeof cur}`);
    } else {
      headers[`mcp-param-${p.name.toLowerCase()}`] = text;
    }
  }
}
