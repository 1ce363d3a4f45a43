/**
 * Test-only support: the fields of a message that its revision's schema does not define.
 *
 * The official schemas leave objects open (no `additionalProperties: false`), so a result
 * carrying `structuredContent` or a tool carrying `outputSchema` still validates against
 * 2024-11-05. This walker is the stricter check per-revision shaping is held to: it follows
 * the schema (`$ref`, `anyOf` by `type`, arrays) and reports every key of an object whose
 * definition lists its properties but not that key. Objects that are free-form by nature
 * (JSON Schemas, `_meta`, structured content, arguments, capability payloads) are not entered.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaFixtureDir } from './wire-schema.js';

type Json = Record<string, unknown>;

const FREE_FORM = new Set([
  '_meta',
  'inputSchema',
  'outputSchema',
  'requestedSchema',
  'structuredContent',
  'arguments',
  'experimental',
  'extensions',
  'data',
]);

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const loaded = new Map<string, Json>();

function defsOf(revision: string): Json {
  let defs = loaded.get(revision);
  if (!defs) {
    const raw = JSON.parse(readFileSync(join(schemaFixtureDir(), revision, 'schema.json'), 'utf8')) as Json;
    defs = (raw.$defs ?? raw.definitions) as Json;
    loaded.set(revision, defs);
  }
  return defs;
}

function resolve(defs: Json, node: unknown): Json | undefined {
  let n = node;
  for (let i = 0; i < 16 && isObj(n) && typeof n.$ref === 'string'; i++) {
    n = defs[n.$ref.replace(/^#\/(definitions|\$defs)\//, '')];
  }
  return isObj(n) ? n : undefined;
}

/** The branch of a union that describes `value`: by its `type` const, else by required keys. */
function branch(defs: Json, options: unknown[], value: unknown): Json | undefined {
  const resolved = options.map((o) => resolve(defs, o)).filter((o): o is Json => o !== undefined);
  if (!isObj(value)) return resolved.find((o) => o.type === 'array' && Array.isArray(value));
  const typeOf = (o: Json) =>
    isObj(o.properties) && isObj(o.properties.type) ? o.properties.type : undefined;
  const byType = resolved.find((o) => {
    const t = typeOf(o);
    return (
      t !== undefined && (t.const === value.type || (Array.isArray(t.enum) && t.enum.includes(value.type)))
    );
  });
  if (byType) return byType;
  return resolved.find(
    (o) =>
      typeOf(o)?.const === undefined &&
      (Array.isArray(o.required) ? (o.required as string[]) : []).every((k) => k in value),
  );
}

/**
 * The paths (`tools[0].outputSchema`, `content[1]`...) of fields in `value` that the named
 * definition of `revision` does not define. A content block of a type the revision lacks is
 * reported whole (no branch of the union describes it).
 */
export function undefinedFields(revision: string, definition: string, value: unknown): string[] {
  const defs = defsOf(revision);
  if (!(definition in defs)) throw new Error(`wire-fields: ${revision} has no definition ${definition}`);
  const out: string[] = [];
  walkChecked(defs, defs[definition], value, '', out);
  return out;
}

/** Like {@link walk}, but a union member no branch describes is itself reported. */
function walkChecked(defs: Json, node: unknown, value: unknown, path: string, out: string[]): void {
  const schema = resolve(defs, node);
  if (!schema) return;
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const chosen = branch(defs, union, value);
    if (chosen) walkChecked(defs, chosen, value, path, out);
    else
      out.push(
        `${path || '(value)'} (no ${union.length}-way branch fits type ${JSON.stringify((value as Json)?.type)})`,
      );
    return;
  }
  if (Array.isArray(value)) {
    if (schema.items !== undefined)
      value.forEach((v, i) => walkChecked(defs, schema.items, v, `${path}[${i}]`, out));
    return;
  }
  if (!isObj(value) || !isObj(schema.properties)) return;
  for (const [key, v] of Object.entries(value)) {
    const prop = schema.properties[key];
    const at = path ? `${path}.${key}` : key;
    if (prop !== undefined) {
      if (!FREE_FORM.has(key)) walkChecked(defs, prop, v, at, out);
    } else if (isObj(schema.additionalProperties)) {
      walkChecked(defs, schema.additionalProperties, v, at, out);
    } else if (schema.additionalProperties === undefined) {
      out.push(at);
    }
  }
}

/** The results per-revision shaping covers, by the method they answer. */
const SHAPED_RESULTS: Readonly<Record<string, string>> = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'sampling/createMessage': 'CreateMessageResult',
};

/**
 * The revisions whose schema lacks fields mcpkit emits for newer ones: there, a message that
 * carries such a field was not shaped (see `protocol/revision-shaping.ts`).
 */
const SHAPED_REVISIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18']);

/**
 * For the harness's wire tap: the fields of a result or progress notification that its
 * (older) revision does not define. Empty for anything shaping does not cover.
 */
export function unshapedFields(revision: string, message: Json, respondingTo: string | undefined): string[] {
  if (!SHAPED_REVISIONS.has(revision)) return [];
  if (message.method === 'notifications/progress') {
    return undefinedFields(revision, 'ProgressNotification', {
      method: message.method,
      params: message.params,
    });
  }
  const definition = respondingTo === undefined ? undefined : SHAPED_RESULTS[respondingTo];
  if (definition === undefined || !isObj(message.result)) return [];
  return undefinedFields(revision, definition, message.result).map(
    (p) => `result.${p} is not in ${revision}`,
  );
}
