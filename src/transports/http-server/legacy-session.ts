import { InvalidMessage, ParsedBatch, serializeMessage } from '../../jsonrpc/index.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  ParsedFrame,
  RequestId,
  SendOptions,
  Transport,
  TransportSink,
} from '../../jsonrpc/index.js';
import { isAtLeast } from '../../protocol/versions.js';
import type { AppendOptions, EventStore } from './event-store.js';
import { encodeRequestIds } from './shared-state.js';
import type { FollowableEventStore } from './shared-state.js';
import { MemoryEventStore } from './event-store.js';
import type { ResponseStream } from './exchange.js';
import { SSE_KEEPALIVE, sseEvent, ssePriming } from './sse-format.js';

/** How a JSON-mode POST is answered. */
export interface JsonReply {
  /** Sends the complete JSON body; '' when the session closed before the answer. */
  body(text: string): void;
  /**
   * Turns the response into an SSE stream instead, because a message related to the
   * POST's requests (a server-to-client request, progress, a log) must go out before the
   * answer. Called at most once, before `body`.
   */
  stream(): ResponseStream;
}

/**
 * One POST's response channel. In SSE mode its messages carry event ids and survive a
 * dropped connection in the event store; in JSON mode the answers are collected and sent
 * as one body once every request of the POST is answered, unless a related message comes
 * first, which turns the POST into an SSE stream like those of SSE mode.
 */
class PostStream {
  readonly pending = new Set<RequestId>();
  out: ResponseStream | undefined;
  /** The answers collected so far, while the POST is still a JSON one. */
  json: JsonRpcMessage[] | undefined;
  done = false;
  /** Orders writes when the event store answers asynchronously. */
  chain: Promise<void> | undefined;
  /** Whether the revision allows a priming event and an early close (2025-11-25 on). */
  resumable = false;
  /** Whether the stream id carries its request ids (shared stores; see encodeRequestIds). */
  idsInId = false;

  constructor(
    readonly id: string,
    readonly reply: JsonReply | undefined,
  ) {}
}

/**
 * Whether a stream may open with a priming event (empty data) and be closed early for SSE
 * polling: 2025-11-25 made clients accept empty data; older clients fail on it, so, as the
 * official SDK does, they get neither.
 */
function allowsPriming(version: string | undefined): boolean {
  return version !== undefined && isAtLeast(version, '2025-11-25');
}

/** The version an initialize request asks for, the only one known before the session has one. */
function requestedVersion(frame: ParsedFrame): string | undefined {
  if (!('method' in frame) || frame.method !== 'initialize') return undefined;
  const v = (frame.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof v === 'string' ? v : undefined;
}

export interface LegacySessionOptions {
  eventStore?: EventStore;
  /** The `retry` hint (ms) sent with priming events. */
  retryMs?: number;
  /** Keep-alive comments on the standalone GET stream, in ms (default 15 s). */
  keepAliveMs?: number;
  /**
   * Set when other nodes share the session (see {@link SharedStores}): stream ids and the ids
   * of our requests to the client then carry this node's id, so any node can route a
   * resumption or an answer to where it belongs.
   */
  nodeId?: string;
  /** How long a finished stream whose client went away is kept for it to resume (default 60 s). */
  resumeWindowMs?: number;
}

/** The append options of a stream's events, shared rather than built per event. */
const LAST: AppendOptions = Object.freeze({ last: true });
const DEFERRED: AppendOptions = Object.freeze({ deferred: true });
const LAST_DEFERRED: AppendOptions = Object.freeze({ last: true, deferred: true });

/** The id prefix of requests replayed to rebuild a session; their answers go nowhere. */
const REPLAY_ID = '\u0000replay:';

/**
 * The server side of one legacy Streamable HTTP session, seen by the session engine as one
 * transport. It sends every message on exactly one stream: answers and related messages on
 * the POST that asked, everything else on the standalone GET stream.
 */
export class LegacySessionTransport implements Transport {
  readonly kind = 'http';
  private sink: TransportSink | undefined;
  private readonly streams = new Map<string, PostStream>();
  private readonly byRequest = new Map<RequestId, PostStream>();
  /** Streams resumed here that another node writes, and how to stop following each. */
  private readonly followers = new Map<{ out: ResponseStream }, () => void>();
  private standalone: ResponseStream | undefined;
  private readonly store: EventStore;
  /** Whether the store reads append options (the in-memory one has no use for them). */
  private readonly storeWantsDetails: boolean;
  /** What this session's stream ids start with (single node). */
  private readonly streamPrefix: string;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private controlsMemo: Readonly<Record<string, unknown>> | undefined;
  private sharedControlsMemo: Readonly<Record<string, unknown>> | undefined;
  private streamCounter = 0;
  private replayCounter = 0;
  closed = false;
  /** The negotiated version, learned from the initialize answer as it goes out. */
  version: string | undefined;
  lastActive = Date.now();
  onclosed: (() => void) | undefined;

  constructor(
    readonly sessionId: string,
    /** The `principalKey` of the client that opened it (`''` when anonymous): only it may use the session. */
    readonly principal: string,
    private readonly options: LegacySessionOptions = {},
  ) {
    this.store = options.eventStore ?? new MemoryEventStore(200, 100);
    this.storeWantsDetails = this.store.constructor !== MemoryEventStore;
    this.streamPrefix = sessionId.slice(0, 8);
  }

  start(sink: TransportSink): void {
    this.sink = sink;
  }

  /**
   * Rebuilds the session's state from recorded client messages (see {@link LegacySessionStore}):
   * each is handed to the session as if it had just arrived, and what it answers is dropped.
   */
  replay(ops: readonly string[]): void {
    for (const op of ops) {
      let msg: JsonRpcMessage;
      try {
        msg = JSON.parse(op) as JsonRpcMessage;
      } catch {
        continue;
      }
      if ('id' in msg && 'method' in msg) msg = { ...msg, id: `${REPLAY_ID}${this.replayCounter++}` };
      this.sink?.frame(msg, {});
    }
  }

  /** The id our session gave an outbound request, from the id the client echoes back; undefined when another node's. */
  ownRequestId(id: RequestId): RequestId | undefined {
    const node = this.options.nodeId;
    if (node === undefined || typeof id !== 'string') return id;
    const colon = id.lastIndexOf(':');
    if (colon < 0 || id.slice(0, colon) !== node) return undefined;
    const n = Number(id.slice(colon + 1));
    return Number.isSafeInteger(n) ? n : id;
  }

  /** An answer to one of this node's requests, with the id the session gave it; anything else as is. */
  private ownAnswer(m: JsonRpcMessage): JsonRpcMessage {
    if ('method' in m || !('id' in m) || m.id === null) return m;
    const own = this.ownRequestId(m.id);
    return own !== undefined && own !== m.id ? ({ ...m, id: own } as JsonRpcMessage) : m;
  }

  /** Hands a POST's frame to the session, answering on `out` (SSE) or through `reply` (JSON). */
  deliver(
    frame: ParsedFrame,
    requestIds: readonly RequestId[],
    info: FrameInfo,
    mode: { sse: ResponseStream } | { json: JsonReply },
  ): void {
    this.lastActive = Date.now();
    if (this.options.nodeId !== undefined) {
      // Answers carry our node-qualified request ids; the session knows its own numbers.
      if (frame instanceof ParsedBatch) {
        const given = frame.items;
        const items = given.map((m) => (m instanceof InvalidMessage ? m : this.ownAnswer(m)));
        if (items.some((m, i) => m !== given[i])) frame = new ParsedBatch(items);
      } else if (!(frame instanceof InvalidMessage)) {
        frame = this.ownAnswer(frame);
      }
    }
    if (requestIds.length > 0) {
      const counter = (this.streamCounter++).toString(36);
      // Shared: the stream id names its node and, when short enough, its requests, so the
      // priming event can stay in memory until the client leaves (see AppendOptions.deferred).
      const token = this.options.nodeId === undefined ? undefined : encodeRequestIds(requestIds);
      const stream = new PostStream(
        this.options.nodeId === undefined
          ? this.streamPrefix + counter
          : `${this.sessionId}~${this.options.nodeId}~${counter}${token === undefined ? '' : `~${token}`}`,
        'json' in mode ? mode.json : undefined,
      );
      stream.idsInId = token !== undefined;
      for (const id of requestIds) {
        stream.pending.add(id);
        this.byRequest.set(id, stream);
      }
      this.streams.set(stream.id, stream);
      stream.resumable = allowsPriming(this.version ?? requestedVersion(frame));
      if ('sse' in mode) {
        stream.out = mode.sse;
        this.prime(stream);
      } else {
        stream.json = [];
      }
      if (stream.resumable || this.options.nodeId !== undefined) {
        // Built field by field: a spread followed by a new key takes V8's slow path.
        const withMeta: FrameInfo = {
          transportMeta: stream.resumable ? this.controls : this.sharedControls,
        };
        if (info.authInfo !== undefined) withMeta.authInfo = info.authInfo;
        if (info.signal !== undefined) withMeta.signal = info.signal;
        if (info.remoteAddress !== undefined) withMeta.remoteAddress = info.remoteAddress;
        info = withMeta;
      }
    }
    this.sink?.frame(frame, info);
  }

  /**
   * What a request's handler may ask of this transport (`RequestContext.transportMeta`), one
   * object per session: `closeStream(requestId)` ends the request's SSE connection (SSE
   * polling), and with shared stores `sessionId` names the session. A closure per request
   * here kept each JSON-mode POST's whole exchange (request, response, socket state) reachable
   * long enough to be promoted, and the old generation then filled at 0.6 KB a call.
   */
  private get controls(): Readonly<Record<string, unknown>> {
    return (this.controlsMemo ??= Object.freeze({
      closeStream: (requestId: RequestId) => {
        const stream = this.byRequest.get(requestId);
        if (stream?.resumable) this.dropConnection(stream);
      },
      ...(this.options.nodeId !== undefined ? { sessionId: this.sessionId } : {}),
    }));
  }

  /** The controls of a stream without resumability: only the session's id (shared stores). */
  private get sharedControls(): Readonly<Record<string, unknown>> {
    return (this.sharedControlsMemo ??= Object.freeze({ sessionId: this.sessionId }));
  }

  /** The connection of a POST's SSE stream went away; its messages wait in the event store. */
  detach(out: ResponseStream): void {
    for (const s of this.streams.values()) if (s.out === out) this.lose(s);
    for (const [f, stop] of this.followers) if (f.out === out) stop();
    if (this.standalone === out) this.standalone = undefined;
  }

  /** Closes a POST stream's connection on purpose (SSE polling); the client resumes with GET. */
  private dropConnection(stream: PostStream): void {
    const out = stream.out;
    if (!out || stream.done) return;
    this.lose(stream);
    out.end();
  }

  /** A stream's client is gone: what was kept back for it must now be where any node can replay it. */
  private lose(stream: PostStream): void {
    stream.out = undefined;
    this.store.flush?.(stream.id);
  }

  /** Whether `lastEventId` names a stream of this session. */
  ownsEvent(lastEventId: string): boolean {
    const dot = lastEventId.lastIndexOf('.');
    if (dot <= 0) return false;
    const streamId = lastEventId.slice(0, dot);
    if (this.streams.has(streamId)) return true;
    return this.options.nodeId !== undefined && streamId.startsWith(`${this.sessionId}~`);
  }

  /** Whether requests are still being answered (the session is not idle). */
  get busy(): boolean {
    return this.byRequest.size > 0;
  }

  /** Requests received and not yet answered. */
  get inFlight(): number {
    return this.byRequest.size;
  }

  /** Whether a GET stream is already open. */
  get hasStandalone(): boolean {
    return this.standalone !== undefined && !this.standalone.ended;
  }

  /** Opens the standalone GET stream for server-initiated messages. */
  openStandalone(out: ResponseStream): void {
    this.standalone = out;
    this.keepAlive ??= setInterval(() => {
      if (this.standalone && !this.standalone.write(SSE_KEEPALIVE)) this.standalone = undefined;
    }, this.options.keepAliveMs ?? 15_000);
    this.keepAlive.unref?.();
  }

  /**
   * Resumes a stream after Last-Event-ID on this session only: replays what was stored,
   * then carries the stream's remaining messages live. False when the id is not ours.
   */
  async resume(lastEventId: string, out: ResponseStream): Promise<boolean> {
    const dot = lastEventId.lastIndexOf('.');
    const streamId = dot > 0 ? lastEventId.slice(0, dot) : '';
    const stream = this.streams.get(streamId);
    if (!stream) return this.follow(lastEventId, out);
    const found = await this.store.replayAfter(lastEventId, (id, message) => {
      out.write(sseEvent(serializeMessage(message), id));
    });
    if (found !== streamId) return false;
    if (stream.done) {
      out.end();
      this.forgetStream(stream);
    } else {
      stream.out = out;
    }
    return true;
  }

  /**
   * Resumes a stream that another node writes (or wrote), through a shared event store.
   * Its later events reach the client as they are stored, until its last one.
   */
  private async follow(lastEventId: string, out: ResponseStream): Promise<boolean> {
    const store = this.store as EventStore & Partial<FollowableEventStore>;
    if (this.options.nodeId === undefined || !store.follow) return false;
    const follower = { out };
    const stop = await store.follow(
      lastEventId,
      (id, message) => {
        if (!out.write(sseEvent(serializeMessage(message), id))) stopFollowing();
      },
      () => {
        this.followers.delete(follower);
        out.end();
      },
    );
    const stopFollowing = (): void => {
      this.followers.delete(follower);
      stop?.();
    };
    if (!stop) return false;
    if (out.ended) stop();
    else this.followers.set(follower, stopFollowing);
    return true;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> | void {
    if (this.closed) return;
    if (this.options.nodeId !== undefined && !Array.isArray(message)) {
      if ('id' in message && typeof message.id === 'string' && message.id.startsWith(REPLAY_ID)) {
        // The answer to a replayed message: nobody waits for it; only the version matters.
        if (this.version === undefined && 'result' in message) {
          const v = (message.result as { protocolVersion?: unknown }).protocolVersion;
          if (typeof v === 'string') this.version = v;
        }
        return;
      }
      // Our own requests carry the node's id, so whichever node the answer reaches can route it here.
      if ('method' in message && 'id' in message)
        message = { ...message, id: `${this.options.nodeId}:${message.id}` };
    }
    this.lastActive = Date.now();
    if (Array.isArray(message)) {
      // A batch answer: every item belongs to the same POST.
      const first = message.find((m) => 'id' in m && !('method' in m)) as { id: RequestId } | undefined;
      const stream = first ? this.byRequest.get(first.id) : undefined;
      if (stream) {
        for (const m of message) this.route(stream, m);
        return;
      }
      for (const m of message) void this.send(m, options);
      return;
    }
    const isResponse = !('method' in message);
    const related = isResponse ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const stream = related !== undefined ? this.byRequest.get(related) : undefined;
    if (stream) {
      // A JSON-mode POST cannot carry a message before its answer: it becomes an SSE stream.
      if (!isResponse && stream.json !== undefined) this.upgrade(stream);
      this.route(stream, message);
      return;
    }
    return this.sendStandalone(message);
  }

  /**
   * Turns a pending JSON-mode POST into an SSE stream, as SSE mode would have answered it:
   * a priming event, then any answers already collected (a batch), each with an event id.
   */
  private upgrade(stream: PostStream): void {
    const collected = stream.json!;
    stream.json = undefined;
    stream.out = stream.reply!.stream();
    this.prime(stream);
    for (const m of collected) this.publish(stream, m, false);
  }

  /**
   * Opens an SSE stream with its priming event where the revision allows one. The event
   * store is not awaited when it answers at once; otherwise later events wait on the chain.
   * The priming event records the stream's requests, so that a node following the stream
   * can answer them if the writing node dies.
   */
  private prime(stream: PostStream): void {
    if (!stream.resumable) return;
    // A stream whose id carries its requests (shared stores) may keep its priming event in
    // memory until its client leaves: see AppendOptions.deferred.
    let details: AppendOptions | undefined;
    if (this.storeWantsDetails) {
      const requestIds = [...stream.pending];
      details = stream.idsInId ? { requestIds, deferred: true } : { requestIds };
    }
    const primingId = this.store.append(stream.id, null, details);
    if (typeof primingId === 'string') {
      if (!stream.out!.write(ssePriming(primingId, this.options.retryMs))) stream.out = undefined;
    } else {
      stream.chain = primingId.then((id) => {
        if (stream.out && !stream.out.write(ssePriming(id, this.options.retryMs))) stream.out = undefined;
      });
    }
  }

  private route(stream: PostStream, message: JsonRpcMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== null) {
      stream.pending.delete(message.id);
      this.byRequest.delete(message.id);
      if (this.version === undefined && 'result' in message) {
        const v = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof v === 'string') this.version = v;
      }
    }
    const last = stream.pending.size === 0;
    if (last) stream.done = true;
    if (stream.json) {
      stream.json.push(message);
      if (last) {
        const body = stream.json.length === 1 ? stream.json[0]! : stream.json;
        stream.reply?.body(serializeMessage(body));
        this.streams.delete(stream.id);
      }
      return;
    }
    this.publish(stream, message, last);
  }

  /** Stores one message of an SSE stream and writes it, in order, once its event id is known. */
  private publish(stream: PostStream, message: JsonRpcMessage, last: boolean): void {
    const deferred = this.options.nodeId !== undefined && stream.out !== undefined;
    const id = this.store.append(
      stream.id,
      message,
      last ? (deferred ? LAST_DEFERRED : LAST) : deferred ? DEFERRED : undefined,
    );
    if (typeof id === 'string' && stream.chain === undefined) {
      this.emit(stream, message, id, last);
    } else {
      stream.chain = (stream.chain ?? Promise.resolve())
        .then(() => id)
        .then((eventId) => this.emit(stream, message, eventId, last));
    }
  }

  /** Writes one event; after the last one, ends the stream (or keeps it for a resuming client). */
  private emit(stream: PostStream, message: JsonRpcMessage, eventId: string, last: boolean): void {
    if (stream.out && !stream.out.write(sseEvent(serializeMessage(message), eventId))) this.lose(stream);
    if (last && stream.out) {
      stream.out.end();
      stream.out = undefined;
      this.forgetStream(stream);
    } else if (last && this.options.nodeId !== undefined) {
      // The shared store keeps the events for a client resuming on any node, this one included.
      this.streams.delete(stream.id);
    } else if (last) {
      // Its client went away: its events wait in the store for a bounded resume window only.
      const timer = setTimeout(() => {
        if (stream.out === undefined && this.streams.get(stream.id) === stream) this.forgetStream(stream);
      }, this.options.resumeWindowMs ?? 60_000);
      timer.unref?.();
    }
  }

  private forgetStream(stream: PostStream): void {
    this.streams.delete(stream.id);
    void this.store.drop(stream.id);
  }

  private async sendStandalone(message: JsonRpcMessage): Promise<void> {
    const out = this.standalone;
    if (!out) return; // No GET stream: the spec lets such messages go undelivered.
    if (!out.write(sseEvent(serializeMessage(message)))) this.standalone = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.standalone?.end();
    for (const [f, stop] of this.followers) {
      stop();
      f.out.end();
    }
    for (const s of this.streams.values()) {
      s.out?.end();
      void this.store.drop(s.id);
      if (s.json && !s.done) s.reply?.body('');
    }
    this.streams.clear();
    this.byRequest.clear();
    this.sink?.closed();
    this.onclosed?.();
  }
}
