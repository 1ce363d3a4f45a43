import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import { compileJsonSchema, dialectOf } from './json-schema-validator.js';

/** The result of validating a value. */
export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; message: string };

/** The Standard Schema v1 interface (zod, valibot, arktype and others implement it). */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Standard JSON Schema: present on zod 4 and on wrapped valibot schemas. */
    readonly jsonSchema?: {
      readonly input: (options: { target: string }) => Record<string, unknown>;
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** A raw JSON Schema object, kept exactly as given. */
export type RawJsonSchema = Record<string, unknown>;

/** Either kind of schema a tool or prompt may be declared with. */
export type SchemaInput = StandardSchemaLike | RawJsonSchema;

/** The output type of a schema, for typed handlers. */
export type InferOutput<S> = S extends StandardSchemaLike<infer O> ? O : Record<string, unknown>;

/** A schema converted and compiled once: its JSON Schema for listing, and a validator. */
export interface CompiledSchema {
  readonly jsonSchema: RawJsonSchema;
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

export function isStandardSchema(s: unknown): s is StandardSchemaLike {
  return typeof s === 'object' && s !== null && '~standard' in s;
}

function formatIssues(
  issues: ReadonlyArray<{
    message: string;
    path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined;
  }>,
): string {
  return issues
    .slice(0, 8)
    .map((i) => {
      const path = (i.path ?? [])
        .map((p) => (typeof p === 'object' && p !== null ? String(p.key) : String(p)))
        .join('.');
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

class StandardCompiled implements CompiledSchema {
  constructor(
    private readonly schema: StandardSchemaLike,
    readonly jsonSchema: RawJsonSchema,
  ) {}
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    const r = this.schema['~standard'].validate(value);
    return r instanceof Promise ? r.then(toOutcome) : toOutcome(r);
  }
}

/**
 * A zod 4 object schema that can describe itself: its conversion to JSON Schema can wait for
 * the first list (it is an object schema by construction); any other kind converts at
 * registration, where a schema that is no object or cannot convert is refused.
 */
export function isDeferrableObject(schema: StandardSchemaLike): boolean {
  const zod = (schema as { _zod?: { def?: { type?: unknown }; processJSONSchema?: unknown } })._zod;
  if (zod?.def?.type !== 'object') return false;
  // zod >= 4.2 (classic): its `~standard` has `jsonSchema`. Not read now: reading it builds
  // an object of closures that the schema then keeps (~0.8 KB a tool).
  // `in`, not a read: zod binds a method to the instance on first read (a function and a
  // property per schema, kept for its life).
  if (typeof zod.processJSONSchema === 'function' && 'describe' in schema) {
    return true;
  }
  return schema['~standard'].jsonSchema !== undefined;
}

/** Validates with a Standard Schema, converting nothing. */
export class StandardValidator {
  constructor(readonly schema: StandardSchemaLike) {}
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    const r = this.schema['~standard'].validate(value);
    return r instanceof Promise ? r.then(toOutcome) : toOutcome(r);
  }
}

function toOutcome(r: StandardResult<unknown>): ValidationOutcome {
  return r.issues ? { ok: false, message: formatIssues(r.issues) } : { ok: true, value: r.value };
}

class JsonCompiled implements CompiledSchema {
  private fn: ((v: unknown) => ValidationOutcome) | undefined;
  private loading: Promise<(v: unknown) => ValidationOutcome> | undefined;
  constructor(
    readonly jsonSchema: RawJsonSchema,
    private readonly validator: JsonSchemaValidator | undefined,
  ) {}
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome> {
    if (this.fn) return this.fn(value);
    this.loading ??= compileJsonSchema(this.jsonSchema, this.validator).then((fn) => (this.fn = fn));
    return this.loading.then((fn) => fn(value));
  }
}

/**
 * Converts and compiles a schema once. A Standard Schema must be able to describe itself
 * as JSON Schema (Standard JSON Schema), or `jsonSchema` must be given alongside it. A
 * raw JSON Schema is listed verbatim — `$schema`, `$defs` and all — and validated with
 * its own dialect (by `validator`, else Ajv, or the interpreter where code generation is
 * refused); an unsupported `$schema` throws a TypeError here.
 *
 * @example
 * ```ts
 * const compiled = compileSchema(z.object({ city: z.string() }), 'input');
 * compiled.jsonSchema; // { type: 'object', properties: { city: { type: 'string' } }, ... }
 * ```
 */
export function compileSchema(
  schema: SchemaInput,
  io: 'input' | 'output',
  jsonSchema?: RawJsonSchema,
  validator?: JsonSchemaValidator,
): CompiledSchema {
  if (isStandardSchema(schema)) {
    const std = schema['~standard'];
    let js = jsonSchema;
    if (!js) {
      if (!std.jsonSchema) {
        throw new TypeError(
          `A ${std.vendor} schema cannot describe itself as JSON Schema: give its JSON Schema ` +
            `alongside it (${io}JsonSchema on a tool)` +
            (std.vendor === 'valibot'
              ? ', or wrap it with toStandardJsonSchema() from @valibot/to-json-schema'
              : ''),
        );
      }
      js = std.jsonSchema[io]({ target: 'draft-2020-12' });
    }
    return new StandardCompiled(schema, js);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError('A schema must be a Standard Schema or a JSON Schema object');
  }
  // Fail at registration, not on every call with an error that blames the arguments.
  if (!dialectOf(schema)) {
    throw new TypeError(
      `JSON Schema dialect ${JSON.stringify(schema.$schema)} is not supported: declare 2020-12 ` +
        '(the default), 2019-09 or draft-07',
    );
  }
  return new JsonCompiled(schema, validator);
}
