/**
 * The small toolkit the config parser reads with: typed field access that records an
 * issue (file, server, field, expected, got) instead of throwing, and `${...}` expansion.
 */
import type { ConfigIssue } from '../errors.js';

/** Where variables in `${...}` come from. */
export interface ExpandSources {
  /** `${NAME}`, `${env:NAME}` and `${NAME:-default}` read this (default: none). */
  env: Readonly<Record<string, string | undefined>>;
  /** VS Code's `${input:id}` values, already asked for. */
  inputs: Readonly<Record<string, string>>;
  /** Other named variables, such as VS Code's `${workspaceFolder}`. */
  variables: Readonly<Record<string, string>>;
}

type Json = unknown;

/** A short, safe rendering of a value for a message. */
export function describeValue(v: Json): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array (${v.length} items)`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v === 'number' ? 'the number' : 'the boolean'} ${String(v)}`;
}

/** Levenshtein distance, for "did you mean" hints on misspelt fields. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The known name closest to `key`, when it is close enough to be a typo. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return bestD <= Math.max(1, Math.floor(key.length / 4)) ? best : undefined;
}

const VAR = /\$\{([^}]*)\}/g;

/**
 * Reads one object of the config. Every accessor returns `undefined` after recording an
 * issue when the value is not what was expected, so one pass reports every problem.
 */
export class FieldReader {
  constructor(
    readonly obj: Record<string, Json>,
    private readonly issues: ConfigIssue[],
    private readonly file: string | undefined,
    private readonly server: string | undefined,
    private readonly prefix: string,
    private readonly sources: ExpandSources,
    private readonly warnings: string[],
  ) {}

  path(key: string | number): string {
    if (typeof key === 'number') return `${this.prefix}[${key}]`;
    return this.prefix ? `${this.prefix}.${key}` : key;
  }

  issue(field: string, expected: string, got?: Json, raw = false): undefined {
    this.issues.push({
      file: this.file,
      server: this.server,
      field,
      expected,
      got: raw ? (got as string | undefined) : got === undefined ? undefined : describeValue(got),
    });
    return undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.obj, key) && this.obj[key] !== undefined;
  }

  /** A nested object's reader, or undefined (issue recorded when present but not an object). */
  object(key: string): FieldReader | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return this.issue(this.path(key), 'an object', v);
    return new FieldReader(
      v as Record<string, Json>,
      this.issues,
      this.file,
      this.server,
      this.path(key),
      this.sources,
      this.warnings,
    );
  }

  /** An array of objects, each with its own reader (`key[i]`); issues for items that are not objects. */
  objects(key: string): FieldReader[] | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    if (!Array.isArray(v)) return this.issue(this.path(key), 'an array of objects', v);
    const out: FieldReader[] = [];
    v.forEach((item, i) => {
      const field = `${this.path(key)}[${i}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        this.issue(field, 'an object', item);
      else
        out.push(
          new FieldReader(
            item as Record<string, Json>,
            this.issues,
            this.file,
            this.server,
            field,
            this.sources,
            this.warnings,
          ),
        );
    });
    return out;
  }

  /** A string with `${...}` expanded; `allowEmpty` false refuses `""`. */
  string(
    key: string,
    opts: { required?: boolean; allowEmpty?: boolean; expand?: boolean } = {},
  ): string | undefined {
    if (!this.has(key)) return opts.required ? this.issue(this.path(key), 'a string', undefined) : undefined;
    return this.stringValue(this.obj[key], this.path(key), opts);
  }

  stringValue(
    v: Json,
    field: string,
    opts: { allowEmpty?: boolean; expand?: boolean } = {},
  ): string | undefined {
    if (typeof v !== 'string') return this.issue(field, 'a string', v);
    const s = opts.expand === false ? v : this.expand(v, field);
    if (s === undefined) return undefined;
    if (s === '' && opts.allowEmpty === false) return this.issue(field, 'a non-empty string', v);
    return s;
  }

  stringArray(key: string): string[] | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    if (!Array.isArray(v)) return this.issue(this.path(key), 'an array of strings', v);
    const out: string[] = [];
    let ok = true;
    v.forEach((item, i) => {
      const s = this.stringValue(item, `${this.path(key)}[${i}]`);
      if (s === undefined) ok = false;
      else out.push(s);
    });
    return ok ? out : undefined;
  }

  /** An object of string values (env, headers), each expanded. */
  stringMap(key: string): Record<string, string> | undefined {
    const r = this.object(key);
    if (!r) return undefined;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.obj)) {
      const s = r.stringValue(v, r.path(k));
      if (s !== undefined) out[k] = s;
    }
    return out;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    return typeof v === 'boolean' ? v : this.issue(this.path(key), 'true or false', v);
  }

  number(key: string, range: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    const { min = -Infinity, max = Infinity, integer = false } = range;
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v >= min &&
      v <= max &&
      (!integer || Number.isInteger(v));
    if (ok) return v;
    const kind = integer ? 'an integer' : 'a number';
    const bounds =
      min > -Infinity && max < Infinity
        ? ` from ${min} to ${max}`
        : min > -Infinity
          ? ` of at least ${min}`
          : '';
    return this.issue(this.path(key), kind + bounds, v);
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    return this.issue(this.path(key), `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`, v);
  }

  /** Records a warning line for every key not in `known`, with a "did you mean" hint. */
  unknownKeys(known: readonly string[]): void {
    const warnings = this.warnings;
    for (const key of Object.keys(this.obj)) {
      if (known.includes(key)) continue;
      const hint = closest(key, known);
      const where = [
        this.file,
        this.server !== undefined ? `server ${JSON.stringify(this.server)}` : undefined,
      ]
        .filter(Boolean)
        .join(': ');
      warnings.push(
        `${where ? where + ': ' : ''}unknown field ${JSON.stringify(this.path(key))} ignored` +
          (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''),
      );
    }
  }

  /** Expands `${NAME}`, `${env:NAME}`, `${NAME:-default}`, `${input:id}` and named variables. */
  expand(s: string, field: string): string | undefined {
    if (!s.includes('${')) return s;
    let failed = false;
    const out = s.replace(VAR, (whole, body: string) => {
      const { env, inputs, variables } = this.sources;
      const dflt = body.indexOf(':-');
      const name = dflt >= 0 ? body.slice(0, dflt) : body;
      const fallback = dflt >= 0 ? body.slice(dflt + 2) : undefined;
      let value: string | undefined;
      if (name.startsWith('input:')) {
        value = inputs[name.slice(6)];
        if (value === undefined && fallback === undefined) {
          failed = true;
          this.issue(
            field,
            `a value for the input ${JSON.stringify(name.slice(6))} (pass it in options.inputs)`,
            whole,
            true,
          );
          return whole;
        }
      } else {
        const envName = name.startsWith('env:') ? name.slice(4) : name;
        value = Object.hasOwn(variables, name) ? variables[name] : env[envName];
        if (value === '' && fallback !== undefined) value = undefined;
        if (value === undefined && fallback === undefined) {
          failed = true;
          this.issue(
            field,
            `the environment variable ${envName} to be set (it is referenced as ${whole})`,
            undefined,
          );
          return whole;
        }
      }
      return value ?? fallback ?? '';
    });
    return failed ? undefined : out;
  }
}
