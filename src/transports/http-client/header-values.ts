/**
 * The value encoding of the modern Streamable HTTP request headers (`Mcp-Name`,
 * `Mcp-Param-{Name}`): plain visible ASCII is sent as it is; anything else is sent as
 * `=?base64?{Base64 of the UTF-8 bytes}?=`.
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const encoder = new TextEncoder();

/**
 * Whether a value can travel as a plain header value: only printable ASCII (0x20–0x7E),
 * no leading or trailing space, and not itself shaped like the Base64 sentinel.
 */
export function isPlainHeaderValue(value: string): boolean {
  const n = value.length;
  if (n > 0 && (value.charCodeAt(0) === 0x20 || value.charCodeAt(n - 1) === 0x20)) return false;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
}

/** Base64 of the UTF-8 bytes of a string, with no Node API (runs in browsers and workers). */
export function base64Utf8(value: string): string {
  const bytes = encoder.encode(value);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Encodes a value for `Mcp-Name` or `Mcp-Param-{Name}` per the 2026-07-28 Value Encoding
 * rules.
 *
 * @example
 * ```ts
 * encodeHeaderValue('us-west1');    // 'us-west1'
 * encodeHeaderValue('Hello, 世界'); // '=?base64?SGVsbG8sIOS4lueVjA==?='
 * ```
 */
export function encodeHeaderValue(value: string): string {
  return isPlainHeaderValue(value) ? value : `${SENTINEL_PREFIX}${base64Utf8(value)}${SENTINEL_SUFFIX}`;
}
