import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { LocalError } from '../../jsonrpc/index.js';

export type { EventSourceMessage };

/** What a reader does with what it parses. */
export interface SseHandlers {
  event(event: EventSourceMessage): void;
  retry?(ms: number): void;
}

/** The default bound on one buffered SSE event, in characters (16 Mi, as stdio). */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Reads a `text/event-stream` body to its end with `eventsource-parser`. Resolves with
 * undefined when the body ended cleanly, or with the error that ended it (a network
 * failure, an abort, an event over `maxEventChars`). Never rejects.
 *
 * `signal` is the request's own signal: when it fires the reader is cancelled too, since
 * fetch cannot cancel a body that a reader holds and a pending read may never settle.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers,
  maxEventChars = DEFAULT_MAX_EVENT_CHARS,
  signal?: AbortSignal,
): Promise<unknown> {
  let tooLarge = false;
  const parser = createParser({
    onEvent: handlers.event,
    onRetry: handlers.retry,
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
    maxBufferSize: maxEventChars,
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return signal.reason ?? new Error('aborted');
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (tooLarge) {
        await reader.cancel().catch(() => undefined);
        return new LocalError(
          'MessageTooLarge',
          `An SSE event exceeded ${maxEventChars} characters; the stream was dropped`,
        );
      }
    }
    parser.feed(decoder.decode());
    return undefined;
  } catch (e) {
    return e ?? new Error('The SSE stream failed');
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
