/**
 * The interpreting validator behind the JSON Schema seam: @cfworker/json-schema walks the
 * schema for each value, so it works where code generation from strings is refused
 * (Cloudflare Workers, CSP-locked pages). Its findings are reworded as Ajv words them, so a
 * tool's error result reads the same whichever validator produced it.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import type {
  JsonSchemaCheck,
  JsonSchemaCompileOptions,
  JsonSchemaDialect,
  JsonSchemaIssue,
  JsonSchemaValidator,
} from './json-schema-validator.js';

const DRAFTS: Record<JsonSchemaDialect, SchemaDraft> = {
  '2020-12': '2020-12',
  '2019-09': '2019-09',
  'draft-07': '7',
};

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);

// Where subschemas sit, so `format` is removed only where it is a keyword, not a property name.
const ONE = ['additionalItems', 'unevaluatedItems', 'items', 'contains', 'additionalProperties'];
const ONE_MORE = ['unevaluatedProperties', 'propertyNames', 'not', 'if', 'then', 'else'];
const SINGLE = new Set([...ONE, ...ONE_MORE]);
const ARRAYS = new Set(['prefixItems', 'items', 'allOf', 'anyOf', 'oneOf']);
const MAPS = new Set(['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas']);

/** Calls `visit` on every subschema (the root included). */
function eachSchema(schema: unknown, visit: (s: Node) => void): void {
  if (!isNode(schema)) return;
  visit(schema);
  for (const [key, sub] of Object.entries(schema)) {
    if (ARRAYS.has(key) && Array.isArray(sub)) for (const s of sub) eachSchema(s, visit);
    else if (MAPS.has(key) && isNode(sub)) for (const s of Object.values(sub)) eachSchema(s, visit);
    else if (SINGLE.has(key)) eachSchema(sub, visit);
  }
}

const unescape = (segment: string) => decodeURI(segment).replace(/~1/g, '/').replace(/~0/g, '~');

/** The schema value a cfworker keywordLocation (`#/properties/a/$ref/type`) points at. */
function at(root: Schema, lookup: Record<string, unknown>, location: string): unknown {
  let node: unknown = root;
  for (const raw of location.split('/').slice(1)) {
    if (raw === '$ref' && isNode(node)) {
      const target = (node as { __absolute_ref__?: string }).__absolute_ref__;
      node = target === undefined ? undefined : lookup[target];
      continue;
    }
    const key = unescape(raw);
    node = isNode(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

const quoted = (error: string) => /"((?:[^"\\]|\\.)*)"/.exec(error)?.[1] ?? '';
const path = (location: string) => location.slice(1); // '#/a/b' -> '/a/b'

/** Rewords one cfworker finding the way Ajv words it; undefined for a container finding. */
function reword(unit: OutputUnit, schemaAt: (loc: string) => unknown): JsonSchemaIssue | undefined {
  const instancePath = path(unit.instanceLocation);
  const value = schemaAt(unit.keywordLocation);
  const issue = (message: string, params: Record<string, unknown> = {}): JsonSchemaIssue => ({
    instancePath,
    keyword: unit.keyword,
    message,
    params,
  });
  switch (unit.keyword) {
    case 'type': {
      const type = Array.isArray(value) ? value.join(',') : String(value);
      return issue(`must be ${type}`, { type: value });
    }
    case 'required': {
      const missingProperty = quoted(unit.error);
      return issue(`must have required property '${missingProperty}'`, { missingProperty });
    }
    case 'const':
      return issue('must be equal to constant', { allowedValue: value });
    case 'enum':
      return issue('must be equal to one of the allowed values', { allowedValues: value });
    case 'minimum':
      return issue(`must be >= ${String(value)}`, { comparison: '>=', limit: value });
    case 'maximum':
      return issue(`must be <= ${String(value)}`, { comparison: '<=', limit: value });
    case 'exclusiveMinimum':
      return issue(`must be > ${String(value)}`, { comparison: '>', limit: value });
    case 'exclusiveMaximum':
      return issue(`must be < ${String(value)}`, { comparison: '<', limit: value });
    case 'multipleOf':
      return issue(`must be multiple of ${String(value)}`, { multipleOf: value });
    case 'minLength':
      return issue(`must NOT have fewer than ${String(value)} characters`, { limit: value });
    case 'maxLength':
      return issue(`must NOT have more than ${String(value)} characters`, { limit: value });
    case 'pattern':
      return issue(`must match pattern "${String(value)}"`, { pattern: value });
    case 'format':
      return issue(`must match format "${String(value)}"`, { format: value });
    case 'minItems':
      return issue(`must NOT have fewer than ${String(value)} items`, { limit: value });
    case 'maxItems':
      return issue(`must NOT have more than ${String(value)} items`, { limit: value });
    case 'minProperties':
      return issue(`must NOT have fewer than ${String(value)} properties`, { limit: value });
    case 'maxProperties':
      return issue(`must NOT have more than ${String(value)} properties`, { limit: value });
    case 'uniqueItems': {
      const [i, j] = /(\d+) and (\d+)/.exec(unit.error)?.slice(1).map(Number) ?? [0, 0];
      return issue(`must NOT have duplicate items (items ## ${j} and ${i} are identical)`, { i, j });
    }
    case 'not':
      return issue('must NOT be valid');
    case 'anyOf':
      return issue('must match a schema in anyOf');
    case 'oneOf':
      return issue('must match exactly one schema in oneOf');
    case 'if':
      return issue(`must match "${/"else"/.test(unit.error) ? 'else' : 'then'}" schema`, {
        failingKeyword: /"else"/.test(unit.error) ? 'else' : 'then',
      });
    case 'contains':
    case 'minContains':
      return { ...issue('must contain at least 1 valid item(s)'), keyword: 'contains' };
    case 'maxContains':
      return { ...issue('must contain at most 1 valid item(s)'), keyword: 'contains' };
    case 'dependentRequired':
    case 'dependencies': {
      const [a, b] = [...unit.error.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
      if (b === undefined) return undefined; // a dependent schema: its own findings follow
      return issue(`must have property ${b} when property ${a} is present`, {
        property: a,
        missingProperty: b,
      });
    }
    case 'false':
      return { ...issue('boolean schema is false'), keyword: 'false schema' };
    default:
      // properties, items, $ref, allOf, ...: containers whose findings follow them.
      return undefined;
  }
}

/** Walks cfworker's findings: keeps the leaves, and folds `false` subschemas as Ajv reports them. */
function issuesOf(units: readonly OutputUnit[], schemaAt: (loc: string) => unknown): JsonSchemaIssue[] {
  const issues: JsonSchemaIssue[] = [];
  const folded = new Set<string>();
  for (let n = 0; n < units.length; n++) {
    const unit = units[n]!;
    const next = units[n + 1];
    const closed = schemaAt(unit.keywordLocation) === false && next?.keyword === 'false';
    if (closed) {
      n++; // the `false` finding is the one folded here
      const instancePath = path(unit.instanceLocation);
      if (unit.keyword === 'additionalProperties' || unit.keyword === 'unevaluatedProperties') {
        const property = quoted(unit.error);
        const additional = unit.keyword === 'additionalProperties';
        issues.push({
          instancePath,
          keyword: unit.keyword,
          message: `must NOT have ${additional ? 'additional' : 'unevaluated'} properties`,
          params: additional ? { additionalProperty: property } : { unevaluatedProperty: property },
        });
        continue;
      }
      if (
        unit.keyword === 'additionalItems' ||
        unit.keyword === 'items' ||
        unit.keyword === 'unevaluatedItems'
      ) {
        // One finding per array, as Ajv gives: the first item past the allowed ones.
        const key = `${unit.keywordLocation}|${unit.instanceLocation}`;
        if (folded.has(key)) continue;
        folded.add(key);
        const limit = Number(next.instanceLocation.slice(next.instanceLocation.lastIndexOf('/') + 1));
        issues.push({
          instancePath,
          keyword: unit.keyword,
          message: `must NOT have more than ${limit} items`,
          params: { limit },
        });
        continue;
      }
      n--; // not a folding keyword: let the `false` finding speak for itself
    }
    const issue = reword(unit, schemaAt);
    if (issue) issues.push(issue);
  }
  return issues;
}

/** Throws Ajv's message for a `$ref` that points nowhere known (remote ones are never fetched). */
function checkRefs(root: Node, lookup: Record<string, unknown>): void {
  const base = typeof root.$id === 'string' ? root.$id : '#';
  eachSchema(root, (s) => {
    const ref = s.$ref;
    if (typeof ref !== 'string') return;
    const target = (s as { __absolute_ref__?: string }).__absolute_ref__;
    if (target === undefined || lookup[target] === undefined) {
      throw new Error(`can't resolve reference ${ref} from id ${base}`);
    }
  });
}

/** @cfworker/json-schema, reworded as Ajv; needs no code generation. */
export const interpretingValidator: JsonSchemaValidator = {
  name: '@cfworker/json-schema',
  compile(schema: Record<string, unknown>, options: JsonSchemaCompileOptions): JsonSchemaCheck {
    // A copy: cfworker marks the schemas it is given, and the listed schema stays verbatim.
    const copy = structuredClone(schema) as Node;
    delete copy.$schema;
    if (!options.formats) eachSchema(copy, (s) => delete s.format);
    const validator = new Validator(copy as Schema, DRAFTS[options.dialect], !options.allErrors);
    const lookup = (validator as unknown as { lookup: Record<string, unknown> }).lookup;
    checkRefs(copy, lookup);
    const schemaAt = (loc: string) => at(copy as Schema, lookup, loc);
    return (value) => {
      let units: readonly OutputUnit[];
      try {
        const r = validator.validate(value);
        if (r.valid) return { ok: true };
        units = r.errors;
      } catch (e) {
        // A value JSON cannot hold (undefined, a function): not a JSON Schema instance at all.
        return { ok: false, issues: [{ instancePath: '', keyword: 'type', message: (e as Error).message }] };
      }
      const issues = issuesOf(units, schemaAt);
      if (issues.length === 0) issues.push({ instancePath: '', keyword: 'schema', message: 'is invalid' });
      return { ok: false, issues: options.allErrors ? issues : issues.slice(0, 1) };
    };
  },
};
