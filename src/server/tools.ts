import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { withField } from '../jsonrpc/with-field.js';
import type { CallToolResult, Tool, ToolAnnotations } from '../protocol/types/tools.js';
import type { Icon } from '../protocol/types/base.js';
import { INPUT_REQUIRED } from './mrtr.js';
import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import { compileSchema, isDeferrableObject, isStandardSchema, StandardValidator } from './schema-adapter.js';
import type { InferOutput, RawJsonSchema, SchemaInput, ValidationOutcome } from './schema-adapter.js';
import type { ServerContext } from './server-context.js';
import { compileVisibility } from './visibility.js';
import type { CatalogCaller, VisibilityCheck, VisibleTo } from './visibility.js';

/** What a tool handler may return: a full result, or plain text as a shortcut. */
export type ToolReturn = CallToolResult | string;

/** A tool as an author declares it: what it is called, what it takes, what it returns. */
export interface ToolDefinition<S extends SchemaInput = SchemaInput> {
  /** The name clients call it by (1 to 128 characters). */
  name: string;
  /** A human-readable name for display. */
  title?: string;
  /** What it does, for the model and the user. */
  description?: string;
  /** Its arguments, as an input schema: Standard Schema (zod, valibot, arktype) or raw JSON Schema. Defaults to any object. */
  input?: S;
  /** The JSON Schema to list when `input` is a Standard Schema that cannot describe itself. */
  inputJsonSchema?: RawJsonSchema;
  /** Output schema for `structuredContent`. */
  output?: SchemaInput;
  outputJsonSchema?: RawJsonSchema;
  annotations?: ToolAnnotations;
  /** Icons for display. */
  icons?: Icon[];
  /**
   * `taskSupport`: whether `tools/call` may (`optional`), must (`required`) or must not
   * (`forbidden`, the default) run as a task. The same handler serves every mode.
   */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required'; [key: string]: unknown };
  /**
   * The task starts when the handler calls `ctx.startTask()` rather than before it runs,
   * so the handler can first settle questions synchronously (default false).
   */
  deferTask?: boolean;
  /** Extra metadata, sent as is. */
  _meta?: Record<string, unknown>;
  /**
   * The OAuth scopes a caller must hold to call this tool, matched exactly against
   * `ctx.authInfo.scopes` before the handler runs. Over HTTP behind `bearerAuth` a
   * token without them gets 403 with an `insufficient_scope` challenge naming them (and the
   * client can step up); elsewhere the call gets a JSON-RPC error (-32600). A connection
   * with no authentication at all (stdio, in-memory, HTTP without `authenticate`) has no
   * token to hold scopes and calls the tool freely: it is trusted as local.
   */
  scopes?: readonly string[];
  /**
   * Who may see this tool (see {@link VisibleTo}). To any other caller it does not exist:
   * `tools/list` leaves it out and `tools/call` answers exactly as for an unknown name.
   * Default: everyone.
   */
  visibleTo?: VisibleTo;
}

/** Runs a tool: gets its validated arguments and the call's context, returns its result. */
export type ToolHandler<S extends SchemaInput = SchemaInput> = (
  args: InferOutput<S>,
  ctx: ServerContext,
) => ToolReturn | Promise<ToolReturn>;

/** Validates a value against one of a tool's schemas. */
export interface ToolValidator {
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

/**
 * A registered tool. Its wire form is made on first need (the first list that shows it) and
 * kept only as JSON text: the object form, parsed from that text, lives as long as a caller
 * holds it (interceptors, shaped lists of older revisions).
 */
export interface ToolEntry {
  readonly name: string;
  /** Its wire form, parsed from {@link wireText} (the same object while someone holds it). */
  readonly wire: Tool;
  /**
   * Its wire form as JSON text, made once (a WireError, -32603, naming it if its schema cannot
   * convert); with `shape`, as a revision shapes it (drops fields).
   */
  wireText(shape?: (item: Record<string, unknown>) => Record<string, unknown>): string;
  /** {@link wireText} as pieces pushed onto `into` (a list joins its tools' pieces once). */
  wireParts(into: string[], shape?: (item: Record<string, unknown>) => Record<string, unknown>): void;
  /** Gives its shared schema texts back: it was removed or replaced. */
  release(): void;
  /** Its listed input schema (parsed once, kept: asked per call by the HTTP layer). */
  readonly inputSchema: Record<string, unknown>;
  readonly execution: Tool['execution'];
  readonly input: ToolValidator | undefined;
  readonly output: ToolValidator | undefined;
  readonly handler: ToolHandler<never>;
  readonly deferTask: boolean;
  /** The scopes a caller needs (see {@link ToolDefinition.scopes}); empty for most tools. */
  readonly scopes: readonly string[];
  /** Who may see it; undefined: everyone. */
  readonly visible: VisibilityCheck | undefined;
  /** Who sees it listed, under scope-filtered discovery: those who may see it and hold its scopes. */
  readonly listed: VisibilityCheck | undefined;
}

const ANY_OBJECT: RawJsonSchema = Object.freeze({ type: 'object' }) as RawJsonSchema;

/**
 * A JSON Schema, or the validator of a zod object whose conversion waits for the first list
 * (no closure per tool: a closure would also keep the definition alive through its context).
 */
type SchemaSource = RawJsonSchema | StandardValidator;

/** No scopes, no extra fields: shared, rather than an empty array and object per tool. */
const NO_SCOPES: readonly string[] = Object.freeze([]);
const NO_FIELDS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** Stands for a schema while an item is shaped: only which keys survive matters. */
const SCHEMA_MARK: Record<string, never> = Object.freeze({}) as Record<string, never>;

/**
 * Schema texts shared by the tools of one server: generated catalogs declare many tools with
 * the same schema (one request body per resource), and each text is then kept once. Counted,
 * so a text goes when its last tool does.
 */
export class SchemaTexts {
  private readonly texts = new Map<string, { text: string; refs: number }>();

  intern(text: string): string {
    const held = this.texts.get(text);
    if (held) {
      held.refs++;
      return held.text;
    }
    this.texts.set(text, { text, refs: 1 });
    return text;
  }

  release(text: string): void {
    const held = this.texts.get(text);
    if (held && --held.refs === 0) this.texts.delete(text);
  }
}

/** What a tool's wire text is built from, dropped once it is built. */
interface WireSources {
  /**
   * The wire fields other than the schemas, in wire order (the schemas go after
   * `description`): once the text is built only their names are kept (see `keys`).
   */
  readonly head: Record<string, unknown>;
  readonly tail: Record<string, unknown>;
  readonly input: SchemaSource;
  readonly output: SchemaSource | undefined;
}

/** What most tools leave unset: one shared object for all of those (see {@link RegisteredTool}). */
interface ToolExtras {
  readonly execution: Tool['execution'];
  readonly output: ToolValidator | undefined;
  readonly deferTask: boolean;
  readonly scopes: readonly string[];
  readonly visible: VisibilityCheck | undefined;
  readonly listed: VisibilityCheck | undefined;
}

const NO_EXTRAS: ToolExtras = Object.freeze({
  execution: undefined,
  output: undefined,
  deferTask: false,
  scopes: NO_SCOPES,
  visible: undefined,
  listed: undefined,
});

/** The parsed wire form, made on demand (see {@link RegisteredTool.wire}). */
interface ParsedWire {
  ref: WeakRef<Tool> | undefined;
  inputSchema: Record<string, unknown> | undefined;
}

/**
 * One registered tool. A catalog of thousands is held whole for the server's life, so it
 * has few fields: the rarely set ones live in one {@link ToolExtras} object shared by every
 * tool that sets none, and the build's inputs in one object dropped after the build.
 */
class RegisteredTool implements ToolEntry {
  // The pieces of the wire text, in order, once built (fields, not an object: one less per
  // tool). The schemas' texts are shared (see SchemaTexts).
  /** `{` and the fields before the input schema, ending with `"inputSchema":`; undefined until built. */
  private open: string | undefined;
  private inputText = '';
  /** Empty when the tool has no output schema. */
  private outputText = '';
  /** The fields after the schemas, and `}`. */
  private close = '';
  /** The wire's field names in order, schemas included (shared by tools with the same fields). */
  private keys: readonly string[] | undefined;
  private parsed: ParsedWire | undefined;

  constructor(
    readonly name: string,
    private sources: WireSources | undefined,
    private shared: SchemaTexts | undefined,
    readonly input: ToolValidator | undefined,
    readonly handler: ToolHandler<never>,
    private readonly extras: ToolExtras,
  ) {}

  get execution(): Tool['execution'] {
    return this.extras.execution;
  }
  get output(): ToolValidator | undefined {
    return this.extras.output;
  }
  get deferTask(): boolean {
    return this.extras.deferTask;
  }
  get scopes(): readonly string[] {
    return this.extras.scopes;
  }
  get visible(): VisibilityCheck | undefined {
    return this.extras.visible;
  }
  get listed(): VisibilityCheck | undefined {
    return this.extras.listed;
  }

  wireText(shape?: (item: Record<string, unknown>) => Record<string, unknown>): string {
    const parts: string[] = [];
    this.wireParts(parts, shape);
    return parts.join('');
  }

  wireParts(into: string[], shape?: (item: Record<string, unknown>) => Record<string, unknown>): void {
    if (this.open === undefined) this.build();
    if (shape !== undefined) {
      // Shaping for a revision drops top-level fields: shape a skeleton, and rebuild the text
      // only when it lost one (the schemas' texts spliced back in).
      // The values are not kept (the text holds them): they are read back from the text then.
      const skeleton: Record<string, unknown> = {};
      for (const k of this.keys!) skeleton[k] = SCHEMA_MARK;
      const shaped = shape(skeleton);
      if (shaped !== skeleton) {
        const wire = this.wire as unknown as Record<string, unknown>;
        let out = '{';
        for (const k of Object.keys(shaped)) {
          const v =
            k === 'inputSchema'
              ? this.inputText
              : k === 'outputSchema'
                ? this.outputText
                : JSON.stringify(wire[k]);
          if (v === undefined) continue;
          out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + v;
        }
        into.push(out + '}');
        return;
      }
    }
    if (this.outputText === '') into.push(this.open!, this.inputText, this.close);
    else into.push(this.open!, this.inputText, ',"outputSchema":', this.outputText, this.close);
  }

  /** Converts the schemas (deferred from registration) and writes the wire text, once. */
  private build(): void {
    const sources = this.sources!;
    let inputSchema: RawJsonSchema;
    let outputSchema: RawJsonSchema | undefined;
    try {
      inputSchema = resolve(sources.input, 'input');
      if (inputSchema.type !== 'object') {
        throw new TypeError('the input schema must describe an object (type: "object")');
      }
      outputSchema = sources.output && resolve(sources.output, 'output');
    } catch (e) {
      // Only a deferred zod conversion fails here: the list fails naming the tool, not silently.
      const why = e instanceof Error ? e.message : String(e);
      throw WireError.internal(`Tool ${this.name}: its schema cannot be listed as JSON Schema: ${why}`);
    }
    const share = (text: string) => (this.shared ? this.shared.intern(text) : text);
    const { head, tail } = sources;
    const open = fieldsText('{', head, '', ',"inputSchema":', '"inputSchema":');
    const close = fieldsText('', tail, ',', '}', '}');
    this.inputText = share(JSON.stringify(inputSchema));
    this.outputText = outputSchema ? share(JSON.stringify(outputSchema)) : '';
    this.close = close;
    this.keys = fieldNames(head, outputSchema !== undefined, tail);
    // Last: `open` says the text is built.
    this.open = open;
    // The texts are what is kept: the sources, the objects converted from them and the
    // fields' values (a description is often the largest) can go.
    this.sources = undefined;
  }

  /** Gives its shared schema texts back (it was removed or replaced); its own pieces stay usable. */
  release(): void {
    if (this.open === undefined || this.shared === undefined) return;
    this.shared.release(this.inputText);
    if (this.outputText !== '') this.shared.release(this.outputText);
    this.shared = undefined;
  }

  get wire(): Tool {
    const parsed = (this.parsed ??= { ref: undefined, inputSchema: undefined });
    let wire = parsed.ref?.deref();
    if (wire === undefined) {
      wire = JSON.parse(this.wireText()) as Tool;
      parsed.ref = new WeakRef(wire);
    }
    return wire;
  }

  get inputSchema(): Record<string, unknown> {
    const kept = this.parsed?.inputSchema;
    if (kept !== undefined) return kept;
    const schema = this.wire.inputSchema as Record<string, unknown>; // makes `parsed`
    return (this.parsed!.inputSchema = schema);
  }
}

/** Field-name lists, one per distinct list (a catalog has a handful). */
const FIELD_NAMES = new Map<string, readonly string[]>();

/** A tool's wire field names in order (head fields, the schemas, tail fields), shared. */
function fieldNames(
  head: Record<string, unknown>,
  output: boolean,
  tail: Record<string, unknown>,
): readonly string[] {
  const names = [
    ...Object.keys(head),
    'inputSchema',
    ...(output ? ['outputSchema'] : []),
    ...Object.keys(tail),
  ];
  const key = names.join('\n');
  let held = FIELD_NAMES.get(key);
  if (held === undefined) FIELD_NAMES.set(key, (held = Object.freeze(names)));
  return held;
}

/**
 * `start`, the fields of `fields` as JSON writes them (undefined and functions left out),
 * comma-separated, each after `lead`, then `end` (`endAlone` when no field was written).
 * Joined from an array: the text is kept for the tool's life, and `+=` would keep a rope
 * whose every piece (each key, each quoted value) stays on the heap with it.
 */
function fieldsText(
  start: string,
  fields: Record<string, unknown>,
  lead: string,
  end: string,
  endAlone: string,
): string {
  const parts = [start];
  for (const k of Object.keys(fields)) {
    const v = JSON.stringify(fields[k]);
    if (v === undefined) continue;
    parts.push(parts.length === 1 && lead === '' ? '' : ',', JSON.stringify(k), ':', v);
  }
  parts.push(parts.length === 1 ? endAlone : end);
  return parts.join('');
}

function resolve(source: SchemaSource, io: 'input' | 'output'): RawJsonSchema {
  return source instanceof StandardValidator
    ? source.schema['~standard'].jsonSchema![io]({ target: 'draft-2020-12' })
    : source;
}

/** A tool's schema checked at registration: a zod object's conversion is deferred (see {@link resolve}). */
function compileToolSchema(
  name: string,
  schema: SchemaInput,
  io: 'input' | 'output',
  js: RawJsonSchema | undefined,
  validator: JsonSchemaValidator | undefined,
): { source: SchemaSource; check: ToolValidator } {
  if (js === undefined && isStandardSchema(schema) && isDeferrableObject(schema)) {
    const check = new StandardValidator(schema);
    return { source: check, check };
  }
  try {
    const compiled = compileSchema(schema, io, js, validator);
    return { source: compiled.jsonSchema, check: compiled };
  } catch (e) {
    throw e instanceof TypeError ? new TypeError(`Tool ${name}: ${e.message}`, { cause: e }) : e;
  }
}

/**
 * Checks a tool's definition and builds its entry, at registration. Schemas are checked now
 * (an input schema must describe an object); a zod object schema, an object by construction,
 * is converted to JSON Schema only when first listed.
 */
export function buildTool(
  def: ToolDefinition,
  handler: ToolHandler<never>,
  validator?: JsonSchemaValidator,
  scopeFiltered = false,
  shared?: SchemaTexts,
): ToolEntry {
  if (typeof def.name !== 'string' || def.name.length === 0 || def.name.length > 128) {
    throw new TypeError('A tool needs a name of 1 to 128 characters');
  }
  const input = def.input
    ? compileToolSchema(def.name, def.input, 'input', def.inputJsonSchema, validator)
    : undefined;
  const output = def.output
    ? compileToolSchema(def.name, def.output, 'output', def.outputJsonSchema, validator)
    : undefined;
  const inputSource = input?.source ?? ANY_OBJECT;
  if (!(inputSource instanceof StandardValidator) && inputSource.type !== 'object') {
    throw new TypeError(`Tool ${def.name}: the input schema must describe an object (type: "object")`);
  }
  const head: Record<string, unknown> = { name: def.name };
  if (def.title !== undefined) head.title = def.title;
  if (def.description !== undefined) head.description = def.description;
  let tail = NO_FIELDS;
  if (
    def.annotations !== undefined ||
    def.icons !== undefined ||
    def.execution !== undefined ||
    def._meta !== undefined
  ) {
    tail = {};
    if (def.annotations !== undefined) tail.annotations = def.annotations;
    if (def.icons !== undefined) tail.icons = def.icons;
    if (def.execution !== undefined) tail.execution = def.execution;
    if (def._meta !== undefined) tail._meta = def._meta;
  }
  const scopes = def.scopes ?? [];
  if (
    !Array.isArray(scopes) ||
    !scopes.every((x) => typeof x === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(x))
  ) {
    throw new TypeError(`Tool ${def.name}: scopes must be scope tokens (RFC 6749 §3.3)`);
  }
  const needed = scopes.length === 0 ? NO_SCOPES : Object.freeze([...scopes]);
  const visible = compileVisibility(def.visibleTo, `Tool ${def.name}`);
  // SEP-1881: listed only to a caller holding its scopes (one with no authentication at all
  // calls it freely, so it sees it); still callable, so a call can earn the step-up challenge.
  const listed =
    scopeFiltered && needed.length > 0
      ? (c: CatalogCaller) =>
          (visible === undefined || visible(c)) &&
          (c.authInfo === undefined || needed.every((s) => c.scopes.includes(s)))
      : undefined;
  const execution = def.execution as Tool['execution'];
  const deferTask = def.deferTask === true;
  const extras =
    execution === undefined &&
    output === undefined &&
    !deferTask &&
    needed.length === 0 &&
    visible === undefined &&
    listed === undefined
      ? NO_EXTRAS
      : { execution, output: output?.check, deferTask, scopes: needed, visible, listed };
  return new RegisteredTool(
    def.name,
    { head, tail, input: inputSource, output: output?.source },
    shared,
    input?.check,
    handler,
    extras,
  );
}

/**
 * Refuses a call to a tool that declares scopes when the caller does not hold them all.
 * Only an authenticated caller is held to scopes; one whose principal carries no scope
 * list at all is refused (an authentication layer that says nothing grants nothing).
 */
export function checkToolScopes(entry: ToolEntry, authInfo: unknown): WireError | undefined {
  if (entry.scopes.length === 0 || authInfo === undefined) return undefined;
  const granted = (authInfo as { scopes?: unknown } | null)?.scopes;
  const held = Array.isArray(granted) ? granted : [];
  if (entry.scopes.every((s) => held.includes(s))) return undefined;
  const scope = entry.scopes.join(' ');
  return new WireError(
    ErrorCode.InvalidRequest,
    `Forbidden: the tool ${entry.name} needs the scope ${scope}`,
    {
      error: 'insufficient_scope',
      scope,
    },
  );
}

/** A tool failure as the model should see it. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function normalize(value: unknown, name: string): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (typeof value !== 'object' || value === null) {
    throw WireError.internal(`Tool ${name} returned neither a result object nor text`);
  }
  const r = value as CallToolResult;
  if (!Array.isArray(r.content)) {
    // structuredContent alone: add its text form for clients that only read content.
    if (r.structuredContent !== undefined) {
      return withField(r, 'content', [{ type: 'text' as const, text: JSON.stringify(r.structuredContent) }]);
    }
    return withField(r, 'content', []);
  }
  return r;
}

/**
 * Runs `tools/call` for one entry: validates the arguments (a tool error the model can
 * act on when they are wrong), runs the handler (its failures become tool errors), and
 * checks `structuredContent` against the output schema.
 */
export async function callTool(
  entry: ToolEntry,
  params: Params,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const name = entry.name;
  const raw = params.arguments ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return toolError(`Invalid arguments for tool ${name}: arguments must be an object`);
  }
  let args: unknown = raw;
  if (entry.input) {
    const v = entry.input.validate(raw);
    const outcome = v instanceof Promise ? await v : v;
    if (!outcome.ok) return toolError(`Invalid arguments for tool ${name}: ${outcome.message}`);
    args = outcome.value;
  }
  let result: CallToolResult;
  try {
    result = normalize(await entry.handler(args as never, ctx), name);
  } catch (e) {
    if (e === INPUT_REQUIRED || e instanceof WireError) throw e;
    if (ctx.signal.aborted) throw e;
    const message = e instanceof LocalError || e instanceof Error ? e.message : String(e);
    return toolError(message || `Tool ${name} failed`);
  }
  if (entry.output && !result.isError) {
    if (result.structuredContent === undefined) {
      throw WireError.internal(`Tool ${name} declares an outputSchema but returned no structuredContent`);
    }
    const v = entry.output.validate(result.structuredContent);
    const outcome = v instanceof Promise ? await v : v;
    if (!outcome.ok) {
      throw WireError.internal(
        `Tool ${name} returned structuredContent that does not match its outputSchema: ${outcome.message}`,
      );
    }
  }
  return result;
}

/**
 * The listed input schemas of the tools every caller sees, by name, as a read-only view of
 * the server's tools (no second map): a schema is parsed from its tool's wire text when
 * first asked for, not at registration; a tool with a visibility rule is absent.
 */
export class InputSchemas implements ReadonlyMap<string, Record<string, unknown>> {
  constructor(private readonly tools: ReadonlyMap<string, ToolEntry>) {}

  private open(name: string): ToolEntry | undefined {
    const e = this.tools.get(name);
    return e === undefined || e.visible !== undefined ? undefined : e;
  }
  /** A snapshot, every schema parsed: for the rare caller that walks them all. */
  private all(): Map<string, Record<string, unknown>> {
    const out = new Map<string, Record<string, unknown>>();
    for (const [name, e] of this.tools) if (e.visible === undefined) out.set(name, e.inputSchema);
    return out;
  }
  get size(): number {
    let n = 0;
    for (const e of this.tools.values()) if (e.visible === undefined) n++;
    return n;
  }
  get(name: string): Record<string, unknown> | undefined {
    return this.open(name)?.inputSchema;
  }
  has(name: string): boolean {
    return this.open(name) !== undefined;
  }
  entries(): MapIterator<[string, Record<string, unknown>]> {
    return this.all().entries();
  }
  keys(): MapIterator<string> {
    return this.all().keys();
  }
  values(): MapIterator<Record<string, unknown>> {
    return this.all().values();
  }
  forEach(
    fn: (
      value: Record<string, unknown>,
      key: string,
      map: ReadonlyMap<string, Record<string, unknown>>,
    ) => void,
  ): void {
    for (const [name, e] of this.tools) if (e.visible === undefined) fn(e.inputSchema, name, this);
  }
  [Symbol.iterator](): MapIterator<[string, Record<string, unknown>]> {
    return this.all().entries();
  }
}
