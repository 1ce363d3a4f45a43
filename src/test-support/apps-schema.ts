/**
 * Validates Apps messages against the schema.json the official `@modelcontextprotocol/ext-apps`
 * package ships, compiled once per definition.
 */
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';

type Validate = ((v: unknown) => boolean) & { errors?: unknown };

const require = createRequire(import.meta.url);
const schema = require('@modelcontextprotocol/ext-apps/schema.json') as { $defs: Record<string, object> };
const ajv = new (
  Ajv2020 as unknown as new (o: object) => {
    compile(s: object): Validate;
    errorsText(e: unknown): string;
  }
)({ strict: false, allErrors: true });
const compiled = new Map<string, Validate>();

/** The names of every definition in the official schema. */
export const APPS_SCHEMA_DEFS: readonly string[] = Object.keys(schema.$defs);

/** Throws with ajv's explanation when `value` does not match the named definition. */
export function assertAppsSchema(definition: string, value: unknown): void {
  let v = compiled.get(definition);
  if (!v) {
    const def = schema.$defs[definition] as { $defs?: object } | undefined;
    if (!def) throw new Error(`No definition ${definition} in the ext-apps schema`);
    // Definitions carry their own local $defs; keep them beside the top-level ones.
    v = ajv.compile({ ...def, $defs: { ...schema.$defs, ...def.$defs } });
    compiled.set(definition, v);
  }
  if (!v(value)) {
    throw new Error(`${definition} does not match: ${ajv.errorsText(v.errors)}\n${JSON.stringify(value)}`);
  }
}
