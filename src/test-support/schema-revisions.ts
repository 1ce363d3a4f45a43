/**
 * Test-only support: loads and indexes the official MCP `schema.json` of a protocol revision
 * (vendored, unmodified, under `test/fixtures/schema/<revision>/`) for `wire-schema.ts`.
 *
 * Each revision's schema is loaded and registered with Ajv on first use; each definition is
 * compiled the first time it is needed and then reused. The index says which definition
 * defines each method, which side sends it and as what, and which definitions pin each
 * error code.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

/** Which side sends a message. */
export type WireSender = 'client' | 'server';

export type JsonObject = Record<string, unknown>;

export interface MethodEntry {
  definition: string;
  kind?: 'request' | 'notification';
  senders: Set<WireSender>;
}

export interface ErrorEntry {
  definition: string;
  /** `message`: the definition describes the whole error response; `error`: only its `error`. */
  scope: 'message' | 'error';
}

export interface Revision {
  readonly revision: string;
  readonly id: string;
  readonly container: 'definitions' | '$defs';
  readonly defs: Readonly<Record<string, JsonObject>>;
  readonly ajv: Ajv;
  readonly validators: Map<string, ValidateFunction>;
  readonly methods: Map<string, MethodEntry>;
  readonly errors: Map<number, ErrorEntry[]>;
  readonly envelope: {
    readonly request: string;
    readonly notification: string;
    readonly result: string;
    readonly error: string;
    readonly batchRequest: string | undefined;
    readonly batchResponse: string | undefined;
  };
}

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const REVISION_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/** The unions that say which side sends which request or notification. */
const UNIONS: ReadonlyArray<[name: string, kind: 'request' | 'notification', sender: WireSender]> = [
  ['ClientRequest', 'request', 'client'],
  ['ServerRequest', 'request', 'server'],
  ['ClientNotification', 'notification', 'client'],
  ['ServerNotification', 'notification', 'server'],
];
const UNION_NAMES = new Set(UNIONS.map(([name]) => name));

/**
 * Requests whose result has no dedicated definition: they are answered with an empty result.
 * Every other request `FooRequest` is answered with `FooResult` (checked by the tests for
 * every request of every revision).
 */
const EMPTY_RESULT_METHODS = new Set([
  'ping',
  'resources/subscribe',
  'resources/unsubscribe',
  'logging/setLevel',
]);

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const addFormats = ajvFormats.default;

let fixtureRoot: string | undefined;

/** `test/fixtures/schema`, found by walking up from this file to the package root. */
export function schemaFixtureDir(): string {
  if (fixtureRoot !== undefined) return fixtureRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'fixtures', 'schema');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) {
      fixtureRoot = candidate;
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`wire-schema: cannot find test/fixtures/schema above ${import.meta.url}`);
    }
    dir = parent;
  }
}

/** The revisions that have a vendored `schema.json`, oldest first. */
export function schemaRevisions(): string[] {
  const dir = schemaFixtureDir();
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (e) => e.isDirectory() && REVISION_FORMAT.test(e.name) && existsSync(join(dir, e.name, 'schema.json')),
    )
    .map((e) => e.name)
    .sort();
}

const revisions = new Map<string, Revision>();

export function loadRevision(revision: string): Revision {
  const cached = revisions.get(revision);
  if (cached) return cached;
  const file = REVISION_FORMAT.test(revision) ? join(schemaFixtureDir(), revision, 'schema.json') : undefined;
  if (file === undefined || !existsSync(file)) {
    throw new Error(
      `wire-schema: no schema for revision ${JSON.stringify(revision)} ` +
        `(have: ${schemaRevisions().join(', ')})`,
    );
  }
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isObject(raw)) throw new Error(`wire-schema: ${file} is not a JSON object`);

  const dialect = typeof raw['$schema'] === 'string' ? raw['$schema'] : '';
  let ajv: Ajv;
  if (DRAFT_07.test(dialect)) {
    ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
  } else if (DRAFT_2020_12.test(dialect)) {
    ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  } else {
    throw new Error(`wire-schema: ${file} uses an unsupported $schema ${JSON.stringify(dialect)}`);
  }
  addFormats(ajv);

  const container = isObject(raw['$defs'])
    ? '$defs'
    : isObject(raw['definitions'])
      ? 'definitions'
      : undefined;
  if (container === undefined) throw new Error(`wire-schema: ${file} has no definitions`);
  const defs = raw[container] as Record<string, JsonObject>;

  // The files have no $id; give the in-memory copy one so definitions can be referenced as
  // `<id>#/<container>/<Name>`. Their own refs (`#/...`) resolve against it.
  const id = `https://mcpkit.invalid/test-fixtures/schema/${revision}/schema.json`;
  ajv.addSchema({ ...raw, $id: id });

  const pick = (...names: string[]): string | undefined => names.find((n) => n in defs);
  const need = (...names: string[]): string => {
    const found = pick(...names);
    if (found === undefined) throw new Error(`wire-schema: ${file} has none of ${names.join('/')}`);
    return found;
  };

  const loaded: Revision = {
    revision,
    id,
    container,
    defs,
    ajv,
    validators: new Map(),
    methods: indexMethods(defs),
    errors: indexErrors(defs),
    envelope: {
      request: need('JSONRPCRequest'),
      notification: need('JSONRPCNotification'),
      // Up to 2025-06-18 `JSONRPCResponse` is the result response; later it is the union
      // of `JSONRPCResultResponse` and `JSONRPCErrorResponse`.
      result: need('JSONRPCResultResponse', 'JSONRPCResponse'),
      error: need('JSONRPCErrorResponse', 'JSONRPCError'),
      batchRequest: pick('JSONRPCBatchRequest'),
      batchResponse: pick('JSONRPCBatchResponse'),
    },
  };
  revisions.set(revision, loaded);
  return loaded;
}

/** Follows a local `$ref` (`#/definitions/X` or `#/$defs/X`) to its definition name. */
export function refName(schema: unknown): string | undefined {
  if (!isObject(schema) || typeof schema['$ref'] !== 'string') return undefined;
  const m = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(schema['$ref']);
  return m?.[1];
}

function methodConst(def: unknown): string | undefined {
  if (!isObject(def) || !isObject(def['properties'])) return undefined;
  const method = def['properties']['method'];
  return isObject(method) && typeof method['const'] === 'string' ? method['const'] : undefined;
}

function indexMethods(defs: Readonly<Record<string, JsonObject>>): Map<string, MethodEntry> {
  const methods = new Map<string, MethodEntry>();
  // Every definition that pins `method` defines that method. A union with a single member
  // may be emitted inlined (2026-07-28 `ClientNotification` is a copy of
  // `CancelledNotification`): prefer the named definition over the union's copy.
  for (const [name, def] of Object.entries(defs)) {
    const method = methodConst(def);
    if (method === undefined) continue;
    const existing = methods.get(method);
    if (existing === undefined) {
      methods.set(method, { definition: name, senders: new Set() });
    } else if (UNION_NAMES.has(existing.definition) && !UNION_NAMES.has(name)) {
      existing.definition = name;
    }
  }
  // The unions say which methods are sent on the wire, by whom, and as what.
  for (const [unionName, kind, sender] of UNIONS) {
    const union = defs[unionName];
    if (union === undefined) continue;
    const members = Array.isArray(union['anyOf']) ? (union['anyOf'] as unknown[]) : [union];
    for (const member of members) {
      const target = refName(member);
      const method = methodConst(target === undefined ? member : defs[target]);
      const entry = method === undefined ? undefined : methods.get(method);
      if (entry === undefined) continue;
      entry.kind = kind;
      entry.senders.add(sender);
    }
  }
  return methods;
}

/** The `code` an error definition pins, looking through `allOf`. */
function codeConst(schema: unknown): number | undefined {
  if (!isObject(schema)) return undefined;
  const props = schema['properties'];
  if (isObject(props) && isObject(props['code']) && typeof props['code']['const'] === 'number') {
    return props['code']['const'];
  }
  if (Array.isArray(schema['allOf'])) {
    for (const part of schema['allOf'] as unknown[]) {
      const code = codeConst(part);
      if (code !== undefined) return code;
    }
  }
  return undefined;
}

function indexErrors(defs: Readonly<Record<string, JsonObject>>): Map<number, ErrorEntry[]> {
  const errors = new Map<number, ErrorEntry[]>();
  for (const [name, def] of Object.entries(defs)) {
    if (!name.endsWith('Error')) continue;
    const props = def['properties'];
    let entry: ErrorEntry | undefined;
    let code: number | undefined;
    if (isObject(props) && 'error' in props) {
      code = codeConst(props['error']);
      entry = { definition: name, scope: 'message' };
    } else {
      code = codeConst(def);
      entry = { definition: name, scope: 'error' };
    }
    if (code === undefined) continue;
    errors.set(code, [...(errors.get(code) ?? []), entry]);
  }
  return errors;
}

export function validatorFor(rev: Revision, definition: string): ValidateFunction {
  let validate = rev.validators.get(definition);
  if (validate === undefined) {
    if (!(definition in rev.defs)) {
      throw new Error(`wire-schema: ${rev.revision} has no definition ${definition}`);
    }
    const ref = `${rev.id}#/${rev.container}/${definition}`;
    validate = rev.ajv.getSchema(ref);
    if (validate === undefined) throw new Error(`wire-schema: cannot compile ${ref}`);
    rev.validators.set(definition, validate);
  }
  return validate;
}

/** The result definition that answers `method` in `rev` (see EMPTY_RESULT_METHODS). */
export function resultDefinition(rev: Revision, method: string): string | undefined {
  const entry = rev.methods.get(method);
  if (entry === undefined) return undefined;
  if (EMPTY_RESULT_METHODS.has(method)) {
    return ['EmptyResult', 'Result'].find((n) => n in rev.defs);
  }
  const m = /^(.+)Request$/.exec(entry.definition);
  const name = m ? `${m[1]}Result` : undefined;
  return name !== undefined && name in rev.defs ? name : undefined;
}
