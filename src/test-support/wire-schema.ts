/**
 * Test-only support: checks JSON-RPC messages against the official MCP `schema.json` of a
 * protocol revision (vendored, unmodified, under `test/fixtures/schema/<revision>/`).
 *
 * Each revision's schema is loaded and registered with Ajv on first use; each definition is
 * compiled the first time it is needed and then reused.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

/** Which side sends a message. */
export type WireSender = 'client' | 'server';

export interface WireCheckOptions {
  /** For a result response: the method of the request it answers (e.g. `tools/call`). */
  respondingTo?: string;
  /** Who emits the message; when given, the method must be one that side sends. */
  sender?: WireSender;
}

/** How a method appears on the wire in one revision, as the schema's unions define it. */
export interface WireMethod {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  /** The schema definition of the whole message (e.g. `CallToolRequest`). */
  readonly definition: string;
  /** The sides that send it (from `ClientRequest`, `ServerNotification`, ...). */
  readonly senders: readonly WireSender[];
}

type JsonObject = Record<string, unknown>;

interface MethodEntry {
  definition: string;
  kind?: 'request' | 'notification';
  senders: Set<WireSender>;
}

interface ErrorEntry {
  definition: string;
  /** `message`: the definition describes the whole error response; `error`: only its `error`. */
  scope: 'message' | 'error';
}

interface Revision {
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

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

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

function loadRevision(revision: string): Revision {
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
function refName(schema: unknown): string | undefined {
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

function validatorFor(rev: Revision, definition: string): ValidateFunction {
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

function describe(error: ErrorObject, basePath: string, via: readonly string[]): string {
  const where = `${basePath}${error.instancePath}` || '/';
  const p = error.params as Record<string, unknown>;
  let detail = error.message ?? error.keyword;
  if (error.keyword === 'additionalProperties') detail += ` (${String(p['additionalProperty'])})`;
  else if (error.keyword === 'const') detail += ` ${JSON.stringify(p['allowedValue'])}`;
  else if (error.keyword === 'enum') detail += `: ${JSON.stringify(p['allowedValues'])}`;
  return via.length > 0 ? `${where} ${detail} (as ${via.join(' > ')})` : `${where} ${detail}`;
}

/** Keywords that do not constrain a value. */
const ANNOTATIONS = new Set(['anyOf', 'description', 'title', '$comment']);

interface UnionMember {
  readonly validate: ValidateFunction;
  /** The definition name, for a `$ref` member. */
  readonly name: string | undefined;
}

const inlineMembers = new WeakMap<object, ValidateFunction>();

/** A validator for one `anyOf` member, compiled (once) with its local refs made absolute. */
function memberValidator(rev: Revision, member: object): ValidateFunction {
  const name = refName(member);
  if (name !== undefined && name in rev.defs) return validatorFor(rev, name);
  let validate = inlineMembers.get(member);
  if (validate === undefined) {
    const text = JSON.stringify(member).replaceAll('"$ref":"#/', `"$ref":"${rev.id}#/`);
    validate = rev.ajv.compile(JSON.parse(text) as JsonObject);
    inlineMembers.set(member, validate);
  }
  return validate;
}

/** The JSON type of a value, as JSON Schema names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The declared `type` of a member (looking through a `$ref`), if any. */
function declaredTypes(rev: Revision, member: JsonObject): string[] | undefined {
  const name = refName(member);
  const schema = name !== undefined ? rev.defs[name] : member;
  const type = schema?.['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : undefined;
}

/** The `const` a member pins on property `key` (looking through a `$ref`), if any. */
function pinned(rev: Revision, member: JsonObject, key: string): unknown {
  const name = refName(member);
  const schema = name !== undefined ? rev.defs[name] : member;
  const prop = isObject(schema?.['properties']) ? schema['properties'][key] : undefined;
  return isObject(prop) ? prop['const'] : undefined;
}

/**
 * For a failed `anyOf` (`ContentBlock`, `ElicitRequest.params`, ...), the member the value
 * was meant to be: the one whose `type`/`method` constant matches, else the only one whose
 * JSON type fits, else the one with the fewest errors.
 */
function intendedMember(rev: Revision, error: ErrorObject): UnionMember | undefined {
  if (error.keyword !== 'anyOf' || !Array.isArray(error.schema)) return undefined;
  const parent = error.parentSchema;
  if (!isObject(parent) || Object.keys(parent).some((k) => !ANNOTATIONS.has(k))) return undefined;
  let members = (error.schema as unknown[]).filter(isObject);
  if (members.length === 0) return undefined;
  const data = error.data;
  const pick = (member: JsonObject): UnionMember => ({
    validate: memberValidator(rev, member),
    name: refName(member),
  });
  if (isObject(data)) {
    for (const key of ['type', 'method']) {
      const match = members.find((m) => typeof data[key] === 'string' && pinned(rev, m, key) === data[key]);
      if (match !== undefined) return pick(match);
    }
  }
  const type = jsonType(data);
  const fitting = members.filter((m) => {
    const types = declaredTypes(rev, m);
    return types === undefined || types.includes(type) || (type === 'integer' && types.includes('number'));
  });
  if (fitting.length === 1 && fitting[0] !== undefined) return pick(fitting[0]);
  if (fitting.length > 1) members = fitting;
  let best: UnionMember | undefined;
  let fewest = Infinity;
  for (const member of members) {
    const candidate = pick(member);
    const count = candidate.validate(data) ? 0 : (candidate.validate.errors?.length ?? 0);
    if (count < fewest) [best, fewest] = [candidate, count];
  }
  return best;
}

/**
 * Readable problems for `value` against a compiled definition. Ajv reports every member of
 * a failed union; this keeps only the errors of the member the value was meant to be.
 */
function explain(
  rev: Revision,
  validate: ValidateFunction,
  value: unknown,
  basePath: string,
  via: readonly string[],
): string[] {
  if (validate(value)) return [];
  // Copy: validating union members below may reuse (and reset) this function's errors.
  let remaining = [...(validate.errors ?? [])];
  const unions = remaining
    .filter((e) => e.keyword === 'anyOf')
    .sort((a, b) => a.instancePath.length - b.instancePath.length);
  const narrowed: string[] = [];
  for (const union of unions) {
    if (!remaining.includes(union)) continue;
    const member = intendedMember(rev, union);
    if (member === undefined) continue;
    const path = union.instancePath;
    const label = member.name === undefined ? via : [...via, member.name];
    const inner = explain(rev, member.validate, union.data, basePath + path, label);
    if (inner.length === 0) continue;
    remaining = remaining.filter((e) => e.instancePath !== path && !e.instancePath.startsWith(`${path}/`));
    narrowed.push(...inner);
  }
  return [...remaining.map((e) => describe(e, basePath, via)), ...narrowed];
}

function check(
  rev: Revision,
  definition: string,
  value: unknown,
  basePath: string,
  problems: string[],
): boolean {
  const found = explain(rev, validatorFor(rev, definition), value, basePath, []);
  for (const text of new Set(found)) problems.push(`${definition}: ${text}`);
  return found.length === 0;
}

/**
 * The result definition that answers `method` in `revision` (e.g. `tools/call` →
 * `CallToolResult`), or undefined when the revision has no such request.
 */
export function resultDefinitionFor(revision: string, method: string): string | undefined {
  const rev = loadRevision(revision);
  return resultDefinition(rev, method);
}

function resultDefinition(rev: Revision, method: string): string | undefined {
  const entry = rev.methods.get(method);
  if (entry === undefined) return undefined;
  if (EMPTY_RESULT_METHODS.has(method)) {
    return ['EmptyResult', 'Result'].find((n) => n in rev.defs);
  }
  const m = /^(.+)Request$/.exec(entry.definition);
  const name = m ? `${m[1]}Result` : undefined;
  return name !== undefined && name in rev.defs ? name : undefined;
}

/** Whether `method` may be answered with `input_required` (2026-07-28 and later). */
function allowsInputRequired(rev: Revision, resultDef: string): boolean {
  // `FooResultResponse.result` is `anyOf [InputRequiredResult, FooResult]` for those methods.
  const response = rev.defs[`${resultDef}Response`];
  const result = isObject(response?.['properties'])
    ? (response['properties'] as JsonObject)['result']
    : undefined;
  return (
    isObject(result) &&
    Array.isArray(result['anyOf']) &&
    (result['anyOf'] as unknown[]).some((s) => refName(s) === 'InputRequiredResult')
  );
}

/** Whether the request's params accept `task` (task-augmented execution, 2025-11-25). */
function acceptsTask(rev: Revision, requestDef: string): boolean {
  const seen = new Set<string>();
  const walk = (schema: unknown): boolean => {
    if (!isObject(schema)) return false;
    const target = refName(schema);
    if (target !== undefined) {
      if (seen.has(target)) return false;
      seen.add(target);
      return walk(rev.defs[target]);
    }
    if (isObject(schema['properties']) && 'task' in schema['properties']) return true;
    const branches = [schema['anyOf'], schema['oneOf'], schema['allOf']];
    return branches.some((b) => Array.isArray(b) && (b as unknown[]).some(walk));
  };
  const params = (rev.defs[requestDef]?.['properties'] as JsonObject | undefined)?.['params'];
  return walk(params);
}

/** The methods sent as JSON-RPC requests or notifications in `revision`. */
export function wireMethods(revision: string): WireMethod[] {
  const rev = loadRevision(revision);
  const out: WireMethod[] = [];
  for (const [method, entry] of rev.methods) {
    if (entry.kind === undefined) continue;
    out.push({
      method,
      kind: entry.kind,
      definition: entry.definition,
      senders: [...entry.senders].sort(),
    });
  }
  return out.sort((a, b) => a.method.localeCompare(b.method));
}

/** Validates `value` against one named definition of `revision` (e.g. `CallToolResult`). */
export function validateDefinition(revision: string, definition: string, value: unknown): string[] {
  const problems: string[] = [];
  check(loadRevision(revision), definition, value, '', problems);
  return problems;
}

/**
 * Checks one JSON-RPC message (or, where the revision has them, a batch) against the
 * official schema of `revision`. Returns readable problems; empty means valid.
 *
 * - Requests and notifications: the envelope, then the method's own definition. A method
 *   the revision does not send on the wire (at all, by `opts.sender`, or as that kind of
 *   message) is a problem.
 * - Result responses: the envelope, then, with `opts.respondingTo`, the method's result
 *   definition (`InputRequiredResult` when `resultType` is `input_required`,
 *   `CreateTaskResult` for a task-augmented answer).
 * - Error responses: the envelope, then any definition the revision gives that error code.
 */
export function validateWireMessage(
  revision: string,
  message: unknown,
  opts: WireCheckOptions = {},
): string[] {
  const rev = loadRevision(revision);
  const problems: string[] = [];
  if (Array.isArray(message)) {
    checkBatch(rev, message, opts, problems);
  } else {
    checkMessage(rev, message, opts, '', problems);
  }
  return problems;
}

/** Like {@link validateWireMessage}, but throws an Error listing the problems and the message. */
export function assertWireMessage(revision: string, message: unknown, opts: WireCheckOptions = {}): void {
  const problems = validateWireMessage(revision, message, opts);
  if (problems.length === 0) return;
  let json: string;
  try {
    json = JSON.stringify(message, null, 2) ?? String(message);
  } catch {
    json = String(message);
  }
  const context = [
    opts.sender ? `sender ${opts.sender}` : '',
    opts.respondingTo ? `responding to ${opts.respondingTo}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  throw new Error(
    `Message does not validate against the MCP ${revision} schema` +
      (context ? ` (${context})` : '') +
      `:\n${problems.map((p) => `  - ${p}`).join('\n')}\nMessage:\n${json}`,
  );
}

function checkBatch(rev: Revision, batch: unknown[], opts: WireCheckOptions, problems: string[]) {
  const { batchRequest, batchResponse } = rev.envelope;
  if (batchRequest === undefined && batchResponse === undefined) {
    problems.push(`/ JSON-RPC batches do not exist in revision ${rev.revision}`);
    return;
  }
  if (batch.length === 0) problems.push('/ a batch must not be empty');
  const isCall = (m: unknown) => isObject(m) && 'method' in m;
  if (batch.some(isCall) && !batch.every(isCall)) {
    problems.push('/ a batch mixes requests or notifications with responses');
  }
  batch.forEach((m, i) => checkMessage(rev, m, opts, `/${i}`, problems));
}

function checkMessage(
  rev: Revision,
  message: unknown,
  opts: WireCheckOptions,
  path: string,
  problems: string[],
): void {
  const at = path || '/';
  if (!isObject(message)) {
    problems.push(`${at} a JSON-RPC message must be an object`);
    return;
  }
  if ('method' in message) {
    checkCall(rev, message, 'id' in message ? 'request' : 'notification', opts, path, problems);
  } else if ('result' in message) {
    if ('error' in message) problems.push(`${at} a response must not have both result and error`);
    checkResult(rev, message, opts, path, problems);
  } else if ('error' in message) {
    checkError(rev, message, path, problems);
  } else {
    problems.push(`${at} not a JSON-RPC message: no method, result or error`);
  }
}

function checkCall(
  rev: Revision,
  message: JsonObject,
  kind: 'request' | 'notification',
  opts: WireCheckOptions,
  path: string,
  problems: string[],
): void {
  const envelope = kind === 'request' ? rev.envelope.request : rev.envelope.notification;
  check(rev, envelope, message, path, problems);
  const method = message['method'];
  if (typeof method !== 'string') return;
  const at = `${path}/method`;
  const entry = rev.methods.get(method);
  if (entry === undefined) {
    problems.push(`${at} method ${method} does not exist in revision ${rev.revision}`);
    return;
  }
  if (entry.kind === undefined) {
    problems.push(
      `${at} method ${method} (${entry.definition}) is not sent as a JSON-RPC request or ` +
        `notification in revision ${rev.revision}`,
    );
    return;
  }
  if (entry.kind !== kind) {
    problems.push(`${at} ${method} is a ${entry.kind} in revision ${rev.revision}, sent as a ${kind}`);
  }
  if (opts.sender !== undefined && !entry.senders.has(opts.sender)) {
    problems.push(
      `${at} the ${opts.sender} does not send ${method} in revision ${rev.revision} ` +
        `(sent by: ${[...entry.senders].join(', ') || 'nobody'})`,
    );
  }
  check(rev, entry.definition, message, path, problems);
}

function checkResult(
  rev: Revision,
  message: JsonObject,
  opts: WireCheckOptions,
  path: string,
  problems: string[],
): void {
  check(rev, rev.envelope.result, message, path, problems);
  const method = opts.respondingTo;
  if (method === undefined) return;
  const entry = rev.methods.get(method);
  if (entry === undefined) {
    problems.push(`respondingTo: method ${method} does not exist in revision ${rev.revision}`);
    return;
  }
  if (entry.kind !== 'request') {
    problems.push(`respondingTo: ${method} is not a JSON-RPC request in revision ${rev.revision}`);
    return;
  }
  if (opts.sender !== undefined) {
    const requester: WireSender = opts.sender === 'client' ? 'server' : 'client';
    if (!entry.senders.has(requester)) {
      problems.push(
        `respondingTo: the ${opts.sender} never answers ${method} in revision ${rev.revision}, ` +
          `because the ${requester} does not send it`,
      );
    }
  }
  const resultDef = resultDefinition(rev, method);
  if (resultDef === undefined) {
    problems.push(`respondingTo: no result definition for ${method} in revision ${rev.revision}`);
    return;
  }
  const result = message['result'];
  const resultPath = `${path}/result`;
  if ('InputRequiredResult' in rev.defs && isObject(result) && result['resultType'] === 'input_required') {
    if (allowsInputRequired(rev, resultDef)) {
      check(rev, 'InputRequiredResult', result, resultPath, problems);
    } else {
      problems.push(
        `${resultPath}/resultType ${method} cannot be answered with input_required in ` +
          `revision ${rev.revision}`,
      );
    }
    return;
  }
  if (
    'CreateTaskResult' in rev.defs &&
    isObject(result) &&
    'task' in result &&
    acceptsTask(rev, entry.definition)
  ) {
    check(rev, 'CreateTaskResult', result, resultPath, problems);
    return;
  }
  check(rev, resultDef, result, resultPath, problems);
}

function checkError(rev: Revision, message: JsonObject, path: string, problems: string[]): void {
  check(rev, rev.envelope.error, message, path, problems);
  const error = message['error'];
  if (!isObject(error) || typeof error['code'] !== 'number') return;
  for (const { definition, scope } of rev.errors.get(error['code']) ?? []) {
    if (scope === 'message') check(rev, definition, message, path, problems);
    else check(rev, definition, error, `${path}/error`, problems);
  }
}
