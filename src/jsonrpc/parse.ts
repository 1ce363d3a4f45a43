import type { JsonRpcMessage } from './message.js';
import { ErrorCode } from './error-codes.js';
import { InvalidMessage, inspectMessage } from './inspect.js';
import { WireError } from './wire-error.js';
import { deepFreeze } from './raw-json.js';

/** The outcome of parsing one frame: a message, a batch, or a failure to answer. */
export type ParsedFrame = JsonRpcMessage | InvalidMessage | ParsedBatch;

/** A JSON array frame. Whether batches are allowed is the session's decision. */
export class ParsedBatch {
  constructor(readonly items: ReadonlyArray<JsonRpcMessage | InvalidMessage>) {}
}

const parseFailure = (detail: string): InvalidMessage =>
  new InvalidMessage(new WireError(ErrorCode.ParseError, `Parse error: ${detail}`), null, true);

/**
 * Parses one frame of JSON text. Invalid JSON gives -32700 with a null id; a valid JSON
 * value that is not a JSON-RPC message gives -32600. An empty array is an invalid request.
 *
 * `JSON.parse` keeps `__proto__` as an ordinary own key and never touches prototypes, and
 * mcpkit never merges parsed objects by assignment, so hostile keys pollute nothing.
 */
export function parseFrame(text: string): ParsedFrame {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (e) {
    return parseFailure(e instanceof Error ? e.message : 'invalid JSON');
  }
  // A single message (the usual frame) goes straight to its check.
  return Array.isArray(value) ? inspectValue(value) : inspectMessage(value);
}

// ---------------------------------------------------------------- modern `_meta` tails

/**
 * Modern messages end alike: a request's params close with the client's `_meta` (version,
 * info and capabilities under long reverse-DNS keys) and a result with the server's. That
 * tail is about half of a `tools/call`'s text and half of parsing it. A tail seen twice is
 * kept, parsed once and deep-frozen; a message ending with a kept tail is parsed
 * without it and gets the kept object, shared, as its `_meta`.
 *
 * Why the result is what JSON.parse gives: the head (text before `,"_meta":`) closed with
 * `}}` parses only if exactly the message and one object in it are open where the head ends,
 * outside any string. The checks below leave that object no candidate but `params` (or
 * `result`): every other key is known and must hold a primitive. It holds a member already,
 * so the comma was valid; the tail is one JSON value; a repeated `_meta` key is overridden by
 * the last one, in both readings. Anything else takes the ordinary parse.
 */
const META_MARK = ',"_meta":';
/** The longest tail kept: a client's info and capabilities, with room to spare. */
const MAX_TAIL_CHARS = 2048;
/** Tails kept, most recent first; few, since each miss compares against all. */
const MAX_TAILS = 8;
/** `,"_meta":<tail>}}` and the tail's frozen value. */
const kept: { suffix: string; meta: Record<string, unknown> }[] = [];
/** Tails seen once: the second sighting keeps one. Cleared when full, so tails that vary per message cost a lookup. */
const seenTails = new Set<string>();

function parseJsonText(text: string): unknown {
  const n = text.length;
  // `}}}`: the `_meta` object closes params (or result), which closes the message.
  if (
    n < 32 ||
    text.charCodeAt(n - 1) !== 125 ||
    text.charCodeAt(n - 2) !== 125 ||
    text.charCodeAt(n - 3) !== 125
  )
    return JSON.parse(text);
  // A slice compared with ===, which compares memory: a lookup by the tail's text hashed 200
  // characters, and endsWith compared them one at a time, each costing what the parse saved.
  for (let i = 0; i < kept.length; i++) {
    const k = kept[i]!;
    if (k.suffix.length >= n || text.slice(n - k.suffix.length) !== k.suffix) continue;
    let head: unknown;
    try {
      head = JSON.parse(text.slice(0, n - k.suffix.length) + '}}');
    } catch {
      return JSON.parse(text);
    }
    const inner = openObjectOf(head);
    if (inner === undefined) return JSON.parse(text);
    inner._meta = k.meta;
    return head;
  }
  const value = JSON.parse(text);
  let at = text.indexOf(META_MARK, n > MAX_TAIL_CHARS ? n - MAX_TAIL_CHARS : 0);
  if (at === -1) return value;
  for (let next = text.indexOf(META_MARK, at + 1); next !== -1; next = text.indexOf(META_MARK, next + 1))
    at = next;
  const tail = text.slice(at + META_MARK.length, n - 2);
  if (seenTails.has(tail)) {
    seenTails.delete(tail);
    keepTail(tail, value);
  } else {
    if (seenTails.size >= 64) seenTails.clear();
    seenTails.add(tail);
  }
  return value;
}

/** The object the head's tail belongs in: `params` of a request, `result` of a response. */
function openObjectOf(head: unknown): Record<string, unknown> | undefined {
  if (typeof head !== 'object' || head === null || Array.isArray(head)) return undefined;
  const m = head as Record<string, unknown>;
  if (m.jsonrpc !== '2.0' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  let last: string | undefined;
  let count = 0;
  for (const key in m) {
    last = key;
    count++;
  }
  let inner: unknown;
  if (last === 'params' && count === 4 && typeof m.method === 'string') inner = m.params;
  else if (last === 'result' && count === 3) inner = m.result;
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return undefined;
  for (const _ in inner) return inner as Record<string, unknown>;
  // An empty head object: the text was `{,"_meta":…}`, which is not JSON.
  return undefined;
}

function keepTail(tail: string, value: unknown): void {
  // Only a tail that is the `_meta` of a well-formed message's params or result.
  const inner = openObjectOf(value);
  const meta = inner?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return;
  // The mark found last may sit inside a value (a nested `_meta` in a string): then the tail
  // is no JSON value, and nothing is kept.
  let parsed: unknown;
  try {
    parsed = JSON.parse(tail);
  } catch {
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
  if (kept.length >= MAX_TAILS) kept.pop();
  kept.unshift({ suffix: META_MARK + tail + '}}', meta: deepFreeze(parsed as Record<string, unknown>) });
}

/** Like {@link parseFrame} for a value that is already parsed (for example by an HTTP layer). */
export function inspectValue(value: unknown): ParsedFrame {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return new InvalidMessage(
        new WireError(ErrorCode.InvalidRequest, 'An empty batch is not a valid request'),
        null,
        true,
      );
    }
    return new ParsedBatch(value.map(inspectMessage));
  }
  return inspectMessage(value);
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes UTF-8 bytes strictly and parses them. Invalid UTF-8 is a parse error (-32700),
 * never silently replaced with U+FFFD.
 */
export function parseFrameBytes(bytes: Uint8Array): ParsedFrame {
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    return parseFailure('invalid UTF-8');
  }
  return parseFrame(text);
}
