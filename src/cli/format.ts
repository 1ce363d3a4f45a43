/** Terminal output helpers: colour only on a TTY, and a plain table. */
const color = (enabled: boolean, code: string) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);

export interface Palette {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

export function palette(stream: { isTTY?: boolean }): Palette {
  const on = stream.isTTY === true && !process.env.NO_COLOR;
  return {
    bold: color(on, '1'),
    dim: color(on, '2'),
    red: color(on, '31'),
    green: color(on, '32'),
    yellow: color(on, '33'),
    cyan: color(on, '36'),
  };
}

function clip(s: string, width: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > width ? one.slice(0, Math.max(0, width - 1)) + '…' : one;
}

/** Renders rows as aligned columns; the last column is clipped to the terminal width. */
export function table(headers: string[], rows: string[][], maxWidth = process.stdout.columns ?? 120): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fixed = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  const last = Math.max(20, maxWidth - fixed);
  widths[widths.length - 1] = Math.min(widths[widths.length - 1]!, last);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? clip(c, widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** A one-line progress bar. */
export function progressBar(progress: number, total: number | undefined, message?: string): string {
  if (!total || total <= 0) return `… ${progress}${message ? ` ${message}` : ''}`;
  const width = 24;
  const filled = Math.max(0, Math.min(width, Math.round((progress / total) * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round((100 * progress) / total)}%${message ? ` ${message}` : ''}`;
}
