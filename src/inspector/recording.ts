/**
 * The recording file format (`mcpkit inspect --record`, the page's "Download recording",
 * read by `mcpkit replay` and the page): JSON lines, UTF-8, one object per line.
 *
 * - Line 1, the header: `{"type":"mcpkit-recording","version":1,"mcpkit":"0.1.0",
 *   "createdAt":"<ISO time>","servers":[{"name","transport","target",
 *   "serverInfo"?,"protocolVersion"?,"era"?}]}`.
 * - `{"type":"server","name","serverInfo","protocolVersion","era"}`: a server connected
 *   (a live recording starts before its servers have said who they are).
 * - `{"type":"message","seq","time","server","dir":"out"|"in","message"}`: one JSON-RPC
 *   message (`out` to the server), with `"invalid"` when the frame did not parse.
 *
 * Readers ignore unknown fields and line types; a newer `version` is refused. Pure and
 * import-free apart from the timeline: the page reads recordings with the same code.
 */
import { buildTimeline } from './timeline-model.js';
import type { TimelineMessage, TimelineNode } from './timeline-model.js';

export const RECORDING_TYPE = 'mcpkit-recording';
export const RECORDING_VERSION = 1;

/** A recorded server: what it was, and what it said about itself once connected. */
export interface RecordedServer {
  name: string;
  transport?: string;
  target?: string;
  serverInfo?: { name: string; version: string; [key: string]: unknown };
  protocolVersion?: string;
  era?: string;
}

export interface RecordingHeader {
  type: typeof RECORDING_TYPE;
  version: number;
  /** The mcpkit version that recorded it. */
  mcpkit: string;
  createdAt: string;
  servers: RecordedServer[];
}

export interface Recording {
  header: RecordingHeader;
  /** Servers by name, the header's merged with later `server` lines. */
  servers: Map<string, RecordedServer>;
  messages: TimelineMessage[];
  /** Problems that did not stop the reading (a torn last line). */
  warnings: string[];
}

/** A recording that cannot be read, with the line at fault (1-based; 0 for the whole file). */
export class RecordingError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = 'RecordingError';
  }
}

/** The header line (no newline). */
export function recordingHeader(mcpkit: string, servers: RecordedServer[], createdAt = new Date()): string {
  const header: RecordingHeader = {
    type: RECORDING_TYPE,
    version: RECORDING_VERSION,
    mcpkit,
    createdAt: createdAt.toISOString(),
    servers,
  };
  return JSON.stringify(header);
}

/** A message line (no newline). */
export function messageLine(m: TimelineMessage): string {
  return JSON.stringify({ type: 'message', ...m });
}

/** A server line (no newline). */
export function serverLine(s: RecordedServer): string {
  return JSON.stringify({ type: 'server', ...s });
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseLine(text: string, n: number): Obj {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new RecordingError(`not JSON (${(e as Error).message})`, n);
  }
  if (!isObj(v)) throw new RecordingError('not a JSON object', n);
  return v;
}

function server(v: Obj, n: number): RecordedServer {
  if (typeof v.name !== 'string' || v.name === '') throw new RecordingError('a server needs a "name"', n);
  return v as unknown as RecordedServer;
}

/** Reads a recording, or throws a {@link RecordingError} that says what and where. */
export function parseRecording(text: string): Recording {
  if (text.trim() === '') throw new RecordingError('The recording is empty', 0);
  const lines = text.split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const first = parseLine(lines[0]!.replace(/^\uFEFF/, ''), 1);
  if (first.type !== RECORDING_TYPE)
    throw new RecordingError(
      `not an mcpkit recording: the first line must be a header with "type": "${RECORDING_TYPE}"` +
        (Array.isArray(first.messages) ? ' (this looks like the Wire screen\'s "Export JSON" file)' : ''),
      1,
    );
  if (typeof first.version !== 'number' || !Number.isInteger(first.version) || first.version < 1)
    throw new RecordingError('the header\'s "version" must be a positive integer', 1);
  if (first.version > RECORDING_VERSION)
    throw new RecordingError(
      `format version ${first.version} is newer than this mcpkit reads (${RECORDING_VERSION}); upgrade mcpkit`,
      1,
    );
  if (!Array.isArray(first.servers)) throw new RecordingError('the header needs a "servers" array', 1);
  const header = first as unknown as RecordingHeader;
  const servers = new Map<string, RecordedServer>();
  for (const s of first.servers) {
    if (!isObj(s)) throw new RecordingError('each of the header\'s "servers" must be an object', 1);
    servers.set(server(s, 1).name, { ...(s as unknown as RecordedServer) });
  }
  const messages: TimelineMessage[] = [];
  const warnings: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const n = i + 1;
    if (lines[i]!.trim() === '') continue;
    let v: Obj;
    try {
      v = parseLine(lines[i]!, n);
    } catch (e) {
      // A recorder stopped mid-write leaves a torn last line: the rest is still good.
      if (i === lines.length - 1) {
        warnings.push(`${(e as Error).message}; the torn last line was skipped`);
        break;
      }
      throw e;
    }
    if (v.type === 'server') {
      const { type: _line, ...s } = v;
      servers.set(server(v, n).name, {
        ...servers.get(v.name as string),
        ...(s as unknown as RecordedServer),
      });
      continue;
    }
    if (v.type !== 'message') continue;
    if (typeof v.server !== 'string') throw new RecordingError('a message needs its "server"', n);
    if (v.dir !== 'in' && v.dir !== 'out') throw new RecordingError('a message\'s "dir" is "in" or "out"', n);
    if (typeof v.time !== 'number' || !Number.isFinite(v.time))
      throw new RecordingError('a message needs its "time" (ms since 1970)', n);
    if (!('message' in v)) throw new RecordingError('a message line needs its "message"', n);
    const m: TimelineMessage = {
      seq: typeof v.seq === 'number' ? v.seq : messages.length + 1,
      time: v.time,
      server: v.server,
      dir: v.dir,
      message: v.message,
    };
    if (typeof v.invalid === 'string') m.invalid = v.invalid;
    messages.push(m);
  }
  return { header, servers, messages, warnings };
}

/**
 * Methods a client sends on its own when it connects, and the modern era's long-lived
 * subscription stream: replay connects anew instead of sending them.
 */
const SESSION_METHODS = new Set(['initialize', 'server/discover', 'subscriptions/listen']);

/** A client request to send again, with what was recorded for it. */
export interface ReplayStep {
  server: string;
  method: string;
  /** The params as sent, without `_meta` (the new client adds its own). */
  params: Record<string, unknown> | undefined;
  node: TimelineNode;
}

/**
 * The client requests of a recording to send again, in order: the timeline's top-level
 * requests, less the session's own (`initialize`, `server/discover`). MRTR rounds and
 * task polls are not steps: the replaying client makes its own. A request the recording
 * has no answer to (the session ended first) is left out and counted in `unanswered`.
 */
export function replaySteps(
  recording: Recording,
  server?: string,
  unanswered?: { count: number },
): ReplayStep[] {
  const steps: ReplayStep[] = [];
  for (const node of buildTimeline(recording.messages)) {
    if (node.kind !== 'request' || SESSION_METHODS.has(node.method)) continue;
    if (server !== undefined && node.server !== server) continue;
    if (!node.response) {
      if (unanswered) unanswered.count++;
      continue;
    }
    const m = node.request.message as Obj;
    let params = isObj(m.params) ? { ...m.params } : undefined;
    if (params) {
      delete params._meta;
      if (Object.keys(params).length === 0 && !isObj(m.params)) params = undefined;
    }
    steps.push({ server: node.server, method: node.method, params, node });
  }
  return steps;
}

/** The answer recorded for a step: the last MRTR round's, or the task's `tasks/result`. */
export function finalAnswer(node: TimelineNode): unknown {
  let answer: TimelineNode = node;
  for (const c of node.children)
    if (c.response && (c.kind === 'input-round' || (c.kind === 'task-poll' && c.method === 'tasks/result')))
      answer = c;
  return answer.response?.message;
}

/**
 * What the client answered to the server's requests (sampling, elicitation, roots), per
 * method, in order: replay gives the same answers. Both eras: a response to a server
 * request, and an MRTR retry's `inputResponses`.
 */
export function recordedAnswers(recording: Recording, server?: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const add = (method: string, answer: unknown): void => {
    let list = out.get(method);
    if (!list) out.set(method, (list = []));
    list.push(answer);
  };
  const asked = new Map<string, string>();
  /** The methods of the input requests of each input_required answer, by key. */
  let lastInputs: Obj | undefined;
  for (const e of recording.messages) {
    if (server !== undefined && e.server !== server) continue;
    const m = e.message;
    if (!isObj(m)) continue;
    if (e.dir === 'in' && typeof m.method === 'string' && m.id !== undefined)
      asked.set(`${e.server}\n${String(m.id)}`, m.method);
    if (e.dir === 'in' && m.method === undefined && isObj(m.result) && isObj(m.result.inputRequests))
      lastInputs = m.result.inputRequests;
    if (e.dir !== 'out') continue;
    if (m.method === undefined && m.id !== undefined && 'result' in m) {
      const method = asked.get(`${e.server}\n${String(m.id)}`);
      if (method) add(method, m.result);
    }
    const p = isObj(m.params) ? m.params : undefined;
    if (typeof m.method === 'string' && p && isObj(p.inputResponses) && lastInputs) {
      for (const [k, v] of Object.entries(p.inputResponses)) {
        const req = lastInputs[k];
        if (isObj(req) && typeof req.method === 'string') add(req.method, v);
      }
    }
  }
  return out;
}

/** The catalog a recording saw for one server: its last answers to the list requests. */
export function recordedCatalog(
  recording: Recording,
  server: string,
): { tools: unknown[]; resources: unknown[]; templates: unknown[]; prompts: unknown[] } {
  const lists: Record<string, { field: string; items: Map<string, unknown> }> = {
    'tools/list': { field: 'tools', items: new Map() },
    'resources/list': { field: 'resources', items: new Map() },
    'resources/templates/list': { field: 'resourceTemplates', items: new Map() },
    'prompts/list': { field: 'prompts', items: new Map() },
  };
  for (const node of buildTimeline(recording.messages)) {
    const list = lists[node.method];
    if (!list || node.server !== server) continue;
    const r = (node.response?.message as Obj | undefined)?.result;
    if (!isObj(r) || !Array.isArray(r[list.field])) continue;
    // A first page (no cursor) starts the list again: the server may have changed it.
    const params = (node.request.message as Obj).params;
    if (!isObj(params) || params.cursor === undefined) list.items.clear();
    for (const d of r[list.field] as unknown[]) {
      if (!isObj(d)) continue;
      list.items.set(String(d.name ?? d.uri ?? d.uriTemplate), d);
    }
  }
  return {
    tools: [...lists['tools/list']!.items.values()],
    resources: [...lists['resources/list']!.items.values()],
    templates: [...lists['resources/templates/list']!.items.values()],
    prompts: [...lists['prompts/list']!.items.values()],
  };
}
