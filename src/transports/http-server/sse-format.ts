/** Formats one SSE event. JSON never holds a raw newline, so `data` is always one line. */
export function sseEvent(data: string, id?: string, event = 'message'): string {
  return (id !== undefined ? `id: ${id}\n` : '') + `event: ${event}\ndata: ${data}\n\n`;
}

/** The priming event that lets a client resume a stream before any message arrives. */
export function ssePriming(id: string, retryMs: number | undefined): string {
  return `id: ${id}\n` + (retryMs !== undefined ? `retry: ${retryMs}\n` : '') + 'data: \n\n';
}

/** A keep-alive comment. */
export const SSE_KEEPALIVE = ':\n\n';

export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
});
