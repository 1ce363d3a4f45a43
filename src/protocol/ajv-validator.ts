/**
 * The Ajv validator behind the JSON Schema seam: each schema becomes a JavaScript function,
 * the fastest check there is, where the runtime allows code generation from strings.
 */
import type { ErrorObject } from 'ajv';
import type {
  JsonSchemaCheck,
  JsonSchemaCompileOptions,
  JsonSchemaDialect,
  JsonSchemaIssue,
  JsonSchemaValidator,
} from './json-schema-validator.js';

interface AjvLike {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
  removeSchema(schema: object): unknown;
}

/**
 * Ajv is CommonJS: Node gives its named exports, but a bundler's interop (webpack in a
 * Next.js build) may hand the whole `module.exports` over as `default` instead.
 */
function classOf(m: object, name: string): new (options: object) => AjvLike {
  const named = (m as Record<string, unknown>)[name];
  if (typeof named === 'function') return named as new (options: object) => AjvLike;
  const d = (m as { default?: Record<string, unknown> }).default;
  const inner = d?.[name] ?? d?.default ?? d;
  if (typeof inner !== 'function') throw new Error(`${name} is not a constructor in this build of Ajv`);
  return inner as new (options: object) => AjvLike;
}

/** One instance per dialect and option set (allErrors is per instance in Ajv). */
const instances = new Map<string, Promise<AjvLike>>();

async function load(dialect: JsonSchemaDialect, allErrors: boolean, formats: boolean): Promise<AjvLike> {
  // No loadSchema: a $ref to a network URI is never fetched, so such schemas fail to compile.
  const options = { strict: false, allErrors, validateFormats: formats };
  const Ctor =
    dialect === '2020-12'
      ? classOf(await import('ajv/dist/2020.js'), 'Ajv2020')
      : dialect === '2019-09'
        ? classOf(await import('ajv/dist/2019.js'), 'Ajv2019')
        : classOf(await import('ajv'), 'Ajv');
  const ajv = new Ctor(options);
  if (formats) {
    const m = (await import('ajv-formats')) as { default?: unknown };
    const addFormats = (typeof m.default === 'function' ? m.default : classOf(m, 'default')) as (
      a: AjvLike,
    ) => void;
    addFormats(ajv);
  }
  return ajv;
}

function ajvFor(o: JsonSchemaCompileOptions): Promise<AjvLike> {
  const key = `${o.dialect}|${o.allErrors}|${o.formats}`;
  let p = instances.get(key);
  if (!p) {
    p = load(o.dialect, o.allErrors, o.formats);
    p.catch(() => instances.delete(key)); // let a later compile try again
    instances.set(key, p);
  }
  return p;
}

const toIssue = (e: ErrorObject): JsonSchemaIssue => ({
  instancePath: e.instancePath,
  keyword: e.keyword,
  message: e.message ?? 'is invalid',
  params: e.params,
});

/** Ajv (with ajv-formats when formats are checked); needs `new Function` to work. */
export const ajvValidator: JsonSchemaValidator = {
  name: 'ajv',
  async compile(
    schema: Record<string, unknown>,
    options: JsonSchemaCompileOptions,
  ): Promise<JsonSchemaCheck> {
    const ajv = await ajvFor(options);
    // The dialect is chosen by the instance; the meta-schema reference itself is not needed
    // (a draft-04 URI would otherwise be an unknown meta-schema).
    const copy = { ...schema };
    delete copy.$schema;
    try {
      const fn = ajv.compile(copy);
      return (value) => (fn(value) ? { ok: true } : { ok: false, issues: (fn.errors ?? []).map(toIssue) });
    } finally {
      // Keep the instance free of per-schema entries, so `$id`s never collide and nothing piles up.
      try {
        ajv.removeSchema(copy);
      } catch {
        // not registered: nothing to remove
      }
    }
  },
};
