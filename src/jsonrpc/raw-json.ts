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

/** `{...}` of an object whose own values may be RawJson: JSON.stringify's output, with the texts spliced in. */
function objectText(value: Record<string, unknown>): string {
  let out = '{';
  for (const k of Object.keys(value)) {
    const v = value[k];
    const text = v instanceof RawJson ? v.text : JSON.stringify(v);
    if (text === undefined) continue; // undefined and functions are left out, as JSON.stringify does
    out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + text;
  }
  return out + '}';
}

/** A response whose result holds RawJson, serialized with the texts spliced in. */
export function splicedResponse(message: Record<string, unknown>): string {
  let out = '{';
  for (const k of Object.keys(message)) {
    const v = message[k];
    const text = k === 'result' ? objectText(v as Record<string, unknown>) : JSON.stringify(v);
    if (text === undefined) continue;
    out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + text;
  }
  return out + '}';
}
