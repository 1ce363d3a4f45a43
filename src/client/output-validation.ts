/**
 * Checks a tool's `structuredContent` against the `outputSchema` from the last
 * `tools/list`. Each schema is compiled once per tool definition, on first use, by the
 * client's validator or the default one (Ajv, or an interpreter where code generation is
 * refused), loaded by dynamic import then, so a client that never validates never loads it.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { JsonSchemaIssue, JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import type { Tool } from '../protocol/types/index.js';

type Check = (value: unknown) => string | undefined;

interface Known {
  /** The schema as JSON: a refetched list with the same schema keeps the compiled check. */
  json: string;
  schema: unknown;
  check: Check | undefined;
}

/** Worded as Ajv's errorsText words it, whichever validator found the issues. */
const errorsText = (issues: readonly JsonSchemaIssue[]) =>
  issues.length === 0
    ? 'No errors'
    : issues.map((e) => `structuredContent${e.instancePath} ${e.message}`).join(', ');

/** Remembers output schemas by tool name and validates results against them. */
export class OutputValidator {
  private readonly tools = new Map<string, Known>();
  private loading: Promise<JsonSchemaValidator> | undefined;

  constructor(private readonly validator?: JsonSchemaValidator) {}

  /** Learns the tools of one `tools/list` page. `replace` forgets every other tool first. */
  learn(tools: readonly Tool[], replace = false): void {
    if (replace) this.tools.clear();
    for (const tool of tools) {
      if (typeof tool?.name !== 'string') continue;
      const schema = tool.outputSchema;
      if (schema === undefined || schema === null) {
        this.tools.delete(tool.name);
        continue;
      }
      const json = JSON.stringify(schema);
      if (this.tools.get(tool.name)?.json === json) continue;
      this.tools.set(tool.name, { json, schema, check: undefined });
      // Start loading the validator now, off the path of the first call that needs it.
      void this.load().catch(() => undefined);
    }
  }

  /** Forgets every tool (the list changed and has not been refetched yet). */
  clear(): void {
    this.tools.clear();
  }

  /** Whether a tool's output will be checked. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /**
   * Throws `InvalidResult` when the result of a call to `name` breaks the tool's
   * `outputSchema`. Results with `isError: true`, and tools without a known schema,
   * are not checked.
   */
  async check(name: string, result: Record<string, unknown>): Promise<void> {
    const known = this.tools.get(name);
    if (!known || result.isError === true) return;
    if (!Object.hasOwn(result, 'structuredContent')) {
      throw new LocalError(
        'InvalidResult',
        `Tool ${JSON.stringify(name)} declares an outputSchema but its result has no structuredContent`,
      );
    }
    known.check ??= await this.compile(name, known.schema);
    const problem = known.check(result.structuredContent);
    if (problem !== undefined) {
      throw new LocalError(
        'InvalidResult',
        `Tool ${JSON.stringify(name)} returned structuredContent that breaks its outputSchema: ${problem}`,
      );
    }
  }

  private load(): Promise<JsonSchemaValidator> {
    if (this.validator) return Promise.resolve(this.validator);
    // The seam itself loads on first use too: a client that never validates never loads it.
    return (this.loading ??= import('../protocol/json-schema-validator.js')
      .then((m) => m.defaultJsonSchemaValidator())
      .catch((e: unknown) => {
        this.loading = undefined; // let a later call try again
        throw new LocalError(
          'InvalidResult',
          `Cannot validate tool output: the JSON Schema validator could not be loaded (${(e as Error).message}); install ajv or set validateOutput: false`,
          { cause: e },
        );
      }));
  }

  private async compile(name: string, schema: unknown): Promise<Check> {
    const validator = await this.load();
    const object = typeof schema === 'object' && schema !== null && !Array.isArray(schema);
    // A boolean or malformed schema compiles as what it is; an unknown `$schema` reads as 2020-12.
    const copy = (object ? schema : { allOf: [schema] }) as Record<string, unknown>;
    const { jsonSchemaDialectOf } = await import('../protocol/json-schema-validator.js');
    const dialect = jsonSchemaDialectOf(copy) ?? '2020-12';
    let check: Awaited<ReturnType<JsonSchemaValidator['compile']>>;
    try {
      check = await validator.compile(copy, { dialect, allErrors: false, formats: false });
    } catch (e) {
      throw new LocalError(
        'InvalidResult',
        `Tool ${JSON.stringify(name)} has an outputSchema that cannot be compiled: ${(e as Error).message}`,
      );
    }
    return (value) => {
      const r = check(value);
      return r.ok ? undefined : errorsText(r.issues);
    };
  }
}
