/**
 * The restricted JSON Schema of form-mode elicitation (flat objects of strings, numbers,
 * booleans and enums): reading what a person typed into each field, and validating a
 * submitted form, with messages that name the field.
 */
import type {
  ElicitValue,
  ElicitationRequestedSchema,
  PrimitiveSchemaDefinition,
} from '../../protocol/types/index.js';

type Field = PrimitiveSchemaDefinition & Record<string, unknown>;

/** One choice of an enum field: the value sent, and the label shown. */
export interface Choice {
  value: string;
  label: string;
}

/** The choices of a single- or multi-select field, or undefined for other fields. */
export function choicesOf(field: PrimitiveSchemaDefinition): Choice[] | undefined {
  const f = field as Field;
  if (f.type === 'array') {
    const items = (f.items ?? {}) as Record<string, unknown>;
    if (Array.isArray(items.enum)) return items.enum.map((v) => ({ value: String(v), label: String(v) }));
    if (Array.isArray(items.anyOf)) return titled(items.anyOf);
    return [];
  }
  if (Array.isArray(f.oneOf)) return titled(f.oneOf);
  if (Array.isArray(f.enum)) {
    const names = Array.isArray(f.enumNames) ? f.enumNames : [];
    return f.enum.map((v, i) => ({ value: String(v), label: String(names[i] ?? v) }));
  }
  return undefined;
}

function titled(options: unknown[]): Choice[] {
  return options
    .filter(
      (o): o is { const: unknown; title?: unknown } => typeof o === 'object' && o !== null && 'const' in o,
    )
    .map((o) => ({ value: String(o.const), label: typeof o.title === 'string' ? o.title : String(o.const) }));
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** Why `value` does not fit `field`, or undefined when it does. */
export function fieldError(field: PrimitiveSchemaDefinition, value: unknown): string | undefined {
  const f = field as Field;
  const choices = choicesOf(field);
  switch (f.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (f.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (typeof f.minimum === 'number' && value < f.minimum) return `must be at least ${f.minimum}`;
      if (typeof f.maximum === 'number' && value > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    }
    case 'array': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        return 'must be a list of choices';
      const bad = value.find((v) => !choices?.some((c) => c.value === v));
      if (bad !== undefined) return `has ${JSON.stringify(bad)}, which is not one of the choices`;
      if (typeof f.minItems === 'number' && value.length < f.minItems)
        return `needs at least ${f.minItems} choices`;
      if (typeof f.maxItems === 'number' && value.length > f.maxItems)
        return `takes at most ${f.maxItems} choices`;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      if (choices) return choices.some((c) => c.value === value) ? undefined : 'must be one of the choices';
      const len = [...value].length;
      if (typeof f.minLength === 'number' && len < f.minLength)
        return `must be at least ${f.minLength} characters`;
      if (typeof f.maxLength === 'number' && len > f.maxLength)
        return `must be at most ${f.maxLength} characters`;
      if (f.format === 'email' && !EMAIL.test(value)) return 'must be an email address';
      if (f.format === 'date' && !DATE.test(value)) return 'must be a date (YYYY-MM-DD)';
      if (f.format === 'date-time' && !DATE_TIME.test(value))
        return 'must be a date and time (YYYY-MM-DDTHH:MM:SSZ)';
      if (f.format === 'uri' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value)) return 'must be a URI';
      return undefined;
    }
    default:
      return `has an unsupported type ${JSON.stringify((field as { type?: unknown }).type)}`;
  }
}

/**
 * Reads what a person typed for one field: numbers parsed, `y`/`n` for booleans, a choice
 * by number or value, comma-separated choices for multi-select. Returns the value, or an
 * error to show before asking again.
 *
 * @example
 * ```ts
 * parseFieldInput({ type: 'integer', minimum: 1 }, '3');   // { value: 3 }
 * parseFieldInput({ type: 'boolean' }, 'yes');             // { value: true }
 * ```
 */
export function parseFieldInput(
  field: PrimitiveSchemaDefinition,
  text: string,
): { value: ElicitValue } | { error: string } {
  const f = field as Field;
  const t = text.trim();
  const choices = choicesOf(field);
  let value: ElicitValue;
  if (f.type === 'boolean') {
    if (/^(y|yes|true|1)$/i.test(t)) value = true;
    else if (/^(n|no|false|0)$/i.test(t)) value = false;
    else return { error: 'answer y or n' };
  } else if (f.type === 'number' || f.type === 'integer') {
    if (t === '' || !Number.isFinite(Number(t))) return { error: 'enter a number' };
    value = Number(t);
  } else if (choices && f.type === 'array') {
    value = t === '' ? [] : t.split(',').map((part) => pick(choices, part.trim()) ?? `\u0000${part.trim()}`);
    const bad = value.find((v) => v.startsWith('\u0000'));
    if (bad !== undefined) return { error: `${JSON.stringify(bad.slice(1))} is not one of the choices` };
  } else if (choices) {
    const v = pick(choices, t);
    if (v === undefined) return { error: `choose 1 to ${choices.length}` };
    value = v;
  } else {
    value = text;
  }
  const error = fieldError(field, value);
  return error ? { error } : { value };
}

function pick(choices: Choice[], t: string): string | undefined {
  const n = Number(t);
  if (/^\d+$/.test(t) && n >= 1 && n <= choices.length) return choices[n - 1]!.value;
  return choices.find((c) => c.value === t || c.label === t)?.value;
}

/**
 * Every problem with a submitted form: missing required fields, values of the wrong type
 * or out of range, fields the schema does not have. Empty when the form is valid.
 */
export function validateForm(schema: ElicitationRequestedSchema, content: unknown): string[] {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    return ['the answer must be an object'];
  const props = schema.properties ?? {};
  const errors: string[] = [];
  const given = content as Record<string, unknown>;
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(given, name)) errors.push(`${name} is required`);
  }
  for (const [name, value] of Object.entries(given)) {
    const field = Object.hasOwn(props, name) ? props[name] : undefined;
    if (!field) {
      errors.push(`${name} is not a field of this form`);
      continue;
    }
    const e = fieldError(field, value);
    if (e) errors.push(`${name} ${e}`);
  }
  return errors;
}
