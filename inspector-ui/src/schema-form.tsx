// A form built from a JSON Schema: objects (nested), arrays, enums, defaults, required
// fields. Anything it cannot draw as fields (a oneOf without a clear choice, a schema
// that allows any type) is edited as JSON, so every schema stays usable.
import { useState } from 'preact/hooks';

export type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  title?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
  format?: string;
};

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) against the root schema. */
export function resolve(schema: Schema | undefined, root: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let depth = 0; typeof s.$ref === 'string' && s.$ref.startsWith('#/') && depth < 16; depth++) {
    let target: unknown = root;
    for (const part of s.$ref.slice(2).split('/'))
      target = (target as Record<string, unknown> | undefined)?.[part];
    if (typeof target !== 'object' || target === null) break;
    s = { ...(target as Schema), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  return s;
}

/** The schema's main type, ignoring `null` in a type list. */
export function typeOf(s: Schema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.enum) return typeof s.enum[0] === 'number' ? 'number' : 'string';
  if (s.const !== undefined) return typeof s.const;
  return undefined;
}

/** The starting value: defaults where given, required objects filled in, the rest left out. */
export function initialValue(schema: Schema | undefined, root: Schema | undefined): unknown {
  const s = resolve(schema, root);
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.const !== undefined) return s.const;
  if (typeOf(s) === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const v = initialValue(p, root);
      const ps = resolve(p, root);
      if (v !== undefined && (ps.default !== undefined || s.required?.includes(k) || typeOf(ps) === 'object'))
        out[k] = v;
    }
    return out;
  }
  return undefined;
}

/** The fixed choices of a field: `enum` (with legacy `enumNames`), or a oneOf/anyOf of titled `const`s. */
function choicesOf(s: Schema, root: Schema): Array<{ value: unknown; label: string }> | undefined {
  if (Array.isArray(s.enum)) {
    const names = Array.isArray(s.enumNames) ? (s.enumNames as unknown[]) : [];
    return s.enum.map((v, i) => ({ value: v, label: String(names[i] ?? v) }));
  }
  const variants = (s.oneOf ?? s.anyOf)?.map((v) => resolve(v, root));
  if (variants?.length && variants.every((v) => v.const !== undefined))
    return variants.map((v) => ({ value: v.const, label: String(v.title ?? v.const) }));
  return undefined;
}

interface FieldProps {
  schema: Schema;
  root: Schema;
  value: unknown;
  onChange(v: unknown): void;
  path: string;
  label: string;
  required: boolean;
}

function Label({ label, required, schema }: { label: string; required: boolean; schema: Schema }) {
  return (
    <span class="field-label">
      {label}
      {required && (
        <span class="req" title="required">
          *
        </span>
      )}
      {schema.description && <span class="hint">{schema.description}</span>}
    </span>
  );
}

function JsonField({ value, onChange, path }: { value: unknown; onChange(v: unknown): void; path: string }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <textarea
      class={bad ? 'json bad' : 'json'}
      data-path={path}
      rows={3}
      value={text}
      placeholder="JSON"
      onInput={(e) => {
        const t = (e.target as HTMLTextAreaElement).value;
        setText(t);
        if (t.trim() === '') {
          setBad(false);
          return onChange(undefined);
        }
        try {
          onChange(JSON.parse(t));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

function Field(props: FieldProps) {
  const { root, value, onChange, path, label, required } = props;
  const s = resolve(props.schema, root);
  const choices = choicesOf(s, root);
  if (choices) {
    const at = choices.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(value));
    return (
      <label class="field">
        <Label label={label} required={required} schema={s} />
        <select
          data-path={path}
          value={at === -1 ? '' : String(at)}
          onChange={(e) => {
            const i = (e.target as HTMLSelectElement).value;
            onChange(i === '' ? undefined : choices[Number(i)]!.value);
          }}
        >
          {(!required || at === -1) && <option value="">{required ? '(choose)' : '(none)'}</option>}
          {choices.map((c, i) => (
            <option value={String(i)}>{c.label}</option>
          ))}
        </select>
      </label>
    );
  }
  const variants = s.oneOf ?? s.anyOf;
  if (variants && !s.type && !s.properties) {
    const simple = variants.map((v) => resolve(v, root)).filter((v) => typeOf(v) !== 'null');
    if (simple.length === 1)
      return <Field {...props} schema={{ ...simple[0]!, description: s.description }} />;
    return (
      <label class="field">
        <Label label={label} required={required} schema={s} />
        <JsonField value={value} onChange={onChange} path={path} />
      </label>
    );
  }
  const type = typeOf(s);
  switch (type) {
    case 'object': {
      const obj = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      const props = Object.entries(s.properties ?? {});
      if (props.length === 0)
        return (
          <label class="field">
            <Label label={label} required={required} schema={s} />
            <JsonField value={value} onChange={onChange} path={path} />
          </label>
        );
      return (
        <fieldset class="object" data-path={path}>
          {label && (
            <legend>
              <Label label={label} required={required} schema={s} />
            </legend>
          )}
          {props.map(([k, p]) => (
            <Field
              schema={p}
              root={root}
              value={obj[k]}
              path={path ? `${path}.${k}` : k}
              label={resolve(p, root).title ?? k}
              required={s.required?.includes(k) ?? false}
              onChange={(v) => {
                const next = { ...obj };
                if (v === undefined) delete next[k];
                else next[k] = v;
                onChange(next);
              }}
            />
          ))}
        </fieldset>
      );
    }
    case 'array': {
      const items = Array.isArray(value) ? value : [];
      const itemSchema = resolve(s.items, root);
      return (
        <fieldset class="array" data-path={path}>
          <legend>
            <Label label={label} required={required} schema={s} />
          </legend>
          {items.map((item, i) => (
            <div class="array-item">
              <Field
                schema={itemSchema}
                root={root}
                value={item}
                path={`${path}[${i}]`}
                label={`${i + 1}`}
                required
                onChange={(v) => onChange(items.map((x, j) => (j === i ? v : x)))}
              />
              <button
                type="button"
                class="small"
                title="Remove"
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </div>
          ))}
          <button
            type="button"
            class="small"
            data-add={path}
            onClick={() =>
              onChange([
                ...items,
                initialValue(itemSchema, root) ?? (typeOf(itemSchema) === 'string' ? '' : undefined),
              ])
            }
          >
            + add
          </button>
        </fieldset>
      );
    }
    case 'boolean':
      return (
        <label class="field check">
          <input
            type="checkbox"
            data-path={path}
            checked={value === true}
            onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
          />
          <Label label={label} required={required} schema={s} />
        </label>
      );
    case 'number':
    case 'integer':
      return (
        <label class="field">
          <Label label={label} required={required} schema={s} />
          <input
            type="number"
            data-path={path}
            step={type === 'integer' ? 1 : 'any'}
            min={s.minimum as number | undefined}
            max={s.maximum as number | undefined}
            value={typeof value === 'number' ? String(value) : ''}
            onInput={(e) => {
              const t = (e.target as HTMLInputElement).value;
              onChange(t === '' ? undefined : Number(t));
            }}
          />
        </label>
      );
    case 'string': {
      const long = typeof s.maxLength !== 'number' || s.maxLength > 200;
      const common = {
        'data-path': path,
        value: typeof value === 'string' ? value : '',
        onInput: (e: Event) => onChange((e.target as HTMLInputElement).value),
      };
      return (
        <label class="field">
          <Label label={label} required={required} schema={s} />
          {long && !s.format ? (
            <textarea rows={1} {...common} />
          ) : (
            <input
              type={
                (s.format === 'email'
                  ? 'email'
                  : s.format === 'uri'
                    ? 'url'
                    : s.format === 'date'
                      ? 'date'
                      : 'text') as 'text'
              }
              data-format={s.format}
              {...common}
            />
          )}
        </label>
      );
    }
    default:
      return (
        <label class="field">
          <Label label={label} required={required} schema={s} />
          <JsonField value={value} onChange={onChange} path={path} />
        </label>
      );
  }
}

/** The form for a schema whose value is an object (a tool's input, an elicitation). */
export function SchemaForm({
  schema,
  value,
  onChange,
}: {
  schema: Schema;
  value: Record<string, unknown>;
  onChange(v: Record<string, unknown>): void;
}) {
  const props = Object.keys(resolve(schema, schema).properties ?? {});
  if (props.length === 0) return <p class="muted">No arguments.</p>;
  return (
    <Field
      schema={schema}
      root={schema}
      value={value}
      path=""
      label=""
      required={false}
      onChange={(v) => onChange((v ?? {}) as Record<string, unknown>)}
    />
  );
}
