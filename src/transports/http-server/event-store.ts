import type { JsonRpcMessage, RequestId } from '../../jsonrpc/index.js';

/** The extra details a stream's events carry in a shared store. */
export interface AppendOptions {
  /** The stream's last message: a follower on another node ends the stream after it. */
  last?: boolean;
  /** On the priming event: the requests the stream answers, so a follower can fail them if their node stops. */
  requestIds?: readonly RequestId[];
  /**
   * The client is reading the stream live: a shared store may keep the event in this node's
   * memory until {@link EventStore.flush} (the client left) and drop it unseen when the
   * stream ends, so a call whose client stays pays no write for its events.
   */
  deferred?: boolean;
}

/**
 * Keeps the SSE events of resumable streams so a client can reconnect with Last-Event-ID.
 * The default lives in memory; a deployment with several nodes plugs in a shared one.
 */
export interface EventStore {
  /** Stores a message sent on a stream and returns its event id; null only reserves an id (priming). */
  append(streamId: string, message: JsonRpcMessage | null, options?: AppendOptions): string | Promise<string>;
  /**
   * Replays the events after `lastEventId` on its own stream, in order, and returns that
   * stream's id; undefined when the id is unknown or malformed.
   */
  replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): string | undefined | Promise<string | undefined>;
  /** Forgets a stream. */
  drop(streamId: string): void | Promise<void>;
  /** Stores the events kept back with `deferred`: the client left and may resume elsewhere. */
  flush?(streamId: string): void;
}

/** The stream id inside an event id (`<stream>.<sequence>`). */
export function streamOfEventId(eventId: string): string | undefined {
  const dot = eventId.lastIndexOf('.');
  return dot > 0 && eventId.length < 200 ? eventId.slice(0, dot) : undefined;
}

interface StoredStream {
  next: number;
  /** Oldest first; bounded. */
  events: Array<{ seq: number; message: JsonRpcMessage }>;
}

/** The in-memory {@link EventStore}: bounded per stream and in the number of streams. */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StoredStream>();

  constructor(
    private readonly maxEventsPerStream = 1000,
    private readonly maxStreams = 10_000,
  ) {}

  append(streamId: string, message: JsonRpcMessage | null): string {
    let s = this.streams.get(streamId);
    if (!s) {
      if (this.streams.size >= this.maxStreams) {
        const oldest = this.streams.keys().next().value;
        if (oldest !== undefined) this.streams.delete(oldest);
      }
      s = { next: 0, events: [] };
      this.streams.set(streamId, s);
    }
    const seq = s.next++;
    if (message !== null) s.events.push({ seq, message });
    if (s.events.length > this.maxEventsPerStream) s.events.shift();
    return `${streamId}.${seq}`;
  }

  replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): string | undefined {
    const streamId = streamOfEventId(lastEventId);
    if (streamId === undefined) return undefined;
    const s = this.streams.get(streamId);
    // Only the decimal sequences we issue: Number() would also take '', '0x1', '1e0' or ' 1'.
    const text = lastEventId.slice(streamId.length + 1);
    const after = /^\d{1,15}$/.test(text) ? Number(text) : -1;
    if (!s || after < 0 || after >= s.next) return undefined;
    for (const e of s.events) if (e.seq > after) send(`${streamId}.${e.seq}`, e.message);
    return streamId;
  }

  drop(streamId: string): void {
    this.streams.delete(streamId);
  }

  /** Streams currently held (for tests and metrics). */
  get size(): number {
    return this.streams.size;
  }
}
