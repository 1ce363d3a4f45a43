// The playground's state in the page: loaded from the API, then kept up by the event
// stream's `playground` events (entries as the turn runs, its state, a typed answer wanted).
import { api } from './api';
import { changed } from './store';

export interface PlaygroundEntry {
  seq: number;
  time: number;
  type: 'user' | 'assistant' | 'tool' | 'final' | 'error' | 'sampled';
  text: string;
  model?: string;
  toolCalls?: Array<{ name: string; input: Record<string, unknown>; id?: string }>;
  name?: string;
  server?: string;
  tool?: string;
  ok?: boolean;
  toolUseId?: string;
  result?: Record<string, unknown>;
  stopReason?: string;
}

export interface PlaygroundState {
  loaded: boolean;
  model: string | undefined;
  provider: string | undefined;
  transcript: PlaygroundEntry[];
  running: boolean;
  deadline: number | undefined;
  typing: { params: unknown } | undefined;
  timeoutMs: number;
}

export const playground: PlaygroundState = {
  loaded: false,
  model: undefined,
  provider: undefined,
  transcript: [],
  running: false,
  deadline: undefined,
  typing: undefined,
  timeoutMs: 120_000,
};

/** (Re)loads the playground, e.g. after the event stream reconnected. */
export async function loadPlayground(): Promise<void> {
  const v = await api<Omit<PlaygroundState, 'loaded'>>('playground', {});
  if (v.error) return;
  Object.assign(playground, {
    loaded: true,
    model: v.model,
    provider: v.provider,
    transcript: v.transcript,
    running: v.running,
    deadline: v.deadline,
    typing: v.typing,
    timeoutMs: v.timeoutMs,
  });
  changed();
}

/** One `playground` event of the stream. */
export function onPlaygroundEvent(e: Record<string, unknown>): void {
  if (e.entry) playground.transcript = [...playground.transcript, e.entry as PlaygroundEntry];
  if (typeof e.running === 'boolean') {
    playground.running = e.running;
    playground.deadline = e.running ? (e.deadline as number | undefined) : undefined;
  }
  if ('typing' in e) playground.typing = e.typing as PlaygroundState['typing'];
  if (e.cleared) playground.transcript = [];
}
