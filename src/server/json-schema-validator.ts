/**
 * JSON Schema validation through ajv, loaded on first use so a server that never
 * validates raw JSON Schema pays nothing at start-up. Each schema compiles once.
 */
import type { ValidationOutcome } from './schema-adapter.js';

type AjvLike = {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
};
type AjvError = { instancePath: string; message?: string; params?: Record<string, unknown> };

const instances = new Map<string, Promise<AjvLike>>();

async function load(dialect: 'draft-07' | '2019-09' | '2020-12'): Promise<AjvLike> {
  const formats = (await import('ajv-formats')).default as unknown as (a: AjvLike) => void;
  // No loadSchema: a $ref to a network URI is never fetched, so such schemas fail to compile.
  const options = { strict: false, allErrors: true, validateFormats: true };
  let ajv: AjvLike;
  if (dialect === '2020-12') {
    const Ajv = (await import('ajv/dist/2020.js')).default as unknown as new (o: object) => AjvLike;
    ajv = new Ajv(options);
  } else if (dialect === '2019-09') {
    const Ajv = (await import('ajv/dist/2019.js')).default as unknown as new (o: object) => AjvLike;
    ajv = new Ajv(options);
  } else {
    const Ajv = (await import('ajv')).default as unknown as new (o: object) => AjvLike;
    ajv = new Ajv(options);
  }
  formats(ajv);
  return ajv;
}

/** The dialect a schema declares; 2020-12 when it declares none. */
export function dialectOf(schema: Record<string, unknown>): 'draft-07' | '2019-09' | '2020-12' | undefined {
  const s = schema.$schema;
  if (s === undefined) return '2020-12';
  if (typeof s !== 'string') return undefined;
  if (s.includes('2020-12')) return '2020-12';
  if (s.includes('2019-09')) return '2019-09';
  if (/draft-0[4-7]/.test(s)) return 'draft-07';
  return undefined;
}

function ajvFor(dialect: 'draft-07' | '2019-09' | '2020-12'): Promise<AjvLike> {
  let p = instances.get(dialect);
  if (!p) {
    p = load(dialect);
    instances.set(dialect, p);
  }
  return p;
}

function describe(errors: AjvError[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'does not match the schema';
  return errors
    .slice(0, 8)
    .map((e) => {
      const where = e.instancePath === '' ? '(root)' : e.instancePath;
      const extra = e.params?.additionalProperty ? ` "${String(e.params.additionalProperty)}"` : '';
      return `${where} ${e.message ?? 'is invalid'}${extra}`;
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
): Promise<(value: unknown) => ValidationOutcome> {
  const dialect = dialectOf(schema);
  if (!dialect) {
    const reason = `JSON Schema dialect ${JSON.stringify(schema.$schema)} is not supported (use 2020-12, 2019-09 or draft-07)`;
    return () => ({ ok: false, message: reason });
  }
  const ajv = await ajvFor(dialect);
  let fn: ReturnType<AjvLike['compile']>;
  try {
    fn = ajv.compile(schema);
  } catch (e) {
    const detail = (e as Error).message;
    const remote = /resolve reference/.test(detail) ? ' (remote $refs are never fetched)' : '';
    const reason = `the schema itself is unusable, whatever the arguments: ${detail}${remote}`;
    return () => ({ ok: false, message: reason });
  }
  return (value) => (fn(value) ? { ok: true, value } : { ok: false, message: describe(fn.errors) });
}
