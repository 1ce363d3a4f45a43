/**
 * Sending `tools/call` where tools may run as tasks: task augmentation where a 2025-11-25
 * tool requires it (learned from `tools/list`, or once from a -32601 refusal), and the tasks
 * extension declared on modern requests. Internal.
 */
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { withField } from '../jsonrpc/with-field.js';
import type { CallToolRequestParams, Tool } from '../protocol/types/index.js';
import type { Session } from '../session/session.js';
import type { ClientEra } from './client-era.js';
import type { MrtrOutcome } from './mrtr.js';
import type { CallOptions } from './types.js';

/** Whether the server's capabilities say it runs `tools/call` as a (legacy) task. */
function hasToolTasks(caps: Record<string, unknown> | undefined): boolean {
  const tasks = caps?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return tasks?.requests?.tools?.call !== undefined;
}

/** What tool calls need of the client. */
export interface ToolCallHost {
  connected(): Session;
  connectedEra(): ClientEra;
  /** What the client declares (the modern era's tasks extension is declared from it). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** A request through the client's pipeline (MRTR, `_meta`, shape check). */
  send(method: string, params: Params, options: CallOptions | undefined): Promise<MrtrOutcome>;
  /** One `tools/list` page (the first), teaching {@link ToolTaskSupport.learn}. */
  listFirstPage(options: CallOptions | undefined): Promise<unknown>;
  /** Every `tools/list` page, each teaching {@link ToolTaskSupport.learn}. */
  listAll(options: CallOptions | undefined): Promise<void>;
}

export class ToolTaskSupport {
  /** Each tool's `execution.taskSupport`, from the last `tools/list`. */
  private readonly byTool = new Map<string, unknown>();
  private listed = false;

  constructor(private readonly host: ToolCallHost) {}

  /** Notes the task support of the tools of one `tools/list` page. */
  learn(tools: readonly Tool[]): void {
    for (const tool of tools) this.byTool.set(tool.name, tool.execution?.taskSupport);
  }

  /** Sends one `tools/call`, as a task where the tool or the caller asks for one. */
  async send(params: CallToolRequestParams, options?: CallOptions): Promise<MrtrOutcome> {
    const host = this.host;
    let p = params as unknown as Params;
    const session = host.connected();
    const era = host.connectedEra();
    if (!era.tasksByAugmentation)
      return host.send('tools/call', era.taskParams(p, host.capabilities, session), options);
    const serverTasks = hasToolTasks(session.peerCapabilities);
    if (serverTasks && !this.byTool.has(params.name) && !this.listed) {
      // Whether a tool requires a task is in tools/list: learn it once, before the first call.
      this.listed = true;
      await host.listAll(options);
    }
    const support = this.byTool.get(params.name);
    if (
      serverTasks &&
      p.task === undefined &&
      (support === 'required' || (options?.task && support === 'optional'))
    )
      p = withField(
        p,
        'task',
        typeof options?.task === 'object' && options.task.ttlMs ? { ttl: options.task.ttlMs } : {},
      );
    try {
      return await host.send('tools/call', p, options);
    } catch (e) {
      if (
        !serverTasks ||
        p.task !== undefined ||
        !(e instanceof WireError) ||
        e.code !== ErrorCode.MethodNotFound
      ) {
        throw e;
      }
      // The tool list may be stale or never fetched: look the tool up once, then retry.
      await host.listFirstPage(options);
      if (this.byTool.get(params.name) !== 'required') throw e;
      return host.send('tools/call', withField(p, 'task', {}), options);
    }
  }
}
