/**
 * Raw JSON Schema validation for tools, through the validator seam (Ajv where code generation
 * works, the interpreter where it is refused, or the server's own), loaded on first use so a
 * server that never validates raw JSON Schema pays nothing at start-up. Each schema compiles once.
 */
import { jsonSchemaDialectOf as dialectOf } from '../protocol/json-schema-validator.js';
import type {
  JsonSchemaCheck,
  JsonSchemaIssue,
  JsonSchemaValidator,
} from '../protocol/json-schema-validator.js';
import type { ValidationOutcome } from './schema-adapter.js';

// The seam sits in the core chunk every entry loads, so its dialect check is used directly.
export { dialectOf };

function describe(issues: readonly JsonSchemaIssue[]): string {
  if (issues.length === 0) return 'does not match the schema';
  return issues
    .slice(0, 8)
    .map((e) => {
      const where = e.instancePath === '' ? '(root)' : e.instancePath;
      const extra = e.params?.additionalProperty ? ` "${String(e.params.additionalProperty)}"` : '';
      return `${where} ${e.message}${extra}`;
    })
    .join('; ');
}

/**
 * Compiles a JSON Schema into a validator. Unsupported dialects and schemas that cannot be
 * compiled (an unresolvable $ref, for instance) yield a validator that always fails with
 * the reason, rather than one that lets everything through.
 */
export async function compileJsonSchema(
  schema: Record<string, unknown>,
  validator?: JsonSchemaValidator,
): Promise<(value: unknown) => ValidationOutcome> {
  const dialect = dialectOf(schema);
  if (!dialect) {
    const reason = `JSON Schema dialect ${JSON.stringify(schema.$schema)} is not supported (use 2020-12, 2019-09 or draft-07)`;
    return () => ({ ok: false, message: reason });
  }
  let check: JsonSchemaCheck;
  try {
    const { compileWith } = await import('../protocol/json-schema-validator.js');
    check = await compileWith(validator, schema, { dialect, allErrors: true, formats: true });
  } catch (e) {
    const detail = (e as Error).message;
    const remote = /resolve reference/.test(detail) ? ' (remote $refs are never fetched)' : '';
    const reason = `the schema itself is unusable, whatever the arguments: ${detail}${remote}`;
    return () => ({ ok: false, message: reason });
  }
  return (value) => {
    const r = check(value);
    return r.ok ? { ok: true, value } : { ok: false, message: describe(r.issues) };
  };
}
