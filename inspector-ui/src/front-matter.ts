// YAML front matter at the top of a markdown text (`---` lines around `key: value`
// lines), split off so it is shown as a table instead of a rule and a run-on paragraph.
// Only the simple subset that skills, prompts and docs use: `key: value`, quoted values,
// and `- item` lists under a key. Anything else keeps the block as raw text (shown fenced),
// so nothing is lost or guessed; no YAML library is shipped in the page for this.

export interface FrontMatter {
  /** Each key with its value: a string, or a list of strings. Undefined when not the simple subset. */
  fields: Array<[string, string | string[]]> | undefined;
  /** The block between the `---` lines, as written. */
  raw: string;
  /** The markdown after the block. */
  body: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(---|\.\.\.)[ \t]*$/m;

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))))
    return t.startsWith('"') ? t.slice(1, -1).replace(/\\"/g, '"') : t.slice(1, -1).replace(/''/g, "'");
  return t;
}

/** The front matter of `text`, or undefined when it does not start with one. */
export function splitFrontMatter(text: string): FrontMatter | undefined {
  const open = OPEN.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return undefined;
  const raw = rest.slice(0, close.index).replace(/\r?\n$/, '');
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  return { fields: parseSimple(raw), raw, body };
}

function parseSimple(raw: string): FrontMatter['fields'] {
  const fields: Array<[string, string | string[]]> = [];
  for (const line of raw.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item) {
      const last = fields[fields.length - 1];
      if (!last || (typeof last[1] === 'string' && last[1] !== '')) return undefined;
      last[1] = [...(Array.isArray(last[1]) ? last[1] : []), unquote(item[1]!)];
      continue;
    }
    const kv = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (!kv) return undefined;
    const value = (kv[2] ?? '').trim();
    // Block scalars, flow maps and anchors are beyond the subset: show the block as written.
    if (/^[|>&*{]/.test(value)) return undefined;
    fields.push([kv[1]!, unquote(value)]);
  }
  return fields;
}
