import type { HostFamily, LintFinding } from './finding.js';

/** A tool as `tools/list` gives it, with only the fields the rules read. */
export interface LintedTool {
  name: string;
  inputSchema?: Record<string, unknown>;
}

type Schema = Record<string, unknown>;

/** Every sub-schema of `schema` with its JSON pointer (properties, items, combinators, $defs). */
function* walk(schema: unknown, pointer = ''): Generator<[Schema, string]> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as Schema;
  yield [s, pointer];
  for (const key of ['properties', '$defs', 'definitions', 'patternProperties'] as const) {
    const map = s[key];
    if (map && typeof map === 'object')
      for (const [k, v] of Object.entries(map as Schema)) yield* walk(v, `${pointer}/${key}/${k}`);
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const)
    yield* walk(s[key], `${pointer}/${key}`);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = s[key];
    if (Array.isArray(list))
      for (let i = 0; i < list.length; i++) yield* walk(list[i], `${pointer}/${key}/${i}`);
  }
}

const isObjectSchema = (s: Schema): boolean =>
  s.type === 'object' ||
  (Array.isArray(s.type) && s.type.includes('object')) ||
  (s.properties !== undefined && s.type === undefined);

/** `#/…` is a local reference; anything else points at another document. */
const externalRef = (s: Schema): boolean => typeof s.$ref === 'string' && !s.$ref.startsWith('#');

function finding(
  severity: LintFinding['severity'],
  rule: string,
  tool: string,
  message: string,
): LintFinding {
  return { severity, rule, subject: `tool:${tool}`, message };
}

/**
 * OpenAI function calling.
 * Name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length
 * of 64" (function `name` in the API reference, as quoted in
 * https://api.koog.ai/prompt/prompt-executor/prompt-executor-clients/prompt-executor-openai-client-base/ai.koog.prompt.executor.clients.openai.base.models/-open-a-i-tool-function/index.html).
 * Strict mode (https://platform.openai.com/docs/guides/function-calling?strict-mode=enabled#strict-mode,
 * via https://github.com/BasisResearch/effectful/issues/367): every object needs
 * `additionalProperties: false` and every property listed in `required`; the root may not
 * be `anyOf`; `oneOf` is not permitted (error quoted in
 * https://community.openai.com/t/official-documentation-for-supported-schemas-for-response-format-parameter-in-calls-to-client-beta-chats-completions-parse/932422);
 * `$ref` only to `$defs` in the same schema (https://gist.521000.best/19h/7d0e165e060538c4aca40721f7fb690f).
 * Strict mode is the client's choice, so its rules are warnings; the name and the root
 * type are hard limits.
 */
function openaiRules(tool: LintedTool, out: LintFinding[]): void {
  const name = tool.name;
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name))
    out.push(finding('error', 'openai/name', name, 'OpenAI function names must match ^[a-zA-Z0-9_-]{1,64}$'));
  const root = tool.inputSchema ?? {};
  if (root.type !== 'object')
    out.push(
      finding(
        'error',
        'openai/root-object',
        name,
        'OpenAI function parameters must be type: "object" at the top',
      ),
    );
  if (root.anyOf !== undefined)
    out.push(
      finding('warning', 'openai/strict-root-anyof', name, 'strict mode: the root schema may not be anyOf'),
    );
  for (const [s, at] of walk(root)) {
    const where = at || '/';
    if (externalRef(s))
      out.push(
        finding(
          'error',
          'openai/external-ref',
          name,
          `${where}: $ref to another document (${String(s.$ref)}); only local #/$defs references work`,
        ),
      );
    if (s.oneOf !== undefined)
      out.push(
        finding(
          'warning',
          'openai/strict-oneof',
          name,
          `${where}: strict mode does not permit oneOf (use anyOf)`,
        ),
      );
    if (isObjectSchema(s)) {
      if (s.additionalProperties !== false)
        out.push(
          finding(
            'warning',
            'openai/strict-additional-properties',
            name,
            `${where}: strict mode needs additionalProperties: false`,
          ),
        );
      const props = Object.keys((s.properties as Schema | undefined) ?? {});
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const optional = props.filter((p) => !required.has(p));
      if (optional.length > 0)
        out.push(
          finding(
            'warning',
            'openai/strict-required',
            name,
            `${where}: strict mode needs every property required (optional: ${optional.join(', ')}; use a "null" type instead)`,
          ),
        );
    }
  }
}

/** Keywords outside Gemini's OpenAPI 3.0 schema subset. */
const GEMINI_UNSUPPORTED = [
  '$ref',
  'oneOf',
  'allOf',
  'not',
  'additionalProperties',
  'patternProperties',
  'const',
  'if',
  'prefixItems',
  '$defs',
  'definitions',
];
/** String formats Gemini's Schema accepts (`format` is "limited" to these). */
const GEMINI_FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);

/**
 * Gemini function declarations.
 * Name: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain
 * underscores, dots and dashes, with a maximum length of 64"
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration).
 * `parameters` is "a select subset" of the OpenAPI 3.0.3 Schema object
 * (https://discuss.ai.google.dev/t/gemini-openapi-specification/35259/2): no `$ref`,
 * `oneOf`/`allOf`, `additionalProperties` (https://typia.io/api/types/_samchon_openapi.IGeminiSchema-1.html).
 * Newer models also take `parametersJsonSchema` (full JSON Schema, same page), so these
 * keywords are warnings: a host that still sends `parameters` drops or refuses them.
 */
function geminiRules(tool: LintedTool, out: LintFinding[]): void {
  const name = tool.name;
  if (!/^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/.test(name))
    out.push(
      finding(
        'error',
        'gemini/name',
        name,
        'Gemini function names must start with a letter or _, use a-z A-Z 0-9 _ . - and be at most 64 characters',
      ),
    );
  for (const [s, at] of walk(tool.inputSchema ?? {})) {
    const where = at || '/';
    const used = GEMINI_UNSUPPORTED.filter((k) => s[k] !== undefined);
    if (used.length > 0)
      out.push(
        finding(
          'warning',
          'gemini/unsupported-keyword',
          name,
          `${where}: ${used.join(', ')} outside the OpenAPI 3.0 subset Gemini's parameters accept`,
        ),
      );
    if (typeof s.format === 'string' && !GEMINI_FORMATS.has(s.format))
      out.push(
        finding(
          'warning',
          'gemini/format',
          name,
          `${where}: format "${s.format}" is not one Gemini supports (enum, date-time, int32, int64, float, double)`,
        ),
      );
  }
}

/**
 * Anthropic (Claude) tools: "name … Must match the regex ^[a-zA-Z0-9_-]{1,64}$" and
 * input_schema must be type "object" (Messages API `Tool`, https://apis.io/schemas/claude/claude-messages-tool/
 * and https://raw.githubusercontent.com/api-evangelist/anthropic/refs/heads/main/json-schema/anthropic-tool-use-schema.json).
 */
function claudeRules(tool: LintedTool, out: LintFinding[]): void {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name))
    out.push(
      finding('error', 'claude/name', tool.name, 'Claude tool names must match ^[a-zA-Z0-9_-]{1,64}$'),
    );
  if (tool.inputSchema?.type !== 'object')
    out.push(finding('error', 'claude/root-object', tool.name, 'Claude input_schema must be type: "object"'));
}

/** Cursor: tool selection degrades past about 40 active tools (https://mcptrove.com/blog/cursor-tool-limit-math, https://ddsboston.com/pages/dva-cursor-masterclass). */
export const CURSOR_TOOL_BUDGET = 40;

function cursorServerRules(tools: readonly LintedTool[], out: LintFinding[]): void {
  if (tools.length > CURSOR_TOOL_BUDGET)
    out.push({
      severity: 'warning',
      rule: 'cursor/tool-count',
      subject: 'server',
      message: `${tools.length} tools; Cursor works best under ${CURSOR_TOOL_BUDGET} active tools across all servers`,
    });
}

/** Portability findings for the chosen host families. */
export function hostFindings(tools: readonly LintedTool[], hosts: readonly HostFamily[]): LintFinding[] {
  const out: LintFinding[] = [];
  for (const host of hosts) {
    if (host === 'cursor') {
      cursorServerRules(tools, out);
      continue;
    }
    for (const tool of tools) {
      if (host === 'openai') openaiRules(tool, out);
      else if (host === 'gemini') geminiRules(tool, out);
      else claudeRules(tool, out);
    }
  }
  return out;
}
