/**
 * Replay: the client requests of a recording sent again, in order, to another server or
 * build, each compared with what was recorded: the result's differences, an error where
 * there was a result (or the reverse), and how long it took against the recorded time.
 * The server's questions (sampling, elicitation, roots) get the answers recorded for them.
 */
import type { Client } from '../client/client.js';
import type { ClientHandlers } from '../client/types.js';
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { diffJson } from './json-diff.js';
import type { JsonDifference } from './json-diff.js';
import { finalAnswer, recordedAnswers, replaySteps } from './recording.js';
import type { Recording } from './recording.js';
import { durationOf } from './timeline-model.js';

/** How one exchange ended: a result, a tool's `isError` result, or an error with its code. */
export interface Outcome {
  kind: 'result' | 'tool-error' | 'error';
  /** The JSON-RPC code (number) or local error code (string) of an error. */
  code?: number | string;
  message?: string;
  result?: unknown;
}

/** One request sent again. */
export interface ReplayStepReport {
  index: number;
  method: string;
  /** The tool, prompt or resource it names. */
  target?: string;
  recorded: Outcome;
  now: Outcome;
  recordedMs?: number;
  nowMs: number;
  /** `nowMs / recordedMs`, when the recording timed it. */
  ratio?: number;
  /** `same`, `changed` (both results, different), or `outcome` (the kind or error code changed). */
  verdict: 'same' | 'changed' | 'outcome';
  differences: JsonDifference[];
}

export interface ReplayReport {
  steps: ReplayStepReport[];
  /** Recorded requests left out: the recording ended before their answer. */
  unanswered: number;
  same: number;
  changed: number;
  outcome: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The outcome a recorded response shows. */
export function recordedOutcome(message: unknown): Outcome {
  if (!isObj(message)) return { kind: 'error', message: 'no answer was recorded' };
  if (isObj(message.error))
    return {
      kind: 'error',
      ...(typeof message.error.code === 'number' ? { code: message.error.code } : {}),
      message: String(message.error.message ?? ''),
    };
  const result = message.result;
  return { kind: isObj(result) && result.isError === true ? 'tool-error' : 'result', result };
}

function thrownOutcome(e: unknown): Outcome {
  if (e instanceof WireError) return { kind: 'error', code: e.code, message: e.message };
  if (e instanceof LocalError) return { kind: 'error', code: e.code, message: e.message };
  return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
}

/**
 * Handlers that give the server the answers recorded for its questions, in order; once
 * they run out: elicitation declined, sampling refused, no roots.
 */
export function recordedHandlers(recording: Recording, server?: string): ClientHandlers {
  const answers = recordedAnswers(recording, server);
  const next = (method: string): unknown => answers.get(method)?.shift();
  return {
    sampling: {
      handler: () => {
        const a = next('sampling/createMessage');
        if (!isObj(a)) throw new WireError(-1, 'The recording has no more sampling answers');
        return a as never;
      },
    },
    elicitation: {
      url: true,
      handler: () => {
        const a = next('elicitation/create');
        return (isObj(a) ? a : { action: 'decline' }) as never;
      },
    },
    roots: () => {
      const a = next('roots/list');
      return (isObj(a) && Array.isArray(a.roots) ? a : { roots: [] }) as never;
    },
  };
}

/** Sends each step of `recording` (its server `server`, or every one) through `client`. */
export async function replayRecording(
  recording: Recording,
  client: Client,
  options: { server?: string; signal?: AbortSignal; onstep?: (s: ReplayStepReport) => void } = {},
): Promise<ReplayReport> {
  const unanswered = { count: 0 };
  const steps = replaySteps(recording, options.server, unanswered);
  const report: ReplayReport = { steps: [], unanswered: unanswered.count, same: 0, changed: 0, outcome: 0 };
  for (const [index, step] of steps.entries()) {
    options.signal?.throwIfAborted();
    const recorded = recordedOutcome(finalAnswer(step.node));
    const params = step.params ? { ...step.params } : undefined;
    // The new client makes its own task and input rounds.
    if (params) {
      delete params.task;
      delete params.inputResponses;
      delete params.requestState;
    }
    const started = performance.now();
    let now: Outcome;
    try {
      const call = { ...(options.signal ? { signal: options.signal } : {}) };
      const result =
        step.method === 'tools/call'
          ? await client.callTool(params as never, call)
          : await client.request(step.method, params as Params | undefined, call);
      now = {
        kind: (result as Obj).isError === true ? 'tool-error' : 'result',
        result,
      };
    } catch (e) {
      if (options.signal?.aborted) throw e;
      now = thrownOutcome(e);
    }
    const nowMs = Math.round((performance.now() - started) * 10) / 10;
    const recordedMs = durationOf(step.node);
    let differences: JsonDifference[] = [];
    let verdict: ReplayStepReport['verdict'];
    if (recorded.kind !== now.kind || (recorded.kind === 'error' && recorded.code !== now.code))
      verdict = 'outcome';
    else {
      differences =
        recorded.kind === 'error' ? [] : diffJson(recorded.result, now.result, { ignoreKeys: ['_meta'] });
      verdict = differences.length > 0 ? 'changed' : 'same';
    }
    const p = step.params;
    const target = p
      ? (p.name ?? p.uri ?? (isObj(p.ref) ? (p.ref.name ?? p.ref.uri) : undefined))
      : undefined;
    const s: ReplayStepReport = {
      index: index + 1,
      method: step.method,
      ...(typeof target === 'string' ? { target } : {}),
      recorded,
      now,
      ...(recordedMs !== undefined ? { recordedMs } : {}),
      nowMs,
      ...(recordedMs ? { ratio: Math.round((nowMs / recordedMs) * 100) / 100 } : {}),
      verdict,
      differences,
    };
    report[verdict]++;
    report.steps.push(s);
    options.onstep?.(s);
  }
  return report;
}
