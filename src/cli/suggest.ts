/** "Did you mean" for a name the user typed: a command, a tool, a server. */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The known name closest to `typed`, when it is close enough to be a typo. */
export function closestName(typed: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(typed.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= Math.max(1, Math.floor(typed.length / 3)) ? best : undefined;
}

/** ` (did you mean "x"?)` when a known name is close to `typed`, else ''. */
export function suggestion(typed: string, known: Iterable<string>): string {
  const close = closestName(typed, known);
  return close === undefined ? '' : ` (did you mean "${close}"?)`;
}
