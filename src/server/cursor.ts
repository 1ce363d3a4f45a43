import { WireError } from '../jsonrpc/index.js';

const PREFIX = 'mk1.';

/** Makes an opaque cursor for the given list offset. */
export function encodeCursor(offset: number): string {
  return PREFIX + btoa(String(offset)).replace(/=+$/, '');
}

/** Reads a cursor made by {@link encodeCursor}; anything else is -32602. */
export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor === 'string' && cursor.startsWith(PREFIX) && cursor.length < 40) {
    try {
      const text = atob(cursor.slice(PREFIX.length));
      if (/^(0|[1-9][0-9]{0,8})$/.test(text)) return Number(text);
    } catch {
      // fall through to the error
    }
  }
  throw WireError.invalidParams('Invalid cursor');
}
