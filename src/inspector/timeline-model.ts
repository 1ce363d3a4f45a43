/**
 * The timeline: the wire history folded into requests with their answers. Each request
 * the client sent becomes one item with its duration and outcome, and under it what
 * belongs to it: progress (by `progressToken`), the server's own requests and log lines
 * while it ran, MRTR retries (`requestState`), task polls (by `taskId`) and cancellation.
 * Pure, importing only the protocol's names (which import nothing): the page runs the same
 * code on its copy of the history.
 */
import { MetaKey } from '../protocol/meta-keys.js';

/** One wire message as the inspector keeps it. */
export interface TimelineMessage {
  seq: number;
  time: number;
  server: string;
  /** `out` to the server, `in` from it. */
  dir: 'in' | 'out';
  message: unknown;
  invalid?: string;
}

/** What a node of the timeline is. */
export type TimelineKind =
  | 'request'
  | 'server-request'
  | 'progress'
  | 'log'
  | 'notification'
  | 'input-round'
  | 'task-poll'
  | 'cancel'
  | 'orphan-response'
  | 'invalid';

/** How a request ended (`pending` while unanswered). */
export type TimelineStatus = 'pending' | 'ok' | 'error' | 'tool-error' | 'input-required' | 'task';

export interface TimelineNode {
  kind: TimelineKind;
  server: string;
  /** The method, or the answered request's method for an orphan response. */
  method: string;
  id?: string | number;
  /** The first message's sequence number: a stable key. */
  seq: number;
  start: number;
  /** When the answer came (requests only). */
  end?: number;
  status?: TimelineStatus;
  /** The JSON-RPC error code, for `error`. */
  code?: number;
  /** The outcome of the whole exchange: the last MRTR round's or the task's result. */
  final?: TimelineStatus;
  /** A server request or log line placed under the request that was running then (no id links them). */
  inferred?: boolean;
  request: TimelineMessage;
  response?: TimelineMessage;
  children: TimelineNode[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Requests whose answers stand for the session, not a user's action. */
const LIFECYCLE = new Set(['initialize', 'server/discover']);
const TASK_POLLS = new Set(['tasks/get', 'tasks/result', 'tasks/cancel']);

/** The task id a result hands back: legacy `{task: {taskId}}`, modern `{resultType: 'task', taskId}`. */
export function taskIdOf(result: unknown): string | undefined {
  if (!isObj(result)) return undefined;
  if (result.resultType === 'task' && typeof result.taskId === 'string') return result.taskId;
  if (isObj(result.task) && typeof result.task.taskId === 'string') return result.task.taskId;
  return undefined;
}

/** The outcome a response shows. */
export function statusOf(message: unknown): { status: TimelineStatus; code?: number } {
  if (!isObj(message)) return { status: 'error' };
  if (isObj(message.error))
    return {
      status: 'error',
      ...(typeof message.error.code === 'number' ? { code: message.error.code } : {}),
    };
  const r = message.result;
  if (!isObj(r)) return { status: 'ok' };
  if (r.resultType === 'input_required') return { status: 'input-required' };
  if (taskIdOf(r) !== undefined) return { status: 'task' };
  if (r.isError === true) return { status: 'tool-error' };
  return { status: 'ok' };
}

function identity(params: Obj | undefined): string {
  return String(params?.name ?? params?.uri ?? '');
}

/**
 * Folds wire messages (in the order they passed) into the timeline's top-level items, in
 * the order they started. Linear in the number of messages.
 */
export function buildTimeline(entries: readonly TimelineMessage[]): TimelineNode[] {
  const roots: TimelineNode[] = [];
  const pending = new Map<string, TimelineNode>();
  const byToken = new Map<string, TimelineNode>();
  const byTask = new Map<string, TimelineNode>();
  /** The request that asked for input last, per server, method and tool/prompt/resource. */
  const waitingInput = new Map<string, TimelineNode>();
  /** Client requests still unanswered, per server, newest last: where unlinked messages go. */
  const running = new Map<string, TimelineNode[]>();
  /** The item each MRTR round and task poll sits under. */
  const ownerOf = new Map<TimelineNode, TimelineNode>();

  const newest = (server: string): TimelineNode | undefined => {
    const list = running.get(server);
    return list?.[list.length - 1];
  };
  const finish = (node: TimelineNode): void => {
    const list = running.get(node.server);
    const i = list?.lastIndexOf(node) ?? -1;
    if (i >= 0) list!.splice(i, 1);
  };
  const under = (parent: TimelineNode | undefined, node: TimelineNode): void => {
    if (parent) parent.children.push(node);
    else roots.push(node);
  };

  for (const e of entries) {
    const m = e.message;
    const base = { server: e.server, seq: e.seq, start: e.time, request: e, children: [] };
    if (e.invalid !== undefined || !isObj(m)) {
      roots.push({ kind: 'invalid', method: Array.isArray(m) ? '(batch)' : '(invalid)', ...base });
      continue;
    }
    const method = typeof m.method === 'string' ? m.method : undefined;
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
    const params = isObj(m.params) ? m.params : undefined;
    const meta = isObj(params?._meta) ? params._meta : undefined;

    if (method !== undefined && id !== undefined) {
      // A request, either way.
      const node: TimelineNode = {
        kind: e.dir === 'out' ? 'request' : 'server-request',
        method,
        id,
        status: 'pending',
        ...base,
      };
      pending.set(`${e.server}\n${e.dir}\n${id}`, node);
      if (e.dir === 'in') {
        const related = typeof meta?.[MetaKey.RelatedTask] === 'object';
        const parent = newest(e.server);
        if (parent && !related) node.inferred = true;
        under(parent, node);
        continue;
      }
      const key = `${e.server}\n${method}\n${identity(params)}`;
      const retryOf =
        params && ('requestState' in params || 'inputResponses' in params)
          ? waitingInput.get(key)
          : undefined;
      const taskId = typeof params?.taskId === 'string' ? params.taskId : undefined;
      const pollOf = TASK_POLLS.has(method) && taskId ? byTask.get(`${e.server}\n${taskId}`) : undefined;
      if (retryOf) {
        node.kind = 'input-round';
        retryOf.children.push(node);
        ownerOf.set(node, retryOf);
        retryOf.final = 'pending';
        waitingInput.set(key, retryOf);
      } else if (pollOf) {
        node.kind = 'task-poll';
        pollOf.children.push(node);
        ownerOf.set(node, pollOf);
      } else roots.push(node);
      // A round's or poll's progress belongs to the exchange, shown under its first request.
      const token = meta?.progressToken;
      if (typeof token === 'string' || typeof token === 'number')
        byToken.set(`${e.server}\n${token}`, retryOf ?? pollOf ?? node);
      let list = running.get(e.server);
      if (!list) running.set(e.server, (list = []));
      if (!LIFECYCLE.has(method) && !pollOf) list.push(node);
      continue;
    }

    if (method === undefined && id !== undefined) {
      // A response: to our request (it came in) or to the server's (it went out).
      const asked = pending.get(`${e.server}\n${e.dir === 'in' ? 'out' : 'in'}\n${id}`);
      if (!asked) {
        roots.push({ kind: 'orphan-response', method: '(response)', id, ...base });
        continue;
      }
      pending.delete(`${e.server}\n${asked.request.dir}\n${id}`);
      const { status, code } = statusOf(m);
      asked.response = e;
      asked.end = e.time;
      asked.status = status;
      if (code !== undefined) asked.code = code;
      if (asked.kind === 'server-request') continue;
      finish(asked);
      const root = asked.kind === 'request' ? asked : ownerOf.get(asked);
      if (asked.kind === 'input-round' || asked.kind === 'request') {
        const sent = (asked.request.message as Obj).params;
        const key = `${e.server}\n${asked.method}\n${identity(isObj(sent) ? sent : undefined)}`;
        const owner = (asked.kind === 'input-round' ? root : asked) ?? asked;
        if (status === 'input-required') waitingInput.set(key, owner);
        else if (waitingInput.get(key) === owner) waitingInput.delete(key);
        if (owner !== asked) owner.final = status;
        else asked.final = status;
      }
      if (status === 'task') {
        const taskId = taskIdOf(m.result)!;
        byTask.set(`${e.server}\n${taskId}`, root ?? asked);
        if (root && root !== asked) root.final = 'task';
      }
      if (asked.kind === 'task-poll' && asked.method === 'tasks/result' && root) root.final = status;
      continue;
    }

    if (method !== undefined) {
      // A notification.
      if (method === 'notifications/progress') {
        const token = params?.progressToken;
        const owner = byToken.get(`${e.server}\n${String(token)}`);
        under(owner, { kind: 'progress', method, ...base });
        continue;
      }
      if (method === 'notifications/cancelled' && params?.requestId !== undefined) {
        const dir = e.dir === 'out' ? 'out' : 'in';
        const target =
          pending.get(`${e.server}\n${dir}\n${String(params.requestId as string)}`) ??
          pending.get(`${e.server}\n${dir}\n${Number(params.requestId)}`);
        under(target, { kind: 'cancel', method, ...base });
        continue;
      }
      const related = meta?.[MetaKey.RelatedTask];
      const relatedTask = isObj(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
      const ofTask =
        (relatedTask && byTask.get(`${e.server}\n${relatedTask}`)) ||
        (method === 'notifications/tasks/status' && typeof params?.taskId === 'string'
          ? byTask.get(`${e.server}\n${params.taskId}`)
          : undefined);
      const kind: TimelineKind = method === 'notifications/message' ? 'log' : 'notification';
      if (ofTask) {
        under(ofTask, { kind, method, ...base });
        continue;
      }
      // Log lines come while a request runs; list changes and updates stand alone.
      const parent = e.dir === 'in' && kind === 'log' ? newest(e.server) : undefined;
      const node: TimelineNode = { kind, method, ...base };
      if (parent) node.inferred = true;
      under(parent, node);
      continue;
    }
    roots.push({ kind: 'invalid', method: '(invalid)', ...base });
  }
  return roots;
}

/** Milliseconds from start to answer; undefined while pending. */
export function durationOf(node: TimelineNode): number | undefined {
  if (node.end === undefined) return undefined;
  // A task's or MRTR exchange's duration runs to its last child's answer.
  let end = node.end;
  for (const c of node.children) if (c.end !== undefined && c.end > end) end = c.end;
  return end - node.start;
}
