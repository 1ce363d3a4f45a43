import type { RequestId } from '../../jsonrpc/index.js';
import type { Cancel } from './requester.js';

/**
 * One SSE stream as the server sees it, across reconnections: a POST's response stream or
 * the standalone GET stream. It remembers what legacy resumability needs.
 */
export class StreamCursor {
  /** The last SSE event id seen, sent back as `Last-Event-ID` on reconnection. */
  lastEventId: string | undefined;
  /** The server's `retry:` value, in milliseconds. */
  retryMs: number | undefined;
  /** Reconnection attempts since the last event arrived. */
  attempts = 0;
  /** What ended the last connection, reported when the transport gives up. */
  lastError: unknown;
  /** The HTTP request now carrying the stream, if one is in flight. */
  controller: Cancel | undefined;
  /** Whether that request is a GET (a resumption or the standalone stream). */
  onGet = false;
  /** The pending reconnection, if one is scheduled. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * One POST that carries requests: the responses it still owes, by id, and the promise that
 * `send()` returned for it, which settles when the exchange ends.
 */
export class Exchange extends StreamCursor {
  /** Request id → method, for each response not yet received. */
  readonly owed = new Map<RequestId, string>();
  settled = false;
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    super();
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** The methods still owed, for error messages. */
  describe(): string {
    return [...new Set(this.owed.values())].join(', ') || 'the request';
  }
}
