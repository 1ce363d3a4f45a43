/**
 * Every call the host makes to a server goes through here: resolve the exact (server,
 * name) pair, check the server is up, take the policy decision (`policy/decide.ts`: rules,
 * rate limit, a person asked when needed), run the call, and write one audit entry whatever
 * happens.
 */
import type { TaskInfo } from '../client/index.js';
import type { CallOptions } from '../client/types.js';
import { LocalError } from '../jsonrpc/index.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../protocol/types/index.js';
import type { Progress } from '../session/options.js';
import { jsonBytes } from './policy/audit.js';
import type { AuditDecision, AuditEntry } from './policy/audit.js';
import type { Catalog, CatalogTool } from './catalog/catalog.js';
import { HostError, errorText } from './errors.js';
import { decide } from './policy/decide.js';
import type { DecisionDeps } from './policy/decide.js';
import type { CallPrincipal } from './policy/policy.js';
import type { ServerConnection } from './supervision/server-connection.js';

/** Who is calling and how long to wait. */
export interface HostCallOptions {
  /** Shown in approvals and the audit log (default `app`). */
  caller?: string;
  /**
   * The gateway caller this call is for: named in the audit log and matched by the config's
   * `mcpkit.gateway.principals`; `null` for an unauthenticated one (see {@link CallPrincipal}).
   */
  principal?: CallPrincipal;
  signal?: AbortSignal;
  /** Default: the server's `timeouts.callMs`. */
  timeoutMs?: number;
  /** A progress notification starts `timeoutMs` again (default false). */
  resetTimeoutOnProgress?: boolean;
  /** The bound on the whole request, progress or not (default: the client's, 10 min). */
  maxTotalTimeoutMs?: number;
  onprogress?: (progress: Progress) => void;
  /** When the tool runs as a task on its server: each state seen (status, message). */
  onTaskStatus?: (task: TaskInfo) => void;
  /** Run the call as a task upstream where the tool allows it (`taskSupport: optional`). */
  asTask?: boolean;
}

/** A tool named exactly, bypassing aliases. */
export interface ToolRef {
  server: string;
  tool: string;
}

/** What a call needs from the host: the policy decision's inputs, and where to find and record. */
export interface CallDeps extends DecisionDeps {
  catalog: Catalog;
  connection(server: string): ServerConnection | undefined;
  audit(entry: AuditEntry): void;
  /** Whether an entry would go anywhere (default: yes); without, a call that runs builds none. */
  auditing?(): boolean;
}

function resolveTool(deps: CallDeps, target: string | ToolRef): CatalogTool {
  if (typeof target !== 'string') {
    const entry = deps.catalog.find(target.server, target.tool);
    if (entry) return entry;
    const conn = deps.connection(target.server);
    if (!conn)
      throw new HostError('UnknownServer', `No server named ${JSON.stringify(target.server)} is configured`);
    if (!conn.current) throw unavailable(conn);
    throw new HostError(
      'UnknownTool',
      `Server ${JSON.stringify(target.server)} has no tool named ${JSON.stringify(target.tool)}`,
    );
  }
  const entry = deps.catalog.resolve(target);
  if (entry) return entry;
  const similar = deps.catalog
    .tools()
    .map((t) => t.alias)
    .filter((a) => a.toLowerCase().includes(target.toLowerCase().split('__').pop() ?? target.toLowerCase()))
    .slice(0, 3);
  throw new HostError(
    'UnknownTool',
    `No tool is called ${JSON.stringify(target)}` +
      (similar.length ? ` (did you mean ${similar.join(', ')}?)` : ''),
  );
}

function unavailable(conn: ServerConnection): HostError {
  const h = conn.health();
  return new HostError(
    'ServerUnavailable',
    `Server ${JSON.stringify(h.name)} is ${h.state}` + (h.lastError ? `: ${h.lastError.split('\n')[0]}` : ''),
  );
}

/** A failure that says the connection itself is gone (so an HTTP server gets reconnected). */
function connectionLost(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    if (e instanceof LocalError && (e.code === 'ConnectionClosed' || e.code === 'NotConnected')) return true;
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return true;
  }
  return false;
}

/**
 * Calls a tool through policy. Throws a {@link HostError} when the host refuses (policy,
 * person, rate limit, conflict, server down); a tool's own failure is a result with
 * `isError`, as the server sent it.
 */
export async function callTool(
  deps: CallDeps,
  target: string | ToolRef,
  args: Record<string, unknown> | undefined,
  options: HostCallOptions = {},
): Promise<CallToolResult> {
  const caller = options.caller ?? 'app';
  const principal = options.principal;
  let entry: CatalogTool;
  try {
    entry = resolveTool(deps, target);
  } catch (e) {
    const ref =
      typeof target === 'string' ? { server: '', target } : { server: target.server, target: target.tool };
    deps.audit(record({ ...auditBase(caller, principal, args), ...ref }, 'refused', { error: errorText(e) }));
    throw e;
  }
  // The entry's fields: built for a refusal or a call that will be audited, never otherwise.
  const about = (): AuditBase & { server: string } => ({
    ...auditBase(caller, principal, args),
    server: entry.server,
    target: entry.name,
    ...(entry.alias !== entry.name ? { alias: entry.alias } : {}),
  });
  const refuse = (decision: AuditDecision, error: HostError): never => {
    deps.audit(record(about(), decision, { reason: error.message }));
    throw error;
  };
  if (entry.status === 'conflict') {
    refuse(
      'refused',
      new HostError(
        'ToolConflict',
        `Server ${JSON.stringify(entry.server)} lists several tools named ${JSON.stringify(entry.name)}; the host will not guess which one runs`,
      ),
    );
  }
  const conn = deps.connection(entry.server);
  const client = conn?.current;
  if (!conn || !client)
    return refuse(
      'refused',
      conn ? unavailable(conn) : new HostError('UnknownServer', `No server ${entry.server}`),
    );
  const verdict = await decide(
    deps,
    { kind: 'tool', tool: entry, caller, arguments: args, principal },
    options.signal,
  );
  if (!verdict.allowed) return refuse(verdict.decision, verdict.error);
  const decision: AuditDecision = verdict.decision;
  const auditing = deps.auditing?.() ?? true;
  const a = auditing ? about() : undefined;
  const started = auditing ? Date.now() : 0;
  // A long tool call may run as a task: the audit names it, and the caller sees its states.
  let taskId: string | undefined;
  const wantsStatus = auditing || options.onTaskStatus !== undefined;
  const onTaskStatus = wantsStatus
    ? (t: TaskInfo): void => {
        taskId ??= t.taskId;
        options.onTaskStatus?.(t);
      }
    : undefined;
  const callOptions: CallOptions = requestTimeouts(options);
  if (options.signal) callOptions.signal = options.signal;
  if (options.onprogress) callOptions.onprogress = options.onprogress;
  if (onTaskStatus) callOptions.onTaskStatus = onTaskStatus;
  if (options.asTask) callOptions.task = true;
  try {
    const result = await client.callTool(
      args !== undefined ? { name: entry.name, arguments: args } : { name: entry.name },
      callOptions,
    );
    if (a)
      deps.audit(
        record(a, decision, {
          durationMs: Date.now() - started,
          outcome: result.isError ? 'tool-error' : 'ok',
          ...(taskId !== undefined ? { taskId } : {}),
        }),
      );
    return result;
  } catch (e) {
    const extra = auditing
      ? { durationMs: Date.now() - started, ...(taskId !== undefined ? { taskId } : {}) }
      : {};
    throw failed(deps, conn, record(a ?? about(), decision, extra), e);
  }
}

type AuditBase = Pick<AuditEntry, 'kind' | 'caller'> & Partial<Omit<AuditEntry, 'server'>>;

/** What every entry about a tool call says: who asked, for whom, and how big the arguments were. */
function auditBase(
  caller: string,
  principal: HostCallOptions['principal'],
  args: Record<string, unknown> | undefined,
): AuditBase {
  return {
    kind: 'tool',
    caller,
    ...(principal !== undefined ? { principal } : {}),
    argumentBytes: jsonBytes(args ?? {}),
  };
}

/** Reads a resource of one server (policy: `reads`, default allow). */
export async function readResource(
  deps: CallDeps,
  server: string,
  uri: string,
  options: HostCallOptions = {},
): Promise<ReadResourceResult> {
  return read(deps, 'resource', server, uri, options, (client, o) => client.readResource({ uri }, o));
}

/** Fetches a prompt of one server (policy: `reads`, default allow). */
export async function getPrompt(
  deps: CallDeps,
  server: string,
  name: string,
  args: Record<string, string> | undefined,
  options: HostCallOptions = {},
): Promise<GetPromptResult> {
  return read(deps, 'prompt', server, name, options, (client, o) =>
    client.getPrompt({ name, ...(args ? { arguments: args } : {}) }, o),
  );
}

type ReadFn<T> = (
  client: NonNullable<ServerConnection['current']>,
  options: {
    signal?: AbortSignal;
    timeoutMs?: number;
    resetTimeoutOnProgress?: boolean;
    maxTotalTimeoutMs?: number;
  },
) => Promise<T>;

/** The timeouts a caller set, and only those (the client's defaults fill the rest). */
function requestTimeouts(o: HostCallOptions): CallOptions {
  if (
    o.timeoutMs === undefined &&
    o.resetTimeoutOnProgress === undefined &&
    o.maxTotalTimeoutMs === undefined
  )
    return {};
  return {
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.resetTimeoutOnProgress !== undefined ? { resetTimeoutOnProgress: o.resetTimeoutOnProgress } : {}),
    ...(o.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: o.maxTotalTimeoutMs } : {}),
  };
}

async function read<T>(
  deps: CallDeps,
  kind: 'resource' | 'prompt',
  server: string,
  target: string,
  options: HostCallOptions,
  run: ReadFn<T>,
): Promise<T> {
  const principal = options.principal;
  const a = {
    kind,
    caller: options.caller ?? 'app',
    ...(principal !== undefined ? { principal } : {}),
    server,
    target,
  };
  const conn = deps.connection(server);
  const fail = (decision: AuditDecision, error: HostError): never => {
    deps.audit(record(a, decision, { reason: error.message }));
    throw error;
  };
  if (!conn)
    return fail(
      'refused',
      new HostError('UnknownServer', `No server named ${JSON.stringify(server)} is configured`),
    );
  const client = conn.current;
  if (!client) return fail('refused', unavailable(conn));
  const verdict = await decide(deps, { kind, server, target, caller: a.caller, principal }, options.signal);
  if (!verdict.allowed) return fail(verdict.decision, verdict.error);
  const decision: AuditDecision = verdict.decision;
  const started = Date.now();
  try {
    const result = await run(client, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...requestTimeouts(options),
    });
    deps.audit(record(a, decision, { durationMs: Date.now() - started, outcome: 'ok' }));
    return result;
  } catch (e) {
    throw failed(deps, conn, record(a, decision, { durationMs: Date.now() - started }), e);
  }
}

/** A call that threw: audited as an error, and a lost connection marks the server suspect. */
function failed(deps: CallDeps, conn: ServerConnection, entry: AuditEntry, e: unknown): unknown {
  deps.audit({ ...entry, outcome: 'error', error: errorText(e) });
  if (connectionLost(e)) conn.suspectDown(e);
  return e;
}

function record(
  base: Pick<AuditEntry, 'kind' | 'caller' | 'server'> & Partial<AuditEntry>,
  decision: AuditDecision,
  extra: Partial<AuditEntry>,
): AuditEntry {
  const started = new Date(Date.now() - (extra.durationMs ?? 0));
  return { time: started.toISOString(), outcome: 'not-run', ...base, decision, ...extra } as AuditEntry;
}
