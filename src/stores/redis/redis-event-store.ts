import type { Redis } from 'ioredis';
import { WireError, errorResponse } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, RequestId } from '../../jsonrpc/index.js';
import type { AppendOptions, EventStore } from '../../transports/http-server/event-store.js';
import { streamOfEventId } from '../../transports/http-server/event-store.js';
import type { FollowableEventStore } from '../../transports/http-server/shared-state.js';
import type { RedisChannels } from './redis-bus.js';

export interface RedisEventStoreOptions {
  /** Most events kept per stream (approximately; default 1000). */
  maxEventsPerStream?: number;
  /** A stream nobody writes for this long is deleted (default 10 minutes). */
  ttlMs?: number;
  /** How often a follower checks that the writing node is alive (default 1 s). */
  livenessMs?: number;
}

/** The node that writes a shared stream, from its id (`<session>~<node>~<n>`). */
function writerOf(streamId: string): string | undefined {
  const parts = streamId.split('~');
  return parts.length === 3 ? parts[1] : undefined;
}

function parseSeq(eventId: string, streamId: string): number {
  const text = eventId.slice(streamId.length + 1);
  return /^\d{1,15}$/.test(text) ? Number(text) : -1;
}

/**
 * Resumable SSE events in Redis Streams, one stream per SSE stream, bounded in length and
 * expiring when unused. Event ids are made by the writing node (only it writes a stream),
 * so appends never wait for Redis: they are pipelined, and published at the same time for
 * followers on other nodes.
 */
export class RedisEventStore implements EventStore, FollowableEventStore {
  private readonly next = new Map<string, number>();
  private readonly maxLen: number;
  private readonly ttlMs: number;
  private readonly livenessMs: number;
  /** Appends Redis refused (it was down): those events cannot be replayed. */
  lost = 0;

  constructor(
    private readonly redis: Redis,
    private readonly channels: RedisChannels,
    private readonly prefix: string,
    options: RedisEventStoreOptions = {},
  ) {
    this.maxLen = options.maxEventsPerStream ?? 1000;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.livenessMs = options.livenessMs ?? 1000;
  }

  append(streamId: string, message: JsonRpcMessage | null, options?: AppendOptions): string {
    const seq = this.next.get(streamId) ?? 0;
    if (options?.last) this.next.delete(streamId);
    else {
      if (seq === 0 && this.next.size >= 100_000) {
        const oldest = this.next.keys().next().value;
        if (oldest !== undefined) this.next.delete(oldest);
      }
      this.next.set(streamId, seq + 1);
    }
    const key = `${this.prefix}ev:${streamId}`;
    const json = message === null ? '' : JSON.stringify(message);
    const fields: string[] = ['m', json];
    if (options?.requestIds) fields.push('r', JSON.stringify(options.requestIds));
    if (options?.last) fields.push('e', '1');
    const p = this.redis
      .multi()
      .xadd(key, 'MAXLEN', '~', this.maxLen, `0-${seq + 1}`, ...fields)
      .pexpire(key, this.ttlMs);
    if (message !== null) p.publish(key, `${seq}\n${options?.last ? 1 : 0}\n${json}`);
    p.exec().catch(() => this.lost++);
    return `${streamId}.${seq}`;
  }

  async replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): Promise<string | undefined> {
    const streamId = streamOfEventId(lastEventId);
    if (streamId === undefined) return undefined;
    const after = parseSeq(lastEventId, streamId);
    if (after < 0) return undefined;
    const entries = await this.redis.xrange(`${this.prefix}ev:${streamId}`, '-', '+');
    if (entries.length === 0) return undefined;
    for (const [id, fields] of entries) {
      const seq = Number(id.slice(2)) - 1;
      const m = fieldOf(fields, 'm');
      if (seq > after && m) send(`${streamId}.${seq}`, JSON.parse(m) as JsonRpcMessage);
    }
    return streamId;
  }

  drop(streamId: string): void {
    this.next.delete(streamId);
    this.redis.del(`${this.prefix}ev:${streamId}`).catch(() => undefined);
  }

  async follow(
    lastEventId: string,
    send: (eventId: string | undefined, message: JsonRpcMessage) => void,
    end: () => void,
  ): Promise<(() => void) | undefined> {
    const streamId = streamOfEventId(lastEventId);
    const writer = streamId === undefined ? undefined : writerOf(streamId);
    if (streamId === undefined || writer === undefined) return undefined;
    const after = parseSeq(lastEventId, streamId);
    if (after < 0) return undefined;
    const key = `${this.prefix}ev:${streamId}`;
    let seen = after;
    let requests: RequestId[] = [];
    const answered = new Set<RequestId>();
    let live = false;
    let finished = false;
    const early: string[] = [];
    // Set once each, below; the stop function may run before either is.
    const held: { timer?: ReturnType<typeof setInterval>; unlisten?: () => void } = {};
    const stop = (): void => {
      finished = true;
      if (held.timer) clearInterval(held.timer);
      held.unlisten?.();
    };
    const finish = (): void => {
      if (finished) return;
      stop();
      end();
    };
    const take = (seq: number, json: string, last: boolean): void => {
      if (finished || seq <= seen) return;
      seen = seq;
      if (json) {
        const message = JSON.parse(json) as JsonRpcMessage;
        if (!('method' in message) && message.id !== null) answered.add(message.id);
        send(`${streamId}.${seq}`, message);
      }
      if (last) finish();
    };
    const onPublished = (text: string): void => {
      if (!live) return void early.push(text);
      const a = text.indexOf('\n');
      const b = text.indexOf('\n', a + 1);
      take(Number(text.slice(0, a)), text.slice(b + 1), text.slice(a + 1, b) === '1');
    };
    // Listen first, then read: an event stored in between arrives both ways and is taken once.
    held.unlisten = await this.channels.listen(key, onPublished);
    let entries: [string, string[]][];
    try {
      entries = await this.redis.xrange(key, '-', '+');
    } catch (e) {
      stop();
      throw e;
    }
    if (entries.length === 0) {
      stop();
      return undefined;
    }
    const replay = (list: [string, string[]][]): void => {
      for (const [id, fields] of list) {
        const r = fieldOf(fields, 'r');
        if (r) requests = JSON.parse(r) as RequestId[];
        take(Number(id.slice(2)) - 1, fieldOf(fields, 'm') ?? '', fieldOf(fields, 'e') === '1');
      }
    };
    replay(entries);
    live = true;
    for (const text of early.splice(0)) onPublished(text);
    if (finished) return stop;
    // The writer may die before the stream's last event: then its requests will never be
    // answered, and the client is told so rather than left waiting.
    const timer = (held.timer = setInterval(() => {
      void (async () => {
        try {
          if ((await this.redis.exists(`${this.prefix}node:${writer}`)) === 1 || finished) return;
          replay(await this.redis.xrange(key, `(0-${seen + 1}`, '+'));
        } catch {
          return; // Redis is down: no verdict on the writer yet.
        }
        for (const id of requests) {
          if (finished || answered.has(id)) continue;
          send(
            undefined,
            errorResponse(id, WireError.internal('The server node handling this request stopped; try again')),
          );
        }
        finish();
      })();
    }, this.livenessMs));
    timer.unref?.();
    return stop;
  }
}

function fieldOf(fields: string[], name: string): string | undefined {
  for (let i = 0; i < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
