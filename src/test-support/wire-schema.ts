/**
 * Test-only support: checks JSON-RPC messages against the official MCP `schema.json` of a
 * protocol revision (vendored, unmodified, under `test/fixtures/schema/<revision>/`).
 *
 * Each revision's schema is loaded and registered with Ajv on first use; each definition is
 * compiled the first time it is needed and then reused.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { type ErrorObject, type ValidateFunction } from 'ajv';
import {
  isObject,
  loadRevision,
  refName,
  resultDefinition,
  validatorFor,
  type JsonObject,
  type Revision,
  type WireSender,
} from './schema-revisions.js';

// Re-exported so importers keep one entry point for the wire checks.
export { schemaFixtureDir, schemaRevisions, type WireSender } from './schema-revisions.js';

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
