/**
 * The request metadata headers of the modern era (2026-07-28): `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}`, and the tool schemas they come from.
 */
import type { JsonRpcMessage } from '../../jsonrpc/index.js';
import { MetaKey } from '../../protocol/meta-keys.js';
import { eraOf } from '../../protocol/versions.js';
import { encodeHeaderValue, isPlainHeaderValue } from './header-values.js';
import type { HeaderRecord } from './requester.js';
import { addParamHeaders, readParamHeaders } from './x-mcp-header.js';
import type { ParamHeader } from './x-mcp-header.js';
import { isObject } from '../../jsonrpc/is-object.js';

type Warn = (message: string, detail?: unknown) => void;

/**
 * The modern protocol version a message carries in `_meta`, if any. This is where the
 * transport learns the era (it then picks `modernHttpEra`), so it classifies the version
 * itself; `eraOf` also takes a future revision as modern.
 */
export function modernVersionOf(message: JsonRpcMessage): string | undefined {
  const params = 'method' in message ? message.params : undefined;
  const meta = params?._meta;
  const v = isObject(meta) ? meta[MetaKey.ProtocolVersion] : undefined;
  return typeof v === 'string' && eraOf(v) === 'modern' ? v : undefined;
}

/** The source of `Mcp-Name` for the methods that have one. */
function nameOf(method: string, params: Record<string, unknown>): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  if (method === 'resources/read') return params.uri;
  // The tasks extension routes its methods by task id.
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return params.taskId;
  return undefined;
}

/**
 * What the transport learned from `tools/list` results: the `x-mcp-header` parameters of
 * each tool that has any. Tools whose annotations are invalid are left out of the result.
 */
export class ToolHeaderBook {
  private readonly byTool = new Map<string, readonly ParamHeader[]>();

  constructor(private readonly warn: Warn) {}

  /** Number of tools with annotated parameters (for diagnostics). */
  get size(): number {
    return this.byTool.size;
  }

  clear(): void {
    this.byTool.clear();
  }

  /**
   * Reads one `tools/list` result. Returns it unchanged, or a copy without the tools whose
   * `x-mcp-header` annotations break the rules (the spec requires leaving them out).
   */
  learn(result: Record<string, unknown>): Record<string, unknown> {
    const tools = result.tools;
    if (!Array.isArray(tools)) return result;
    let kept: unknown[] | undefined;
    for (let i = 0; i < tools.length; i++) {
      const tool: unknown = tools[i];
      if (isObject(tool) && typeof tool.name === 'string') {
        const found = readParamHeaders(tool.inputSchema);
        if (typeof found === 'string') {
          this.warn(`Tool "${tool.name}" was left out of tools/list: ${found}`);
          this.byTool.delete(tool.name);
          kept ??= tools.slice(0, i);
          continue;
        }
        if (found.length > 0) this.byTool.set(tool.name, found);
        else this.byTool.delete(tool.name);
      }
      kept?.push(tool);
    }
    return kept ? { ...result, tools: kept } : result;
  }

  /** Adds the modern metadata headers of one outgoing message. */
  addHeaders(headers: HeaderRecord, message: JsonRpcMessage, version: string | undefined): void {
    const v = modernVersionOf(message) ?? version;
    if (v !== undefined) headers['mcp-protocol-version'] = v;
    if (!('method' in message)) return;
    const method = message.method;
    if (isPlainHeaderValue(method)) headers['mcp-method'] = method;
    const params = message.params;
    if (!('id' in message) || params === undefined) return;
    const name = nameOf(method, params);
    if (typeof name !== 'string') return;
    headers['mcp-name'] = encodeHeaderValue(name);
    const annotated = method === 'tools/call' ? this.byTool.get(name) : undefined;
    if (annotated) addParamHeaders(headers, annotated, params.arguments, this.warn);
  }
}
