import type { Redis } from 'ioredis';
import { WireError, errorResponse } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, RequestId } from '../../jsonrpc/index.js';
import type { AppendOptions, EventStore } from '../../transports/http-server/event-store.js';
import { streamOfEventId } from '../../transports/http-server/event-store.js';
import { decodeRequestIds } from '../../transports/http-server/shared-state.js';
import type { FollowableEventStore } from '../../transports/http-server/shared-state.js';
import type { RedisChannels } from './redis-bus.js';
import type { RedisEventStoreOptions } from './redis-options.js';

export type { RedisEventStoreOptions } from './redis-options.js';

/** One event kept back, or about to be written. */
interface Held {
  seq: number;
  /** The message's JSON; '' for the priming event. */
  json: string;
  last: boolean;
  requestIds?: readonly RequestId[] | undefined;
}

/**
 * The node that writes a shared stream, and the requests it answers when its id carries
 * them: `<session>~<node>~<n>[~<request ids>]`.
 */
function partsOf(streamId: string): { writer: string; requestIds: RequestId[] | undefined } | undefined {
  const parts = streamId.split('~');
  if (parts.length === 3) return { writer: parts[1]!, requestIds: undefined };
  if (parts.length !== 4) return undefined;
  const requestIds = decodeRequestIds(parts[3]!);
  return requestIds ? { writer: parts[1]!, requestIds } : undefined;
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
  /** Events kept back while their client reads them live, by stream. */
  private readonly held = new Map<string, Held[]>();
  /** Streams this node has written to Redis and not dropped yet: only those need deleting. */
  private readonly stored = new Set<string>();

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
    const event: Held = {
      seq,
      json: message === null ? '' : JSON.stringify(message),
      last: options?.last === true,
      requestIds: options?.requestIds,
    };
    if (options?.deferred) {
      this.next.set(streamId, seq + 1);
      let held = this.held.get(streamId);
      if (!held) {
        if (this.held.size >= 100_000) {
          const oldest = this.held.keys().next().value;
          if (oldest !== undefined) this.flush(oldest);
        }
        this.held.set(streamId, (held = []));
      }
      held.push(event);
      // The priming event stays: it says which requests the stream answers.
      if (held.length > this.maxLen) held.splice(1, 1);
      return `${streamId}.${seq}`;
    }
    this.flush(streamId);
    if (options?.last) this.next.delete(streamId);
    else {
      if (seq === 0 && this.next.size >= 100_000) {
        const oldest = this.next.keys().next().value;
        if (oldest !== undefined) this.next.delete(oldest);
      }
      this.next.set(streamId, seq + 1);
    }
    this.write(streamId, [event]);
    return `${streamId}.${seq}`;
  }

  flush(streamId: string): void {
    const held = this.held.get(streamId);
    if (!held) return;
    this.held.delete(streamId);
    this.write(streamId, held);
  }

  /** Stores events (pipelined, not awaited) and publishes them to followers. */
  private write(streamId: string, events: readonly Held[]): void {
    if (this.stored.size >= 100_000) this.stored.clear(); // Forgotten ones expire by their TTL.
    this.stored.add(streamId);
    const key = `${this.prefix}ev:${streamId}`;
    const p = this.redis.pipeline();
    for (const e of events) {
      const fields: string[] = ['m', e.json];
      if (e.requestIds) fields.push('r', JSON.stringify(e.requestIds));
      if (e.last) fields.push('e', '1');
      p.xadd(key, 'MAXLEN', '~', this.maxLen, `0-${e.seq + 1}`, ...fields);
      if (e.json) p.publish(key, `${e.seq}\n${e.last ? 1 : 0}\n${e.json}`);
    }
    p.pexpire(key, this.ttlMs);
    p.exec().then(
      (results) => {
        if (results?.some(([err]) => err)) this.lost++;
      },
      () => this.lost++,
    );
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
    this.held.delete(streamId);
    // A stream whose client read it to the end was never written: nothing to delete.
    if (this.stored.delete(streamId)) this.redis.del(`${this.prefix}ev:${streamId}`).catch(() => undefined);
  }

  async follow(
    lastEventId: string,
    send: (eventId: string | undefined, message: JsonRpcMessage) => void,
    end: () => void,
  ): Promise<(() => void) | undefined> {
    const streamId = streamOfEventId(lastEventId);
    const parts = streamId === undefined ? undefined : partsOf(streamId);
    if (streamId === undefined || parts === undefined) return undefined;
    const writer = parts.writer;
    const after = parseSeq(lastEventId, streamId);
    if (after < 0) return undefined;
    const key = `${this.prefix}ev:${streamId}`;
    let seen = after;
    let requests: RequestId[] = parts.requestIds ?? [];
    let heard = false;
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
      heard = true;
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
    // A stream whose id does not carry its requests is stored from its priming event on:
    // not there means unknown. Otherwise its node may not have stored it yet (it does when
    // the client leaves), or may have stopped first.
    if (entries.length === 0 && !parts.requestIds) {
      stop();
      return undefined;
    }
    let quietChecks = 0;
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
          if ((await this.redis.exists(`${this.prefix}node:${writer}`)) === 1 || finished) {
            // Alive, and still nothing stored after a few checks: the stream ended before its
            // client left, so there is nothing to resume; close rather than wait forever.
            if (!heard && entries.length === 0 && ++quietChecks >= 3) finish();
            return;
          }
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
