// The page's side of the inspector's API: JSON calls with the token in a header, and the
// event stream read with fetch (an EventSource could not send the header).

import { settings } from './settings';

const token = document.querySelector<HTMLMetaElement>('meta[name="mcpkit-token"]')?.content ?? '';
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

export interface ApiError {
  message: string;
  code?: string | number;
  data?: unknown;
}

/** The operations that send a request to a server, and so take the page's timeout settings. */
const TIMED = new Set(['call', 'read', 'prompt']);

/** The page's timeout settings as the API takes them (absent: the server's or client's default). */
function timeouts(): Record<string, unknown> {
  return {
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.resetOnProgress ? { resetTimeoutOnProgress: true } : {}),
    ...(settings.maxTotalMs !== undefined ? { maxTotalTimeoutMs: settings.maxTotalMs } : {}),
  };
}

/** Calls an API operation; resolves to its answer, or `{ error }`. */
export async function api<T = Record<string, unknown>>(
  op: string,
  body: Record<string, unknown>,
): Promise<T & { error?: ApiError }> {
  if (TIMED.has(op)) body = { ...timeouts(), ...body };
  try {
    const res = await fetch(`./api/${op}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as T & { error?: ApiError | string };
    if (typeof json.error === 'string') return { ...json, error: { message: json.error } };
    return json as T & { error?: ApiError };
  } catch (e) {
    return { error: { message: `The inspector did not answer: ${(e as Error).message}` } } as T & {
      error: ApiError;
    };
  }
}

/** Reads the event stream, reconnecting after a drop; each connection starts with a snapshot. */
export function listen(
  onevent: (e: { type: string } & Record<string, unknown>) => void,
  onstate: (up: boolean) => void,
): void {
  const connect = async (): Promise<void> => {
    try {
      const res = await fetch('./api/events', { headers: { authorization: headers.authorization } });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      onstate(true);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) onevent(JSON.parse(data) as { type: string });
        }
      }
    } catch {
      // dropped or refused: try again shortly
    }
    onstate(false);
    setTimeout(() => void connect(), 1000);
  };
  void connect();
}
