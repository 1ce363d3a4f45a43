/**
 * The JSON Schema validator seam, shared by the server (raw JSON Schema tool inputs and
 * outputs) and the client (`outputSchema` checks). Ajv is the default where the runtime lets
 * code be generated from strings; where it refuses (Cloudflare Workers, CSP-locked pages) an
 * interpreting validator takes its place, with the same dialects and the same error wording.
 * Either is loaded on first use, so nothing here costs anything until a schema is compiled.
 */

/** The JSON Schema dialects MCP schemas may declare (2020-12 when none is declared). */
export type JsonSchemaDialect = '2020-12' | '2019-09' | 'draft-07';

/** One reason a value breaks a schema, worded as Ajv words it whichever validator found it. */
export interface JsonSchemaIssue {
  /** JSON Pointer to the offending value, `''` for the root. */
  readonly instancePath: string;
  /** The schema keyword that failed (`type`, `required`, ...). */
  readonly keyword: string;
  /** For example `must be string` or `must have required property 'name'`. */
  readonly message: string;
  /** Keyword details, e.g. `{ additionalProperty: 'age' }`. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** The outcome of checking one value. */
export type JsonSchemaResult =
  { readonly ok: true } | { readonly ok: false; readonly issues: readonly JsonSchemaIssue[] };

/** A compiled schema: checks values, compiled once. */
export type JsonSchemaCheck = (value: unknown) => JsonSchemaResult;

/** How a schema is compiled. */
export interface JsonSchemaCompileOptions {
  readonly dialect: JsonSchemaDialect;
  /** Report every issue (true) or stop at the first (false). */
  readonly allErrors: boolean;
  /** Check the `format` keyword (email, date-time, uri, ...). */
  readonly formats: boolean;
}

/**
 * Compiles JSON Schemas. `compile` throws (or rejects) when the schema itself is unusable —
 * an unresolvable `$ref`, a keyword with a malformed value — and never fetches a remote `$ref`.
 *
 * @example
 * ```ts
 * import type { JsonSchemaValidator } from 'mcpkit/advanced';
 *
 * // Accepts everything: for a trusted server whose schemas are only documentation.
 * const permissive: JsonSchemaValidator = {
 *   name: 'permissive',
 *   compile: () => () => ({ ok: true }),
 * };
 * ```
 */
export interface JsonSchemaValidator {
  /** Named in error messages and diagnostics. */
  readonly name: string;
  compile(
    schema: Record<string, unknown>,
    options: JsonSchemaCompileOptions,
  ): JsonSchemaCheck | Promise<JsonSchemaCheck>;
}

/** The dialect a schema declares: 2020-12 when none, undefined when unsupported. */
export function jsonSchemaDialectOf(schema: Record<string, unknown>): JsonSchemaDialect | undefined {
  const s = schema.$schema;
  if (s === undefined) return '2020-12';
  if (typeof s !== 'string') return undefined;
  if (s.includes('2020-12')) return '2020-12';
  if (s.includes('2019-09')) return '2019-09';
  if (/draft-0[4-7]/.test(s)) return 'draft-07';
  return undefined;
}

let codeGeneration: boolean | undefined;

/**
 * Whether this runtime compiles code from strings. Asked once: Workers and CSP-locked pages
 * throw an EvalError, which is exactly what Ajv's compiled validators would hit.
 */
export function canGenerateCode(): boolean {
  if (codeGeneration === undefined) {
    try {
      codeGeneration = new Function('return 1')() === 1;
    } catch {
      codeGeneration = false;
    }
  }
  return codeGeneration;
}

let ajvValidator: Promise<JsonSchemaValidator> | undefined;
let interpreter: Promise<JsonSchemaValidator> | undefined;

/** Ajv, loaded on first use: compiles each schema to JavaScript (fast, needs code generation). */
export function loadAjvValidator(): Promise<JsonSchemaValidator> {
  return (ajvValidator ??= import('./ajv-validator.js').then(
    (m) => m.ajvValidator,
    (e: unknown) => {
      ajvValidator = undefined;
      throw e;
    },
  ));
}

/** The interpreting validator (@cfworker/json-schema), loaded on first use: no code generation. */
export function loadInterpretingValidator(): Promise<JsonSchemaValidator> {
  return (interpreter ??= import('./interpreting-validator.js').then(
    (m) => m.interpretingValidator,
    (e: unknown) => {
      interpreter = undefined;
      throw e;
    },
  ));
}

/** The validator used when none is given: Ajv where code generation works, else the interpreter. */
export function defaultJsonSchemaValidator(): Promise<JsonSchemaValidator> {
  return canGenerateCode() ? loadAjvValidator() : loadInterpretingValidator();
}

/** Compiles with the given validator, or the default one; a failure is the unusable schema's. */
export async function compileWith(
  validator: JsonSchemaValidator | undefined,
  schema: Record<string, unknown>,
  options: JsonSchemaCompileOptions,
): Promise<JsonSchemaCheck> {
  const v = validator ?? (await defaultJsonSchemaValidator());
  return v.compile(schema, options);
}
