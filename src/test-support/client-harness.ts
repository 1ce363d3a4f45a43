/**
 * Test-only fixtures for the client tests: a hand-built server made from a raw server
 * `Session` that serves both eras over a memory pair, and a raw peer for feeding the
 * client malformed or hostile answers.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { WireError, serializeMessage } from '../jsonrpc/index.js';
import type { JsonRpcMessage, Params, RequestId } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { Session } from '../session/index.js';
import type { RequestContext } from '../session/request-context.js';
import type { RequestHandler, SessionLogger } from '../session/index.js';
import { memoryPair } from '../transports/memory/index.js';
import type { MemoryTransport } from '../transports/memory/index.js';
import { Client } from '../client/client.js';
import type { ClientOptions } from '../client/types.js';
import { delay } from './waiting.js';

export type Obj = Record<string, unknown>;

export const MODERN = '2026-07-28';
export const CLIENT_INFO = Object.freeze({ name: 'test-client', version: '1.0.0' });
export const SERVER_INFO = Object.freeze({ name: 'test-server', version: '2.0.0' });

export const quiet: SessionLogger = () => undefined;

/**
 * Keeps the event loop alive until the returned function is called. Pending-request
 * timers are unref'd, so a test waiting only on a timeout over a memory pair needs this.
 */
export function keepAlive(): () => void {
  const t = setInterval(() => undefined, 60_000);
  return () => clearInterval(t);
}

/** Collects an async iterable (Array.fromAsync is not in Node 20). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

export function text(t: string): Obj {
  return { content: [{ type: 'text', text: t }] };
}

export const SUM_SCHEMA = {
  type: 'object',
  properties: { sum: { type: 'number' } },
  required: ['sum'],
};

export const ELICIT_FORM = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    },
    required: [],
  },
};

export const SAMPLE = {
  messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }],
  maxTokens: 10,
};

const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { name: 'add', inputSchema: { type: 'object' }, outputSchema: SUM_SCHEMA },
  { name: 'bad-structured', inputSchema: { type: 'object' }, outputSchema: SUM_SCHEMA },
  { name: 'fail', inputSchema: { type: 'object' }, outputSchema: SUM_SCHEMA },
  { name: 'slow', inputSchema: { type: 'object' } },
  { name: 'progress', inputSchema: { type: 'object' } },
  { name: 'ask', inputSchema: { type: 'object' } },
  { name: 'sample', inputSchema: { type: 'object' } },
  { name: 'roots', inputSchema: { type: 'object' } },
];
const PAGE = 4;

/**
 * Asks the client for one input in whichever way the era calls for: a server-to-client
 * request (legacy), or an `input_required` answer followed by a retry (modern). Returns
 * the client's answer, or the interim result the handler must return.
 */
export async function needInput(
  params: Params,
  ctx: RequestContext,
  key: string,
  method: string,
  reqParams: Obj,
  state = `state-${key}`,
): Promise<{ answer: Obj } | { interim: Obj }> {
  if (ctx.era === 'legacy') return { answer: await ctx.request(method, reqParams) };
  const responses = params.inputResponses as Obj | undefined;
  const answer = responses?.[key] as Obj | undefined;
  if (!answer) {
    return {
      interim: {
        resultType: 'input_required',
        inputRequests: { [key]: { method, params: reqParams } },
        requestState: state,
      },
    };
  }
  if (params.requestState !== state)
    throw WireError.invalidParams(`bad requestState ${String(params.requestState)}`);
  return { answer };
}

export interface TestServer {
  session: Session;
  /** Every message the server received, as it arrived on the wire. */
  wire: Obj[];
  /** Every request its handlers saw (built-ins such as server/discover are in `wire` only). */
  requests: Array<{ method: string; params: Obj; id: RequestId }>;
  /** Open `subscriptions/listen` requests, by id. */
  listens: Map<RequestId, { ctx: RequestContext; end: (result: Obj) => void }>;
  /** Legacy resource subscriptions. */
  subscribed: Set<string>;
  handle(method: string, handler: RequestHandler): void;
  /** Sends a change notification on every open listen stream (modern). */
  broadcast(method: string, params?: Obj): void;
}

export interface TestServerOptions {
  capabilities?: Obj;
  instructions?: string;
  versions?: readonly string[];
}

/** A server Session with tools, resources, prompts, completions and subscriptions. */
export function createTestServer(options: TestServerOptions = {}): TestServer {
  const session = new Session({
    role: 'server',
    info: SERVER_INFO,
    capabilities: options.capabilities ?? {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    },
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(options.versions ? { versions: options.versions } : {}),
    logger: quiet,
  });
  const server: TestServer = {
    session,
    wire: [],
    requests: [],
    listens: new Map(),
    subscribed: new Set(),
    handle(method, handler) {
      session.setRequestHandler(method, (params, ctx) => {
        server.requests.push({ method, params, id: ctx.requestId });
        return handler(params, ctx);
      });
    },
    broadcast(method, params = {}) {
      for (const [id, l] of server.listens) {
        l.ctx.notify(method, { ...params, _meta: { [MetaKey.SubscriptionId]: id } });
      }
    },
  };
  server.handle('tools/list', (params) => {
    const start = typeof params.cursor === 'string' ? Number(params.cursor) : 0;
    const page = TOOLS.slice(start, start + PAGE);
    const next = start + PAGE < TOOLS.length ? { nextCursor: String(start + PAGE) } : {};
    return { tools: page, ...next };
  });
  server.handle('tools/call', async (params, ctx) => {
    const args = (params.arguments ?? {}) as Obj;
    switch (params.name) {
      case 'echo':
        return text(String(args.text));
      case 'add':
        return { ...text('sum'), structuredContent: { sum: Number(args.a) + Number(args.b) } };
      case 'bad-structured':
        return { ...text('oops'), structuredContent: { sum: 'not a number' } };
      case 'fail':
        return { ...text('failed'), isError: true, structuredContent: { nope: true } };
      case 'slow':
        return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(text('late'))));
      case 'progress': {
        const steps = Number(args.steps ?? 3);
        for (let i = 1; i <= steps; i++) {
          // Pacing, the subject: a slow tool (tests that race it against a timeout mock the clock).
          await delay(Number(args.stepMs ?? 5));
          ctx.progress(i, steps, `step ${i}`);
        }
        return text('done');
      }
      case 'ask': {
        const r = await needInput(params, ctx, 'who', 'elicitation/create', ELICIT_FORM);
        return 'interim' in r ? r.interim : text(JSON.stringify(r.answer));
      }
      case 'sample': {
        const r = await needInput(params, ctx, 'llm', 'sampling/createMessage', SAMPLE);
        return 'interim' in r ? r.interim : text(JSON.stringify(r.answer));
      }
      case 'roots': {
        const r = await needInput(params, ctx, 'roots', 'roots/list', {});
        return 'interim' in r ? r.interim : text(JSON.stringify(r.answer));
      }
      default:
        throw WireError.invalidParams(`Unknown tool: ${String(params.name)}`);
    }
  });
  server.handle('resources/list', () => ({
    resources: [
      { uri: 'test://a', name: 'a' },
      { uri: 'test://b', name: 'b' },
    ],
    ttlMs: 60_000,
    cacheScope: 'public',
  }));
  server.handle('resources/templates/list', () => ({
    resourceTemplates: [{ uriTemplate: 'test://item/{id}', name: 'item' }],
  }));
  let reads = 0;
  server.handle('resources/read', (params) => {
    reads++;
    return {
      contents: [{ uri: params.uri, mimeType: 'text/plain', text: `read ${String(params.uri)} #${reads}` }],
      ttlMs: 60_000,
      cacheScope: 'private',
    };
  });
  server.handle('resources/subscribe', (params) => {
    server.subscribed.add(String(params.uri));
    return {};
  });
  server.handle('resources/unsubscribe', (params) => {
    server.subscribed.delete(String(params.uri));
    return {};
  });
  server.handle('prompts/list', () => ({
    prompts: [{ name: 'greet', arguments: [{ name: 'who' }] }],
  }));
  server.handle('prompts/get', (params) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Hello ${String((params.arguments as Obj | undefined)?.who)}`,
        },
      },
    ],
  }));
  server.handle('completion/complete', (params) => ({
    completion: { values: [`${String((params.argument as Obj).value)}-done`], total: 1 },
  }));
  server.handle('subscriptions/listen', (params, ctx) => {
    const id = ctx.requestId;
    return new Promise<Obj>((resolve) => {
      const end = (result: Obj): void => {
        server.listens.delete(id);
        resolve(result);
      };
      server.listens.set(id, { ctx, end });
      ctx.signal.addEventListener('abort', () => end({}));
      ctx.notify('notifications/subscriptions/acknowledged', {
        _meta: { [MetaKey.SubscriptionId]: id },
        notifications: params.notifications as Obj,
      });
    });
  });
  return server;
}

/** A client and a test server, connected over a memory pair. */
export async function connectedPair(
  clientOptions: ClientOptions = {},
  server: TestServer = createTestServer(),
): Promise<{ client: Client; server: TestServer; clientSide: MemoryTransport }> {
  const [clientSide, serverSide] = memoryPair();
  const deliver = serverSide.deliver.bind(serverSide);
  serverSide.deliver = (raw: string) => {
    server.wire.push(JSON.parse(raw) as Obj);
    deliver(raw);
  };
  await server.session.connect(serverSide);
  const client = new Client(CLIENT_INFO, clientOptions);
  await client.connect(clientSide);
  return { client, server, clientSide };
}

/**
 * A hand-driven server end of a memory pair: `onMessage` sees every message the client
 * sends, and may answer with an object, a raw string (sent unparsed), or nothing.
 */
export function rawServer(
  onMessage: (msg: Obj, peer: { send(msg: Obj | string): void }) => void,
): MemoryTransport {
  const [clientSide, serverSide] = memoryPair();
  const peer = {
    send(msg: Obj | string): void {
      const textOut = typeof msg === 'string' ? msg : serializeMessage(msg as unknown as JsonRpcMessage);
      queueMicrotask(() => clientSide.deliver(textOut));
    },
  };
  serverSide.start({
    frame: (frame) => onMessage(frame as unknown as Obj, peer),
    closed: () => undefined,
  });
  return clientSide;
}

/** A raw server that speaks the legacy handshake and hands every other request to `onRequest`. */
export function rawLegacyServer(
  onRequest: (msg: Obj, peer: { send(msg: Obj | string): void }) => void,
  capabilities: Obj = { tools: {}, resources: {}, prompts: {}, completions: {} },
): MemoryTransport {
  return rawServer((msg, peer) => {
    if (msg.method === 'initialize') {
      peer.send({
        jsonrpc: '2.0',
        id: msg.id,
        result: { protocolVersion: '2025-11-25', capabilities, serverInfo: SERVER_INFO },
      });
      return;
    }
    if (msg.method === 'server/discover') {
      peer.send({
        jsonrpc: '2.0',
        id: msg.id,
        error: { code: -32601, message: 'Method not found' },
      });
      return;
    }
    if ('id' in msg && 'method' in msg) onRequest(msg, peer);
  });
}
