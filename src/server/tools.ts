import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import type { CallToolResult, Tool, ToolAnnotations } from '../protocol/types/tools.js';
import type { Icon } from '../protocol/types/base.js';
import { INPUT_REQUIRED } from './mrtr.js';
import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import { compileSchema } from './schema-adapter.js';
import type { CompiledSchema, InferOutput, RawJsonSchema, SchemaInput } from './schema-adapter.js';
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

/** A registered tool: its wire form, built once, and its compiled schemas. */
export interface ToolEntry {
  readonly wire: Tool;
  readonly input: CompiledSchema | undefined;
  readonly output: CompiledSchema | undefined;
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

/** Builds a tool's wire definition and compiles its schemas, once, at registration. */
export function buildTool(
  def: ToolDefinition,
  handler: ToolHandler<never>,
  validator?: JsonSchemaValidator,
  scopeFiltered = false,
): ToolEntry {
  if (typeof def.name !== 'string' || def.name.length === 0 || def.name.length > 128) {
    throw new TypeError('A tool needs a name of 1 to 128 characters');
  }
  const compile = (schema: SchemaInput, io: 'input' | 'output', js?: RawJsonSchema) => {
    try {
      return compileSchema(schema, io, js, validator);
    } catch (e) {
      throw e instanceof TypeError ? new TypeError(`Tool ${def.name}: ${e.message}`, { cause: e }) : e;
    }
  };
  const input = def.input ? compile(def.input, 'input', def.inputJsonSchema) : undefined;
  const output = def.output ? compile(def.output, 'output', def.outputJsonSchema) : undefined;
  const inputSchema = input?.jsonSchema ?? ANY_OBJECT;
  if (inputSchema.type !== 'object') {
    throw new TypeError(`Tool ${def.name}: the input schema must describe an object (type: "object")`);
  }
  const wire: Record<string, unknown> = { name: def.name };
  if (def.title !== undefined) wire.title = def.title;
  if (def.description !== undefined) wire.description = def.description;
  wire.inputSchema = inputSchema;
  if (output) wire.outputSchema = output.jsonSchema;
  if (def.annotations !== undefined) wire.annotations = def.annotations;
  if (def.icons !== undefined) wire.icons = def.icons;
  if (def.execution !== undefined) wire.execution = def.execution;
  if (def._meta !== undefined) wire._meta = def._meta;
  const scopes = def.scopes ?? [];
  if (
    !Array.isArray(scopes) ||
    !scopes.every((x) => typeof x === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(x))
  ) {
    throw new TypeError(`Tool ${def.name}: scopes must be scope tokens (RFC 6749 §3.3)`);
  }
  const needed = Object.freeze([...scopes]);
  const visible = compileVisibility(def.visibleTo, `Tool ${def.name}`);
  // SEP-1881: listed only to a caller holding its scopes (one with no authentication at all
  // calls it freely, so it sees it); still callable, so a call can earn the step-up challenge.
  const listed =
    scopeFiltered && needed.length > 0
      ? (c: CatalogCaller) =>
          (visible === undefined || visible(c)) &&
          (c.authInfo === undefined || needed.every((s) => c.scopes.includes(s)))
      : undefined;
  return {
    wire: wire as unknown as Tool,
    input,
    output,
    handler,
    deferTask: def.deferTask === true,
    scopes: needed,
    visible,
    listed,
  };
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
    `Forbidden: the tool ${entry.wire.name} needs the scope ${scope}`,
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
      return { ...r, content: [{ type: 'text', text: JSON.stringify(r.structuredContent) }] };
    }
    return { ...r, content: [] };
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
  const name = entry.wire.name;
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
