import type { JsonRpcMessage } from './message.js';
import { ErrorCode } from './error-codes.js';
import { InvalidMessage, inspectMessage } from './inspect.js';
import { WireError } from './wire-error.js';

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
    value = JSON.parse(text);
  } catch (e) {
    return parseFailure(e instanceof Error ? e.message : 'invalid JSON');
  }
  // A single message (the usual frame) goes straight to its check.
  return Array.isArray(value) ? inspectValue(value) : inspectMessage(value);
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
