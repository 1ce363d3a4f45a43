/**
 * Test-only fixtures for the session tests: a raw JSON-RPC peer driven by hand over a
 * memory transport, session factories, and a logger that records instead of printing.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import assert from 'node:assert/strict';
import { InvalidMessage, ParsedBatch } from '../jsonrpc/index.js';
import type {
  JsonRpcMessage,
  ParsedFrame,
  RequestId,
  SendOptions,
  Transport,
  TransportSink,
} from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { memoryPair } from '../transports/memory/index.js';
import type { MemoryTransport } from '../transports/memory/index.js';
import { Session } from '../session/session.js';
import type { SessionLogger, SessionOptions } from '../session/session-types.js';
import { settle } from './waiting.js';

export type Obj = Record<string, unknown>;

/** A JSON-RPC message as a test sees it (loosely typed on purpose). */
export interface Msg {
  jsonrpc?: unknown;
  id?: RequestId | null;
  method?: string;
  params?: Obj;
  result?: Obj;
  error?: { code: number; message: string; data?: unknown };
  /** Set when the peer received something that failed the envelope checks. */
  invalid?: string;
}

export const CLIENT_INFO = Object.freeze({ name: 'test-client', version: '1.0.0' });
export const SERVER_INFO = Object.freeze({ name: 'test-server', version: '2.0.0' });
export const MODERN = '2026-07-28';

/** Resolves to 'pending' when a promise has not settled after the queue drains. */
export async function stateOf(p: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await settle(2);
  return state;
}

/**
 * The reason a promise rejected with, once the queue drains; fails (rather than hanging)
 * when it resolved or is still pending. For tests driven by fake timers.
 */
export async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  let outcome: { resolved: boolean; value: unknown } | undefined;
  p.then(
    (value) => (outcome = { resolved: true, value }),
    (value: unknown) => (outcome = { resolved: false, value }),
  );
  await settle(2);
  if (outcome === undefined) assert.fail('expected a rejection, but the promise is still pending');
  if (outcome.resolved) assert.fail(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  return outcome.value;
}

export interface LogEntry {
  level: string;
  message: string;
  detail: unknown;
}

export function recordingLogger(): { entries: LogEntry[]; logger: SessionLogger } {
  const entries: LogEntry[] = [];
  return { entries, logger: (level, message, detail) => entries.push({ level, message, detail }) };
}

function toMsg(item: JsonRpcMessage | InvalidMessage): Msg {
  if (item instanceof InvalidMessage) return { invalid: item.error.message, id: item.id };
  return item as unknown as Msg;
}

/**
 * The far end of a memory pair, driven by hand: everything it receives is recorded (a
 * batch as an array), and it can send objects or deliver raw text to the session.
 */
export class RawPeer {
  readonly received: Array<Msg | Msg[]> = [];
  closed = 0;

  constructor(readonly transport: MemoryTransport) {
    transport.start({
      frame: (frame: ParsedFrame) => {
        if (frame instanceof ParsedBatch) this.received.push(frame.items.map(toMsg));
        else this.received.push(toMsg(frame));
      },
      closed: () => {
        this.closed++;
      },
    });
  }

  /** Forgets everything received so far. */
  clear(): void {
    this.received.length = 0;
  }

  /** Single (non-batch) messages received so far. */
  get messages(): Msg[] {
    return this.received.filter((m): m is Msg => !Array.isArray(m));
  }

  send(message: Msg | Msg[]): Promise<void> {
    return this.transport.send(message as unknown as JsonRpcMessage);
  }

  /** Hands raw text to the session's transport, as if it came off a wire. */
  deliverText(text: string): void {
    assert.ok(this.transport.peer, 'raw peer has no partner');
    this.transport.peer.deliver(text);
  }

  notifications(method: string): Msg[] {
    return this.messages.filter((m) => m.method === method && m.id === undefined);
  }

  requests(method?: string): Msg[] {
    return this.messages.filter(
      (m) => m.method !== undefined && m.id !== undefined && (method === undefined || m.method === method),
    );
  }

  responsesTo(id: RequestId | null): Msg[] {
    return this.messages.filter((m) => m.method === undefined && m.id === id);
  }

  /** Waits (by draining the event loop, never by timers) until `find` returns something. */
  async waitFor<T>(find: () => T | undefined, what: string, turns = 200): Promise<T> {
    for (let i = 0; i < turns; i++) {
      const found = find();
      if (found !== undefined) return found;
      await settle(1);
    }
    throw new Error(`Timed out waiting for ${what}; received: ${JSON.stringify(this.received)}`);
  }

  response(id: RequestId | null): Promise<Msg> {
    return this.waitFor(() => this.responsesTo(id)[0], `a response to ${JSON.stringify(id)}`);
  }

  request(method: string): Promise<Msg> {
    return this.waitFor(() => this.requests(method)[0], `a ${method} request`);
  }

  notification(method: string): Promise<Msg> {
    return this.waitFor(() => this.notifications(method)[0], `a ${method} notification`);
  }

  batch(): Promise<Msg[]> {
    return this.waitFor(() => this.received.find((m) => Array.isArray(m)), 'a batch');
  }

  /** Sends a request and waits for its response. */
  async call(id: RequestId, method: string, params?: Obj): Promise<Msg> {
    const m: Msg =
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    await this.send(m);
    return this.response(id);
  }

  notify(method: string, params?: Obj): Promise<void> {
    return this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Answers a request the session sent. */
  reply(id: RequestId | null | undefined, result: Obj): Promise<void> {
    return this.send({ jsonrpc: '2.0', id: id as RequestId, result });
  }
}

type PartialOptions = Partial<SessionOptions>;

export function makeServer(options: PartialOptions = {}): { session: Session; logs: LogEntry[] } {
  const { entries, logger } = recordingLogger();
  const session = new Session({ role: 'server', info: { ...SERVER_INFO }, logger, ...options });
  return { session, logs: entries };
}

export function makeClient(options: PartialOptions = {}): { session: Session; logs: LogEntry[] } {
  const { entries, logger } = recordingLogger();
  const session = new Session({ role: 'client', info: { ...CLIENT_INFO }, logger, ...options });
  return { session, logs: entries };
}

/** A session (either role) connected to a raw peer. */
export async function withRawPeer(
  role: 'client' | 'server',
  options: PartialOptions = {},
): Promise<{ session: Session; peer: RawPeer; logs: LogEntry[]; transport: MemoryTransport }> {
  const [mine, theirs] = memoryPair();
  const { session, logs } = role === 'server' ? makeServer(options) : makeClient(options);
  await session.connect(mine);
  const peer = new RawPeer(theirs);
  return { session, peer, logs, transport: mine };
}

/** Sends a raw initialize (and, by default, notifications/initialized) and returns the answer. */
export async function rawInitialize(
  peer: RawPeer,
  options: {
    protocolVersion?: string;
    capabilities?: Obj;
    initialized?: boolean;
    id?: RequestId;
  } = {},
): Promise<Msg> {
  const id = options.id ?? 'init';
  const answer = await peer.call(id, 'initialize', {
    protocolVersion: options.protocolVersion ?? '2025-11-25',
    capabilities: options.capabilities ?? {},
    clientInfo: { ...CLIENT_INFO },
  });
  if (options.initialized !== false) {
    await peer.notify('notifications/initialized');
    await settle(1);
  }
  return answer;
}

/** A server session with a raw client that already went through initialize (received log cleared). */
export async function initializedServer(
  options: PartialOptions = {},
  init: { protocolVersion?: string; capabilities?: Obj } = {},
): Promise<{ session: Session; peer: RawPeer; logs: LogEntry[]; init: Msg }> {
  const r = await withRawPeer('server', options);
  const answer = await rawInitialize(r.peer, init);
  assert.equal(answer.error, undefined, `initialize failed: ${JSON.stringify(answer)}`);
  r.peer.clear();
  return { ...r, init: answer };
}

/** A client session with a raw server that answered initialize with `result` (received log cleared). */
export async function initializedClient(
  options: PartialOptions = {},
  result: Obj = {},
): Promise<{ session: Session; peer: RawPeer; logs: LogEntry[] }> {
  const r = await withRawPeer('client', options);
  const done = r.session.initialize();
  const req = await r.peer.request('initialize');
  await r.peer.reply(req.id, {
    protocolVersion: '2025-11-25',
    capabilities: {},
    serverInfo: { ...SERVER_INFO },
    ...result,
  });
  await done;
  await settle(1);
  r.peer.clear();
  return r;
}

/** Two real sessions over a memory pair. */
export async function sessionPair(
  server: PartialOptions = {},
  client: PartialOptions = {},
): Promise<{ server: Session; client: Session; serverLogs: LogEntry[]; clientLogs: LogEntry[] }> {
  const [c, s] = memoryPair();
  const srv = makeServer(server);
  const cli = makeClient(client);
  await srv.session.connect(s);
  await cli.session.connect(c);
  return { server: srv.session, client: cli.session, serverLogs: srv.logs, clientLogs: cli.logs };
}

/** The modern `_meta` a 2026-07-28 request carries, plus anything extra. */
export function modernMeta(extra: Obj = {}): Obj {
  return {
    [MetaKey.ProtocolVersion]: MODERN,
    [MetaKey.ClientCapabilities]: {},
    ...extra,
  };
}

/**
 * Wraps a transport so a test can reach the session's sink (to call `ended()`), make sends
 * fail, or offer `abortRequest`.
 */
export class WrappedTransport implements Transport {
  sink: TransportSink | undefined;
  sendError: Error | undefined;
  throwOnSend = false;
  abortRequest: ((id: RequestId) => boolean) | undefined;
  /** Everything the session sent, with the options it gave. */
  readonly sent: Array<{ message: unknown; options: SendOptions | undefined }> = [];

  constructor(readonly inner: Transport) {}

  start(sink: TransportSink): void | Promise<void> {
    this.sink = sink;
    return this.inner.start(sink);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void | Promise<void> {
    this.sent.push({ message, options });
    if (this.sendError) {
      if (this.throwOnSend) throw this.sendError;
      return Promise.reject(this.sendError);
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A session over a wrapped transport, with a raw peer on the other end. */
export async function wrappedWithRawPeer(
  role: 'client' | 'server',
  options: PartialOptions = {},
): Promise<{ session: Session; peer: RawPeer; logs: LogEntry[]; wrapped: WrappedTransport }> {
  const [mine, theirs] = memoryPair();
  const wrapped = new WrappedTransport(mine);
  const { session, logs } = role === 'server' ? makeServer(options) : makeClient(options);
  await session.connect(wrapped);
  const peer = new RawPeer(theirs);
  return { session, peer, logs, wrapped };
}

/** Marks a promise's rejection as handled (for requests a test fires and forgets). */
export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
