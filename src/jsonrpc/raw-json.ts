/**
 * JSON text written into a message as is. A server that serialized a value once (a page of a
 * large tool list) puts it in a result as a `RawJson` and marks the result with
 * {@link HOLDS_RAW_JSON}; {@link serializeMessage} then splices the text in instead of
 * stringifying the value again. Any other serializer still writes the same JSON, through
 * `toJSON`, only slower.
 */
export class RawJson {
  constructor(
    /** The value's JSON text: one valid JSON value, as `JSON.stringify` writes it. */
    readonly text: string,
  ) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * Set (to true) on a result object some of whose own values are {@link RawJson}. A symbol, so
 * it is never written, and object spread keeps it when a later layer copies the result.
 */
export const HOLDS_RAW_JSON: unique symbol = Symbol('mcpkit.holdsRawJson');

/** The texts of the values {@link fixedJson} made. */
const fixedTexts = new WeakMap<object, string>();

/**
 * A deep-frozen copy of a JSON value whose text is kept: {@link serializeMessage} splices the
 * text in wherever the copy is a request's `params._meta` or a result's `_meta`, instead of
 * stringifying it again. A modern client sends the same `_meta` (long reverse-DNS keys, its
 * info and capabilities) on every request; writing it was half the cost of serializing a
 * `tools/call`. Frozen, so the text can never go stale. Internal.
 */
export function fixedJson<T extends object>(value: T): Readonly<T> {
  const text = JSON.stringify(value);
  const copy = deepFreeze(JSON.parse(text) as T);
  fixedTexts.set(copy, text);
  return copy;
}

/** Freezes a JSON value and everything in it. Internal. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The kept text of `_meta` in `inner` (a request's params or a result), if it has one. */
export function fixedMetaText(inner: unknown): string | undefined {
  if (typeof inner !== 'object' || inner === null) return undefined;
  const meta = (inner as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? fixedTexts.get(meta) : undefined;
}

/** The last own enumerable key of a plain object, or undefined. */
function lastKeyOf(value: object): string | undefined {
  let last: string | undefined;
  for (const key in value) last = key;
  return last;
}

/**
 * A message whose `field` (`params` or `result`, its last key) ends with a {@link fixedJson}
 * `_meta`: JSON.stringify writes the rest, with `_meta` unset for that one synchronous call,
 * and the kept text is appended. One native stringify and three joins; writing it key by key
 * cost more than the `_meta` saved. Undefined when the shape is not that (the caller stringifies).
 */
export function fixedMetaMessage(
  message: Record<string, unknown>,
  field: 'params' | 'result',
  metaText: string,
): string | undefined {
  const inner = message[field] as Record<string, unknown>;
  if (
    message.toJSON !== undefined ||
    inner.toJSON !== undefined ||
    Array.isArray(inner) ||
    !Object.isExtensible(inner) ||
    lastKeyOf(message) !== field ||
    lastKeyOf(inner) !== '_meta'
  )
    return undefined;
  const meta = inner._meta;
  let text: string;
  inner._meta = undefined;
  try {
    text = JSON.stringify(message);
  } finally {
    inner._meta = meta;
  }
  // `…}}`: the inner object and the message close; `{}}` when `_meta` was all it held.
  const open = text.charCodeAt(text.length - 3) === 123;
  return text.slice(0, -2) + (open ? '"_meta":' : ',"_meta":') + metaText + '}}';
}

/** `{...}` of an object whose own values may be RawJson: JSON.stringify's output, with the texts spliced in. */
function objectText(value: Record<string, unknown>): string {
  let out = '{';
  for (const k of Object.keys(value)) {
    const v = value[k];
    const text =
      v instanceof RawJson
        ? v.text
        : k === '_meta' && typeof v === 'object' && v !== null
          ? (fixedTexts.get(v) ?? JSON.stringify(v))
          : JSON.stringify(v);
    if (text === undefined) continue; // undefined and functions are left out, as JSON.stringify does
    out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + text;
  }
  return out + '}';
}

/**
 * A message whose `field` (`result` or `params`) holds RawJson or a {@link fixedJson} `_meta`,
 * serialized with the texts spliced in. The same text JSON.stringify writes, provided the
 * inner object has no `toJSON` of its own (the caller checks).
 */
export function splicedMessage(message: Record<string, unknown>, field: 'result' | 'params'): string {
  let out = '{';
  for (const k of Object.keys(message)) {
    const v = message[k];
    const text = k === field ? objectText(v as Record<string, unknown>) : JSON.stringify(v);
    if (text === undefined) continue;
    out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + text;
  }
  return out + '}';
}
