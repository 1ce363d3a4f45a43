/**
 * Client-side rules for elicitation: schema defaults for omitted form fields (SEP-1034)
 * and the URL check for URL mode.
 */
import type { ElicitRequestParams, ElicitResult, ElicitValue } from '../protocol/types/index.js';
import { isObject } from '../jsonrpc/is-object.js';

/** Whether a default fits the field's declared type, so a bad schema cannot inject junk. */
function defaultFits(field: Record<string, unknown>, value: unknown): value is ElicitValue {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') return false;
      if (Array.isArray(field.enum)) return field.enum.includes(value);
      if (Array.isArray(field.oneOf)) return field.oneOf.some((o) => isObject(o) && o.const === value);
      return true;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    default:
      return false;
  }
}

/**
 * After a form-mode `accept`, fills each field the user left out with the schema's
 * `default` (strings, numbers, integers, booleans, single- and multi-select enums).
 * Fields the user did answer are never touched. Returns a new result; the input is not
 * modified.
 */
export function applyElicitationDefaults(params: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || params.mode === 'url') return result;
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : undefined;
  if (!props) return result;
  const given = isObject(result.content) ? result.content : {};
  let content: Record<string, ElicitValue> | undefined;
  for (const key of Object.keys(props)) {
    const field = props[key];
    if (!isObject(field) || !Object.hasOwn(field, 'default') || Object.hasOwn(given, key)) continue;
    const value = field.default;
    if (!defaultFits(field, value)) continue;
    content ??= { ...(given as Record<string, ElicitValue>) };
    content[key] = Array.isArray(value) ? [...(value as string[])] : value;
  }
  return content ? { ...result, content } : result;
}

/**
 * Why a URL-mode elicitation must be refused, or undefined when its URL is a plain
 * `http:` or `https:` URL. Anything else (`javascript:`, `data:`, `file:`, custom schemes,
 * unparsable text, credentials in the URL) is refused: the handler never sees it.
 */
export function urlRefusal(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length === 0) return 'the request has no URL';
  if (url.length > 8192) return 'the URL is too long';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL cannot be parsed';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `the URL scheme ${JSON.stringify(parsed.protocol)} is not http: or https:`;
  }
  if (parsed.username !== '' || parsed.password !== '') return 'the URL carries credentials';
  return undefined;
}
