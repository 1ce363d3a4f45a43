/**
 * Checks a tool's `structuredContent` against the `outputSchema` from the last
 * `tools/list`. Each schema is compiled once per tool definition, on first use; Ajv is
 * loaded by dynamic import then, so a client that never validates never loads it.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { Tool } from '../protocol/types/index.js';

type Check = (value: unknown) => string | undefined;

interface Known {
  /** The schema as JSON: a refetched list with the same schema keeps the compiled check. */
  json: string;
  schema: unknown;
  check: Check | undefined;
}

interface AjvLike {
  compile(schema: unknown): ((data: unknown) => boolean) & { errors?: unknown };
  removeSchema(schema: unknown): unknown;
  errorsText(errors: unknown, options: { dataVar: string }): string;
}

type Dialect = '2020-12' | '2019-09' | 'draft-07';

function dialectOf(schema: unknown): Dialect {
  const id =
    typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (typeof id !== 'string') return '2020-12';
  if (id.includes('2019-09')) return '2019-09';
  if (/draft-0[4-7]/.test(id)) return 'draft-07';
  return '2020-12';
}

const AJV_OPTIONS = { strict: false, validateFormats: false, allErrors: false } as const;

/** Builds (once per dialect) and returns an Ajv instance. Loaded lazily. */
async function loadAjv(dialect: Dialect): Promise<AjvLike> {
  if (dialect === '2019-09') {
    const { Ajv2019 } = await import('ajv/dist/2019.js');
    return new Ajv2019(AJV_OPTIONS) as unknown as AjvLike;
  }
  if (dialect === 'draft-07') {
    const { Ajv } = await import('ajv');
    return new Ajv(AJV_OPTIONS) as unknown as AjvLike;
  }
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  return new Ajv2020(AJV_OPTIONS) as unknown as AjvLike;
}

/** Remembers output schemas by tool name and validates results against them. */
export class OutputValidator {
  private readonly tools = new Map<string, Known>();
  private readonly ajv = new Map<Dialect, Promise<AjvLike>>();

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
      // Start loading Ajv now, off the path of the first call that needs it.
      void this.ajvFor(dialectOf(schema)).catch(() => undefined);
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

  private ajvFor(dialect: Dialect): Promise<AjvLike> {
    let p = this.ajv.get(dialect);
    if (!p) {
      p = loadAjv(dialect).catch((e: unknown) => {
        this.ajv.delete(dialect); // let a later call try again
        throw new LocalError(
          'InvalidResult',
          `Cannot validate tool output: Ajv could not be loaded (${(e as Error).message}); install ajv or set validateOutput: false`,
          { cause: e },
        );
      });
      this.ajv.set(dialect, p);
    }
    return p;
  }

  private async compile(name: string, schema: unknown): Promise<Check> {
    const ajv = await this.ajvFor(dialectOf(schema));
    // The dialect is chosen above; the meta-schema reference itself is not needed.
    const copy = typeof schema === 'object' && schema !== null ? { ...(schema as object) } : schema;
    if (typeof copy === 'object' && copy !== null) delete (copy as { $schema?: unknown }).$schema;
    let validate: ReturnType<AjvLike['compile']>;
    try {
      validate = ajv.compile(copy);
    } catch (e) {
      throw new LocalError(
        'InvalidResult',
        `Tool ${JSON.stringify(name)} has an outputSchema that cannot be compiled: ${(e as Error).message}`,
      );
    } finally {
      // Keep the instance free of per-tool entries, so `$id`s never collide and nothing piles up.
      try {
        ajv.removeSchema(copy);
      } catch {
        // not registered: nothing to remove
      }
    }
    return (value) =>
      validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'structuredContent' });
  }
}
