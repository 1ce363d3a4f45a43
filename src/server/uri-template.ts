/**
 * RFC 6570 URI templates (level 4, without associative-array values) for MCP resource
 * templates: expansion, and a reverse match that is a single left-to-right scan with no
 * backtracking and no regular expressions. An expression followed by a literal ends at the
 * FIRST (leftmost) occurrence of that literal, so `{+path}/data` against `a/data/b/data`
 * gives `path = 'a'` and then fails on the leftover instead of trying other splits; that
 * keeps every match O(input length) (CVE-2026-0621 was a backtracking regex elsewhere).
 */

/** Values accepted by {@link UriTemplate.expand}, e.g. `{ id: '42', tags: ['a', 'b'] }`. */
export type UriTemplateVariables = Record<string, string | readonly string[] | undefined>;

/** Variables returned by {@link UriTemplate.match}, e.g. `{ id: '42', seg: ['a', 'b'] }`. */
export type UriTemplateMatch = Record<string, string | string[]>;

const MAX_TEMPLATE_LENGTH = 10_000;
const MAX_EXPRESSIONS = 100;
const MAX_URI_LENGTH = 64 * 1024;

interface Operator {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly ifemp: string;
  /** Whether reserved characters (and pct-triplets) are passed through unencoded. */
  readonly reserved: boolean;
}

/** RFC 6570 appendix A table: operator, first, sep, named, ifemp, reserved. */
const OPERATORS = new Map<string, Operator>(
  (
    [
      ['', '', ',', false, '', false],
      ['+', '', ',', false, '', true],
      ['#', '#', ',', false, '', true],
      ['.', '.', '.', false, '', false],
      ['/', '/', '/', false, '', false],
      [';', ';', ';', true, '', false],
      ['?', '?', '&', true, '=', false],
      ['&', '&', '&', true, '=', false],
    ] as const
  ).map(([key, first, sep, named, ifemp, reserved]) => [key, { first, sep, named, ifemp, reserved }]),
);

interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix: number | undefined;
}

interface Expression {
  readonly op: Operator;
  readonly vars: readonly VarSpec[];
  readonly byName: ReadonlyMap<string, VarSpec>;
  /** Character code that ends a value token (-1 for none). */
  readonly stop: number;
}

type Part = string | Expression;

const UNRESERVED = 1;
const RESERVED = 2;
const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9\-._~]/.test(ch)) CHAR_CLASS[c] = UNRESERVED;
  else if (":/?#[]@!$&'()*+,;=".includes(ch)) CHAR_CLASS[c] = RESERVED;
}
const PERCENT = 0x25;
const COMMA = 0x2c;
const utf8 = new TextEncoder();

function isHex(s: string, i: number, limit: number): boolean {
  const c = i < limit ? s.charCodeAt(i) : 0;
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Whether a pct-encoded triplet (`%` HEXDIG HEXDIG) starts at `i`. */
function isTriplet(s: string, i: number, limit: number): boolean {
  return s.charCodeAt(i) === PERCENT && isHex(s, i + 1, limit) && isHex(s, i + 2, limit);
}

/** Percent-encodes everything outside unreserved (plus reserved and pct-triplets if `reserved`). */
function encode(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const cls = c < 128 ? CHAR_CLASS[c] : 0;
    if (cls === UNRESERVED || (reserved && cls === RESERVED)) {
      out += value[i];
    } else if (reserved && isTriplet(value, i, value.length)) {
      out += value.slice(i, i + 3);
      i += 2;
    } else {
      const ch = String.fromCodePoint(value.codePointAt(i) ?? c);
      i += ch.length - 1;
      for (const b of utf8.encode(ch)) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

/** The first `n` Unicode code points of `value`. */
function prefixOf(value: string, n: number): string {
  let i = 0;
  for (let count = 0; i < value.length && count < n; count++) {
    i += (value.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  }
  return value.slice(0, i);
}

/** Length of the varchar (ALPHA / DIGIT / "_" / pct-encoded) at `i`, or 0. */
function isVarChar(s: string, i: number, limit: number): number {
  const c = s.charCodeAt(i);
  if (c === PERCENT) return isTriplet(s, i, limit) ? 3 : 0;
  return c < 128 && CHAR_CLASS[c] === UNRESERVED && c !== 0x2e && c !== 0x2d && c !== 0x7e ? 1 : 0;
}

function parseVarSpec(spec: string, where: string): VarSpec {
  const explode = spec.endsWith('*');
  const colon = explode ? -1 : spec.indexOf(':');
  const name = explode ? spec.slice(0, -1) : colon < 0 ? spec : spec.slice(0, colon);
  const digits = colon < 0 ? undefined : spec.slice(colon + 1);
  if (digits !== undefined && !/^[1-9][0-9]{0,3}$/.test(digits)) {
    throw new Error(`Invalid prefix length ':${digits}' ${where} (expected 1-9999)`);
  }
  if (name === '') throw new Error(`Empty variable name ${where}`);
  // varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
  for (let i = 0; i < name.length;) {
    if (name[i] === '.' && i > 0) i++; // a single dot between varchars
    const n = isVarChar(name, i, name.length);
    if (n === 0) throw new Error(`Invalid variable name '${name}' ${where}`);
    i += n;
  }
  return { name, explode, prefix: digits === undefined ? undefined : Number(digits) };
}

function parseExpression(body: string, at: number): Expression {
  const where = `in expression at index ${at}`;
  if (body === '') throw new Error(`Empty expression '{}' at index ${at}`);
  if (body.includes('{')) throw new Error(`Unclosed '{' at index ${at}`);
  let operator = OPERATORS.get(body[0] ?? '');
  if (operator !== undefined) body = body.slice(1);
  else if (isVarChar(body, 0, body.length) > 0) operator = OPERATORS.get('') as Operator;
  else throw new Error(`Unsupported operator '${body[0]}' ${where}`);
  const vars = body.split(',').map((spec) => parseVarSpec(spec, where));
  const single = vars.length === 1 && !vars[0]?.explode;
  return {
    op: operator,
    vars,
    byName: new Map(vars.map((v) => [v.name, v])),
    stop: operator.reserved && single ? -1 : operator.sep.charCodeAt(0),
  };
}

/** Internal control flow for "this URI does not match". */
const NO_MATCH = Symbol('no match');

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw NO_MATCH;
  }
}

/** End of the value token starting at `i`: allowed chars, valid pct-triplets, not `stop`. */
function scanToken(uri: string, i: number, limit: number, e: Expression): number {
  while (i < limit) {
    const c = uri.charCodeAt(i);
    if (c === e.stop) break;
    if (c === PERCENT) {
      if (!isTriplet(uri, i, limit)) break;
      i += 3;
      continue;
    }
    const cls = c < 128 ? CHAR_CLASS[c] : UNRESERVED; // raw non-ASCII (IRI) is accepted
    if (cls === UNRESERVED || (cls === RESERVED && (e.op.reserved || c === COMMA))) i++;
    else break;
  }
  return i;
}

/** A non-exploded value: unencoded commas in a non-`,`-separated operator mean a list. */
function toValue(raw: string, e: Expression): string | string[] {
  if (!e.op.reserved && e.op.sep !== ',' && raw.includes(',')) return raw.split(',').map(decode);
  return decode(raw);
}

type Found = Map<string, string | string[]>;

function record(found: Found, name: string, value: string | string[]): void {
  const old = found.get(name);
  if (old !== undefined && JSON.stringify(old) !== JSON.stringify(value)) throw NO_MATCH;
  found.set(name, value);
}

/** Operators none, +, #, . and /: positional tokens. Returns the end index. */
function matchPositional(e: Expression, uri: string, pos: number, limit: number, found: Found) {
  const { op: o } = e;
  const begin = pos;
  if (o.first !== '') {
    if (pos >= limit || uri[pos] !== o.first) return begin;
    pos++;
  }
  const token = (start: number) => uri.slice(start, (pos = scanToken(uri, start, limit, e)));
  const sepAhead = () => pos < limit && uri[pos] === o.sep;
  let raw = token(pos);
  // With no prefix character, an empty leading token means "all variables undefined".
  if (o.first === '' && raw === '' && !sepAhead()) return begin;
  for (let i = 0; i < e.vars.length; i++) {
    const v = e.vars[i] as VarSpec;
    if (i > 0) {
      if (!sepAhead()) break; // the remaining variables are undefined
      raw = token(pos + 1);
    }
    if (v.explode) {
      const items = [decode(raw)];
      while (sepAhead()) items.push(decode(token(pos + 1)));
      record(found, v.name, items);
    } else {
      record(found, v.name, toValue(raw, e));
    }
  }
  return pos;
}

/** Operators ;, ? and &: `name[=value]` pairs in any order. Returns the end index. */
function matchNamed(e: Expression, uri: string, pos: number, limit: number, found: Found) {
  const { op: o } = e;
  const values = new Map<VarSpec, string | string[]>();
  let cursor = pos;
  while (cursor < limit && uri[cursor] === (cursor === pos ? o.first : o.sep)) {
    let keyEnd = cursor + 1;
    while (keyEnd < limit) {
      const n = uri[keyEnd] === '.' ? 1 : isVarChar(uri, keyEnd, limit);
      if (n === 0) break;
      keyEnd += n;
    }
    const v = e.byName.get(uri.slice(cursor + 1, keyEnd));
    if (v === undefined) break; // not ours: leave it for the rest of the template
    const hasValue = keyEnd < limit && uri[keyEnd] === '=';
    cursor = hasValue ? scanToken(uri, keyEnd + 1, limit, e) : keyEnd;
    const raw = hasValue ? uri.slice(keyEnd + 1, cursor) : '';
    const previous = values.get(v);
    if (!v.explode && previous !== undefined) throw NO_MATCH; // non-exploded variable twice
    if (!v.explode) values.set(v, toValue(raw, e));
    else if (previous === undefined) values.set(v, [decode(raw)]);
    else (previous as string[]).push(decode(raw));
  }
  for (const [v, value] of values) record(found, v.name, value);
  return cursor;
}

/**
 * A parsed RFC 6570 URI template.
 *
 * @example
 * const t = UriTemplate.parse('test://template/{id}/data');
 * t.expand({ id: '123' }); // 'test://template/123/data'
 * t.match('test://template/123/data'); // { id: '123' }
 */
export class UriTemplate {
  /**
   * The template source text.
   *
   * @example
   * UriTemplate.parse('file:///{+path}').template; // 'file:///{+path}'
   */
  readonly template: string;

  /**
   * Distinct variable names in order of first appearance.
   *
   * @example
   * UriTemplate.parse('search://q{?query,limit}').variableNames; // ['query', 'limit']
   */
  readonly variableNames: readonly string[];

  readonly #parts: readonly Part[];

  private constructor(template: string, parts: readonly Part[]) {
    this.template = template;
    this.#parts = parts;
    const names = new Set<string>();
    for (const p of parts) if (typeof p !== 'string') for (const v of p.vars) names.add(v.name);
    this.variableNames = Object.freeze([...names]);
  }

  /**
   * Parses a template, throwing an `Error` that names the problem and its index when the
   * template is malformed (unclosed or stray brace, unsupported operator, empty or invalid
   * variable name, bad prefix, over 10,000 characters or over 100 expressions).
   *
   * @example
   * const t = UriTemplate.parse('file:///{+path}');
   * UriTemplate.parse('x/{id'); // throws Error: Unclosed '{' at index 2
   */
  static parse(template: string): UriTemplate {
    if (typeof template !== 'string') throw new TypeError('URI template must be a string');
    if (template.length > MAX_TEMPLATE_LENGTH) {
      throw new Error(`URI template is longer than ${MAX_TEMPLATE_LENGTH} characters`);
    }
    const parts: Part[] = [];
    let expressions = 0;
    let i = 0;
    while (i < template.length) {
      const open = template.indexOf('{', i);
      const literalEnd = open < 0 ? template.length : open;
      const stray = template.indexOf('}', i);
      if (stray >= 0 && stray < literalEnd) throw new Error(`Unmatched '}' at index ${stray}`);
      if (literalEnd > i) parts.push(encode(template.slice(i, literalEnd), true));
      if (open < 0) break;
      const close = template.indexOf('}', open + 1);
      if (close < 0) throw new Error(`Unclosed '{' at index ${open}`);
      if (++expressions > MAX_EXPRESSIONS) {
        throw new Error(`URI template has more than ${MAX_EXPRESSIONS} expressions`);
      }
      parts.push(parseExpression(template.slice(open + 1, close), open));
      i = close + 1;
    }
    return new UriTemplate(template, parts);
  }

  /**
   * Expands the template (RFC 6570 level 4, minus associative arrays). `undefined`
   * and empty-list variables are skipped; `:N` keeps the first N code points of a string.
   *
   * @example
   * UriTemplate.parse('search://q{?query,limit}').expand({ query: 'a b' }); // 'search://q?query=a%20b'
   * UriTemplate.parse('x{/seg*}').expand({ seg: ['a', 'b'] }); // 'x/a/b'
   */
  expand(vars: UriTemplateVariables): string {
    let out = '';
    for (const part of this.#parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const { op: o } = part;
      let first = true;
      for (const v of part.vars) {
        const value = Object.hasOwn(vars, v.name) ? vars[v.name] : undefined;
        if (value === undefined || value === null) continue;
        if (typeof value !== 'string' && value.length === 0) continue; // empty list = undefined
        out += first ? o.first : o.sep;
        first = false;
        const name = o.named ? v.name : '';
        if (typeof value === 'string') {
          const text = v.prefix === undefined ? value : prefixOf(value, v.prefix);
          out += name && name + (value === '' ? o.ifemp : '=');
          out += encode(text, o.reserved);
        } else if (!v.explode) {
          out += name && name + '=';
          out += value.map((item) => encode(item, o.reserved)).join(',');
        } else {
          const named = (item: string) => name && name + (item === '' ? o.ifemp : '=');
          out += value.map((item) => named(item) + encode(item, o.reserved)).join(o.sep);
        }
      }
    }
    return out;
  }

  /**
   * Reverse of {@link expand}: the variables (percent-decoded) if `uri` fits, else `null`.
   * Linear in `uri.length`; URIs over 64 KiB and invalid percent-encoding give `null`.
   *
   * - An expression followed by a literal ends at the literal's FIRST occurrence.
   * - `{v}` takes one value without unencoded reserved characters; `{+v}`/`{#v}` allow them.
   *   An empty value for `{v}`/`{+v}` means the variable is absent from the result.
   * - `{/v}`, `{.v}` take one segment; an exploded `{/v*}` takes all segments as an array.
   *   In operators not separated by `,`, unencoded commas in a value yield a list.
   * - `{;a}`, `{?a,b}`, `{&a}` read `name=value` pairs in any order; missing ones are absent,
   *   exploded ones collect repeated keys into an array; an unknown key ends the expression
   *   (so it must match the rest of the template, or the match fails).
   * - Back-to-back expressions are read greedily; `{+v}`/`{#v}` stop at the first
   *   occurrence of the next expression's prefix character (e.g. `?` in `{+path}{?q}`).
   * - A variable repeated in the template must match the same value each time.
   *
   * @example
   * UriTemplate.parse('test://template/{id}/data').match('test://template/123/data'); // { id: '123' }
   * UriTemplate.parse('search://q{?query,limit}').match('search://q?limit=5&query=a%20b');
   * // { limit: '5', query: 'a b' }
   */
  match(uri: string): UriTemplateMatch | null {
    if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH) return null;
    const found: Found = new Map();
    let pos = 0;
    try {
      for (let k = 0; k < this.#parts.length; k++) {
        const part = this.#parts[k] as Part;
        if (typeof part === 'string') {
          if (!uri.startsWith(part, pos)) return null;
          pos += part.length;
          continue;
        }
        // The expression must end exactly at the next literal (leftmost occurrence) or at
        // the end of the URI; before another expression it stops wherever its values stop.
        const next = this.#parts[k + 1];
        let limit = typeof next === 'string' ? uri.indexOf(next, pos) : uri.length;
        if (limit < 0) return null;
        if (typeof next === 'object' && part.op.reserved && next.op.first !== '') {
          const at = uri.indexOf(next.op.first, pos + part.op.first.length);
          if (at >= 0) limit = at;
        }
        const end = part.op.named
          ? matchNamed(part, uri, pos, limit, found)
          : matchPositional(part, uri, pos, limit, found);
        if (typeof next !== 'object' && end !== limit) return null;
        pos = end;
      }
    } catch (error) {
      if (error === NO_MATCH) return null;
      throw error;
    }
    return pos === uri.length ? Object.fromEntries(found) : null;
  }
}
