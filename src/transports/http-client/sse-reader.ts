import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { LocalError } from '../../jsonrpc/index.js';
import type { HttpReply } from './requester.js';

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
 * failure, an abort of the request's signal, an event over `maxEventChars`). Never rejects.
 */
export async function readSse(
  reply: HttpReply,
  handlers: SseHandlers,
  maxEventChars = DEFAULT_MAX_EVENT_CHARS,
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
  try {
    await reply.read((text) => {
      parser.feed(text);
      if (tooLarge) return false;
    });
  } catch (e) {
    return e ?? new Error('The SSE stream failed');
  }
  if (tooLarge) {
    return new LocalError(
      'MessageTooLarge',
      `An SSE event exceeded ${maxEventChars} characters; the stream was dropped`,
    );
  }
  // A last event without its blank line is dropped, as EventSource does.
  return undefined;
}
