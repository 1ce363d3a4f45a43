import { ErrorCode, InvalidMessage, ParsedBatch, WireError } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../../jsonrpc/index.js';
import { MetaKey } from '../../protocol/meta-keys.js';

/** Visible ASCII, space or tab: what a plain header value may hold (RFC 9110). */
const PLAIN = /^[\x20-\x7e\t]*$/;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/;
const dec = new TextDecoder('utf-8', { fatal: true });
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;

/**
 * Strict RFC 4648 base64: padded to a multiple of four, `=` only at the end, and the unused
 * bits of the last group zero. SEP-2243 forbids the unpadded and non-canonical forms that
 * `atob` tolerates. Null when the text is not canonical base64.
 */
export function decodeBase64Strict(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const v = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++) {
      const c = text.charCodeAt(i + j);
      if (c === 61 /* = */ && last && j >= 4 - pad) continue;
      const n = c < 128 ? B64_VALUE[c]! : -1;
      if (n < 0) return null;
      v[j] = n;
    }
    const bits = (v[0]! << 18) | (v[1]! << 12) | (v[2]! << 6) | v[3]!;
    // Non-zero bits under the padding would make two texts decode to the same bytes.
    if (last && ((pad === 2 && (bits & 0xffff) !== 0) || (pad === 1 && (bits & 0xff) !== 0))) return null;
    out[o++] = bits >> 16;
    if (o < out.length) out[o++] = (bits >> 8) & 0xff;
    if (o < out.length) out[o++] = bits & 0xff;
  }
  return out;
}

/** Decodes a header value that may use the `=?base64?…?=` sentinel; null when malformed. */
export function decodeHeaderValue(value: string): string | null {
  const m = SENTINEL.exec(value);
  if (!m) {
    // Plain values must be visible ASCII, space or tab (RFC 9110).
    return PLAIN.test(value) ? value : null;
  }
  const bytes = decodeBase64Strict(m[1]!);
  if (!bytes) return null;
  try {
    return dec.decode(bytes);
  } catch {
    return null;
  }
}

const mismatch = (message: string): WireError =>
  new WireError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);

/** A message with a method: a request or a notification. */
type MethodMessage = Pick<JsonRpcRequest, 'method' | 'params'>;

/** The body values the standard headers mirror. */
function nameOf(msg: MethodMessage): string | undefined {
  const p = msg.params;
  if (!p) return undefined;
  if (msg.method === 'tools/call' || msg.method === 'prompts/get')
    return typeof p.name === 'string' ? p.name : undefined;
  if (msg.method === 'resources/read') return typeof p.uri === 'string' ? p.uri : undefined;
  return undefined;
}

/** The task id the tasks extension's methods mirror into `Mcp-Name`. */
function taskIdOf(msg: MethodMessage): string | undefined {
  const m = msg.method;
  if (m !== 'tasks/get' && m !== 'tasks/update' && m !== 'tasks/cancel') return undefined;
  const id = msg.params?.taskId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The value `Mcp-Name` mirrors for a message: the tool or prompt name, the resource URI, or
 * the task id of the tasks extension's methods; undefined for other methods.
 */
export function mirroredNameOf(msg: MethodMessage): string | undefined {
  return nameOf(msg) ?? taskIdOf(msg);
}

/**
 * The legacy era's rule for `Mcp-Method` and `Mcp-Name` (headers no legacy revision
 * defines): optional, but when sent they must agree with every message of the body, as in
 * the modern era, so that a proxy or gateway that routes, limits or authorizes on them is
 * never told one thing while the server does another. -32020 on any difference.
 */
export function checkLegacyMirrors(
  frame: JsonRpcMessage | ParsedBatch,
  header: (name: string) => string | undefined,
): WireError | undefined {
  const method = header('mcp-method');
  const rawName = header('mcp-name');
  if (method === undefined && rawName === undefined) return undefined;
  const items = frame instanceof ParsedBatch ? frame.items : [frame];
  const name = rawName === undefined ? undefined : decodeHeaderValue(rawName);
  if (name === null) return mismatch('the Mcp-Name header is malformed');
  for (const m of items) {
    if (m instanceof InvalidMessage) continue;
    const own = 'method' in m ? m.method : undefined;
    if (method !== undefined && method !== own) {
      return mismatch(
        `Mcp-Method ${JSON.stringify(method)} does not match the body's ${JSON.stringify(own)}`,
      );
    }
    if (name === undefined || own === undefined) continue;
    const bodyName = nameOf(m as MethodMessage);
    const taskId = bodyName === undefined ? taskIdOf(m as MethodMessage) : undefined;
    if (bodyName !== undefined && name !== bodyName) return mismatch(`Mcp-Name does not match the body`);
    if (taskId !== undefined && name.trim() !== taskId)
      return mismatch(`Mcp-Name does not match the body's taskId`);
  }
  return undefined;
}

/** Where the request headers are read: the exchange itself (no closure per request). */
export interface HeaderSource {
  header(name: string): string | undefined;
  /** Who is asking: a tool the caller may not see has no schema to check. */
  readonly authInfo?: unknown;
}

/** The tools' input schemas by name, as the caller with `authInfo` sees them. */
export interface ToolSchemas {
  get(name: string, authInfo?: unknown): Record<string, unknown> | undefined;
}

/**
 * Checks the modern request headers against the body: `MCP-Protocol-Version`, `Mcp-Method`
 * and `Mcp-Name` must be present and equal to what the body says; `Mcp-Param-*` headers of
 * the tool's `x-mcp-header` properties must match the arguments. Returns -32020 on any
 * difference, so routers that trust headers can never be told one thing while the server
 * does another.
 */
export function checkModernHeaders(
  msg: JsonRpcRequest,
  ex: HeaderSource,
  toolSchemas: ToolSchemas | undefined,
): WireError | undefined {
  const params = msg.params;
  const version = ex.header('mcp-protocol-version');
  if (version === undefined) return mismatch('the MCP-Protocol-Version header is required');
  // The router let only requests whose `_meta` names a version through.
  const bodyVersion = (params?._meta as Record<string, unknown> | undefined)?.[MetaKey.ProtocolVersion];
  if (version !== bodyVersion) {
    return mismatch(
      `MCP-Protocol-Version ${JSON.stringify(version)} does not match the body's ${JSON.stringify(bodyVersion)}`,
    );
  }
  const method = ex.header('mcp-method');
  if (method === undefined) return mismatch('the Mcp-Method header is required');
  if (method !== msg.method)
    return mismatch(
      `Mcp-Method ${JSON.stringify(method)} does not match the body's ${JSON.stringify(msg.method)}`,
    );
  let bodyName: string | undefined;
  if (method === 'tools/call' || method === 'prompts/get') {
    if (typeof params?.name === 'string') bodyName = params.name;
  } else if (method === 'resources/read') {
    if (typeof params?.uri === 'string') bodyName = params.uri;
  } else {
    // The tasks extension: Mcp-Name carries the task id. Checked when sent, so routers
    // that trust it are never misled; tolerated when absent.
    const taskId = taskIdOf(msg);
    const raw = taskId === undefined ? undefined : ex.header('mcp-name');
    if (raw !== undefined && decodeHeaderValue(raw)?.trim() !== taskId)
      return mismatch(`Mcp-Name does not match the body's taskId`);
    return undefined;
  }
  if (bodyName === undefined) return undefined;
  const raw = ex.header('mcp-name');
  if (raw === undefined) return mismatch(`the Mcp-Name header is required for ${msg.method}`);
  const name = decodeHeaderValue(raw);
  if (name === null) return mismatch('the Mcp-Name header is malformed');
  if (name !== bodyName)
    return mismatch(`Mcp-Name does not match the body's ${msg.method === 'resources/read' ? 'uri' : 'name'}`);
  if (method === 'tools/call' && toolSchemas) {
    const schema = toolSchemas.get(bodyName, ex.authInfo);
    const specs = schema && annotationsOf(schema);
    if (specs && specs.length > 0)
      return checkParamHeaders(specs, (params?.arguments ?? {}) as Record<string, unknown>, ex);
  }
  return undefined;
}

type HeaderSpec = { header: string; path: string[]; type: unknown };

/** Each schema's `x-mcp-header` annotations, found once: a tool's schema never changes. */
const annotations = new WeakMap<Record<string, unknown>, readonly HeaderSpec[]>();

function annotationsOf(schema: Record<string, unknown>): readonly HeaderSpec[] {
  let specs = annotations.get(schema);
  if (!specs) {
    const found: HeaderSpec[] = [];
    annotated(schema, [], found);
    annotations.set(schema, (specs = found));
  }
  return specs;
}

/** Walks `properties` chains only, as the spec allows, collecting x-mcp-header annotations. */
function annotated(
  schema: Record<string, unknown>,
  path: string[],
  out: Array<{ header: string; path: string[]; type: unknown }>,
): void {
  const props = schema.properties;
  if (typeof props !== 'object' || props === null) return;
  for (const [key, sub] of Object.entries(props as Record<string, unknown>)) {
    if (typeof sub !== 'object' || sub === null) continue;
    const s = sub as Record<string, unknown>;
    if (typeof s['x-mcp-header'] === 'string')
      out.push({ header: s['x-mcp-header'], path: [...path, key], type: s.type });
    annotated(s, [...path, key], out);
  }
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = args;
  for (const k of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

function checkParamHeaders(
  specs: readonly HeaderSpec[],
  args: Record<string, unknown>,
  ex: HeaderSource,
): WireError | undefined {
  for (const spec of specs) {
    const value = valueAt(args, spec.path);
    const raw = ex.header(`mcp-param-${spec.header.toLowerCase()}`);
    if (value === undefined || value === null) {
      if (raw !== undefined) return mismatch(`Mcp-Param-${spec.header} was sent but the argument is absent`);
      continue;
    }
    if (raw === undefined) return mismatch(`the Mcp-Param-${spec.header} header is required`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === null) return mismatch(`Mcp-Param-${spec.header} holds invalid characters`);
    const same =
      typeof value === 'number'
        ? Number(decoded) === value
        : typeof value === 'boolean'
          ? decoded === String(value)
          : decoded === value;
    if (!same) return mismatch(`Mcp-Param-${spec.header} does not match the argument`);
  }
  return undefined;
}
