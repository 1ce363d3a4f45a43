/**
 * JSON.parse reports where it failed as a character offset; a person editing a config
 * file looks for a line and a column. This turns the one into the other.
 */

/** `error`'s message, its offset turned into `line L, column C`, for the text it came from. */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = / in JSON at position (\d+)/.exec(message);
  const reason = message
    .replace(/ in JSON at position \d+/, '')
    .replace(/ \(line \d+ column \d+\)$/, '')
    .trim();
  const offset = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined;
  if (offset === undefined) return reason;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${reason}`;
}
