/** A JSON object: not `null`, not an array. The guard every layer uses on decoded JSON. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
