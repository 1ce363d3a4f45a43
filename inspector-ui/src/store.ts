// The page's state: what the event stream says, plus the page's own history of calls.
import { useEffect, useState } from 'preact/hooks';
import { listen } from './api';
import { loadPlayground, onPlaygroundEvent } from './playground-store';

export interface Health {
  name: string;
  state: string;
  transport: string;
  pid?: number;
  restarts: number;
  lastError?: string;
  connectedAt?: number;
  nextAttemptAt?: number;
  serverInfo?: { name: string; version: string };
  era?: string;
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  instructions?: string;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Catalog {
  tools: Array<{ server: string; name: string; alias: string; definition: Tool; warnings: unknown[] }>;
  resources: Array<{ server: string; definition: Record<string, unknown> & { uri: string; name?: string } }>;
  templates: Array<{
    server: string;
    definition: Record<string, unknown> & { uriTemplate: string; name?: string };
  }>;
  prompts: Array<{
    server: string;
    name: string;
    definition: {
      name: string;
      description?: string;
      arguments?: Array<{ name: string; description?: string; required?: boolean }>;
    };
  }>;
}

export interface WireEntry {
  seq: number;
  time: number;
  server: string;
  dir: 'in' | 'out';
  message: Record<string, unknown> | null;
  invalid?: string;
}

export interface Question {
  id: string;
  kind: 'elicit-form' | 'elicit-url' | 'sampling' | 'approve-tool';
  server: string;
  time: string;
  request: Record<string, unknown>;
}

export interface CallRecord {
  id: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  started: number;
  ms?: number;
  result?: Record<string, unknown>;
  error?: { message: string; code?: string | number };
  progress?: { progress: number; total?: number; message?: string };
  /** The task the call runs as, when it runs as one: its latest state. */
  task?: { taskId: string; status: string; statusMessage?: string };
}

export interface State {
  connected: boolean;
  servers: Health[];
  targets: Array<{ name: string; transport: string; target: string }>;
  catalog: Catalog;
  questions: Question[];
  wire: WireEntry[];
  logs: Array<{ time: number; server: string; level: string; logger?: string; data: unknown }>;
  notices: Array<{ time: number; server?: string; message: string }>;
  subscriptions: Array<{ id: string; server: string; uri: string; updates: number; last?: number }>;
  calls: CallRecord[];
}

const WIRE_KEEP = 2000;

export const state: State = {
  connected: false,
  servers: [],
  targets: [],
  catalog: { tools: [], resources: [], templates: [], prompts: [] },
  questions: [],
  wire: [],
  logs: [],
  notices: [],
  subscriptions: [],
  calls: [],
};

/** Handlers for the event types a screen keeps to itself (a load run's progress), by type. */
export const screenEvents = new Map<string, (e: Record<string, unknown>) => void>();

const listeners = new Set<() => void>();
let scheduled = false;
/** Counts the change notifications sent, so a component can tell it rendered a stale state. */
let version = 0;

/** Re-renders the page once per frame at most, however many events arrive. */
export function changed(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    version++;
    for (const l of listeners) l();
  });
}

/** Re-renders the calling component whenever the state changes. */
export function useStore(): State {
  const [, set] = useState(0);
  const rendered = version;
  useEffect(() => {
    const l = (): void => set((n) => n + 1);
    listeners.add(l);
    // Effects run after paint: a change notified between the first render and this line
    // reached no listener (the event stream can connect and send its snapshot in that gap,
    // and nothing else may follow on a quiet server), so render again if one was missed.
    if (version !== rendered) l();
    return () => void listeners.delete(l);
  }, []);
  return state;
}

function upsertServer(h: Health): void {
  const i = state.servers.findIndex((s) => s.name === h.name);
  if (i === -1) state.servers = [...state.servers, h];
  else state.servers = state.servers.map((s, j) => (j === i ? h : s));
}

/** Starts the event feed. */
export function connect(): void {
  listen(
    (e) => {
      switch (e.type) {
        case 'snapshot': {
          const s = e.snapshot as Omit<State, 'connected' | 'calls' | 'subscriptions'> & {
            subscriptions: Array<{ id: string; server: string; uri: string }>;
          };
          Object.assign(state, {
            servers: s.servers,
            targets: s.targets,
            catalog: s.catalog,
            questions: s.questions,
            wire: s.wire,
            logs: s.logs,
            notices: s.notices,
            subscriptions: s.subscriptions.map((x) => ({
              ...x,
              updates: state.subscriptions.find((o) => o.id === x.id)?.updates ?? 0,
            })),
          });
          void loadPlayground();
          break;
        }
        case 'health':
          upsertServer(e.health as Health);
          break;
        case 'catalog':
          state.catalog = e.catalog as Catalog;
          break;
        case 'wire':
          state.wire.push(e.entry as WireEntry);
          if (state.wire.length > WIRE_KEEP) state.wire.splice(0, state.wire.length - WIRE_KEEP);
          state.wire = [...state.wire];
          break;
        case 'log':
          state.logs = [...state.logs.slice(-999), e.entry as State['logs'][number]];
          break;
        case 'notice':
          state.notices = [...state.notices.slice(-999), e.entry as State['notices'][number]];
          break;
        case 'question':
          if (e.added) state.questions = [...state.questions, e.added as Question];
          if (e.removed) state.questions = state.questions.filter((q) => q.id !== e.removed);
          break;
        case 'progress': {
          const call = state.calls.find((c) => c.id === e.callId);
          if (call) call.progress = e.progress as CallRecord['progress'];
          state.calls = [...state.calls];
          break;
        }
        case 'playground':
          onPlaygroundEvent(e.event as Record<string, unknown>);
          break;
        case 'targets':
          state.targets = e.targets as State['targets'];
          break;
        case 'task': {
          const call = state.calls.find((c) => c.id === e.callId);
          if (call) call.task = e.task as CallRecord['task'];
          state.calls = [...state.calls];
          break;
        }
        case 'subscription': {
          const ev = e.event as { type: string; server?: string; uri?: string };
          if (ev.type === 'started' && !state.subscriptions.some((x) => x.id === e.id)) {
            state.subscriptions = [
              ...state.subscriptions,
              { id: String(e.id), server: String(ev.server), uri: String(ev.uri), updates: 0 },
            ];
            break;
          }
          state.subscriptions =
            ev.type === 'ended'
              ? state.subscriptions.filter((s) => s.id !== e.id)
              : state.subscriptions.map((s) =>
                  s.id === e.id ? { ...s, updates: s.updates + 1, last: Date.now() } : s,
                );
          break;
        }
        default:
          screenEvents.get(e.type)?.(e);
      }
      changed();
    },
    (up) => {
      state.connected = up;
      changed();
    },
  );
}
