import { InvalidMessage, parseFrame, serializeMessage } from '../../jsonrpc/index.js';
import type { FrameInfo, JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';
import { principalKey } from '../../protocol/principal.js';
import type { HttpExchange, ResponseStream } from './exchange.js';
import type { McpConnector } from './respond.js';
import type { ClusterBus, ClusterMessage } from './shared-state.js';
import { refuse, refuseNonJson } from './refusals.js';
import { screenFrame } from './request-authorizer.js';
import { sendError } from './respond.js';
import { SSE_HEADERS, SSE_KEEPALIVE, sseEvent } from './sse-format.js';

/**
 * A 405 with no JSON-RPC body: a Streamable HTTP client that POSTs `initialize` to the SSE
 * URL reads it as "an HTTP+SSE server" and falls back to GET, as the spec tells it to.
 */
function notAllowed(ex: HttpExchange, allow: string): void {
  ex.respond(405, { allow, 'content-type': 'text/plain' }, 'Method Not Allowed');
}

/** One 2024-11-05 HTTP+SSE connection: every server message goes on its one SSE stream. */
class SseConnectionTransport implements Transport {
  readonly kind = 'sse';
  sink: TransportSink | undefined;
  private closed = false;
  private readonly keepAlive: ReturnType<typeof setInterval>;

  constructor(
    private readonly out: ResponseStream,
    keepAliveMs: number,
  ) {
    this.keepAlive = setInterval(() => out.write(SSE_KEEPALIVE), keepAliveMs);
    this.keepAlive.unref?.();
  }

  start(sink: TransportSink): void {
    this.sink = sink;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!this.closed) this.out.write(sseEvent(serializeMessage(message)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.out.end();
    this.sink?.closed();
  }
}

/** How long a node waits for the node holding an HTTP+SSE connection to take a forwarded POST. */
const FORWARD_TIMEOUT_MS = 5000;

/** One open HTTP+SSE connection, bound to the principal that opened it. */
interface SseConnection {
  transport: SseConnectionTransport;
  /** The `principalKey` of the `GET` that opened it (`''` when anonymous): only it may post. */
  principal: string;
  close(): Promise<void>;
}

const NO_INFO: FrameInfo = Object.freeze({});

/** The frame info of a POST's messages: its authInfo, as on the Streamable endpoint. */
function infoOf(authInfo: unknown): FrameInfo {
  return authInfo === undefined ? NO_INFO : { authInfo };
}

/**
 * The deprecated HTTP+SSE transport (2024-11-05), kept apart so it can be deleted one
 * day: `GET ssePath` opens a session and names its POST endpoint; `POST messagesPath`
 * carries the client's messages, answered on the stream.
 *
 * On a cluster (a {@link ClusterBus}) the stream lives on one node, but the client's POSTs
 * may reach any: the connection id names its node, and a POST that lands elsewhere is
 * forwarded there on the bus. It is answered 202 only once that node took the message, so
 * the client's messages keep their order, and 404 when the node no longer holds it.
 *
 * A connection belongs to the principal that opened it: a POST from anyone else gets the same
 * 404 as an unknown id, on whichever node it lands, and every message reaches the session
 * with the authInfo of the POST that carried it.
 */
export class LegacySseEndpoints {
  private readonly connections = new Map<string, SseConnection>();
  private readonly acks = new Map<number, (ok: boolean) => void>();
  private nextAck = 1;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    private readonly connector: McpConnector,
    private readonly paths: { ssePath: string; messagesPath: string },
    private readonly maxBody: number,
    private readonly keepAliveMs = 15_000,
    private readonly bus?: ClusterBus,
  ) {
    this.unsubscribe = bus?.subscribe((m) => this.onClusterMessage(m));
  }

  /** True when the exchange was one of ours. */
  async handle(ex: HttpExchange): Promise<boolean> {
    if (ex.path === this.paths.ssePath) {
      if (ex.method === 'GET') await this.open(ex);
      else notAllowed(ex, 'GET');
      return true;
    }
    if (ex.path === this.paths.messagesPath) {
      if (ex.method === 'POST') await this.message(ex);
      else notAllowed(ex, 'POST');
      return true;
    }
    return false;
  }

  private async open(ex: HttpExchange): Promise<void> {
    const id = this.bus ? `${this.bus.nodeId}.${crypto.randomUUID()}` : crypto.randomUUID();
    const out = ex.stream(200, { ...SSE_HEADERS });
    const transport = new SseConnectionTransport(out, this.keepAliveMs);
    const connection = await this.connector.connect(transport);
    this.connections.set(id, {
      transport,
      principal: principalKey(ex.authInfo),
      close: () => connection.close(),
    });
    ex.closed.addEventListener(
      'abort',
      () => {
        this.connections.delete(id);
        void connection.close();
      },
      { once: true },
    );
    out.write(`event: endpoint\ndata: ${this.paths.messagesPath}?sessionId=${id}\n\n`);
  }

  private async message(ex: HttpExchange): Promise<void> {
    const id = new URLSearchParams(ex.query).get('sessionId') ?? '';
    const principal = principalKey(ex.authInfo);
    const held = this.connections.get(id);
    // Another principal's connection is answered as an unknown one: no oracle for live ids.
    const conn = held?.principal === principal ? held : undefined;
    const holder = held ? undefined : this.holderOf(id);
    if (!conn && holder === undefined) return refuse(ex, 'sessionNotFound');
    if (refuseNonJson(ex)) return;
    const body = await ex.readBody(this.maxBody);
    if (!body.ok) {
      if (body.reason === 'aborted') return;
      return refuse(ex, body.reason === 'too-large' ? 'unreadableLargeBody' : 'unreadableBody');
    }
    const frame = parseFrame(body.text);
    if (frame instanceof InvalidMessage)
      return sendError(ex, 400, frame.error.code, frame.error.message, frame.id);
    const screened = screenFrame(ex, frame, this.connector, true);
    if (screened === true || (screened !== false && (await screened))) return;
    if (!conn) {
      if (!(await this.forward(holder!, id, body.text, principal, ex.authInfo)))
        return refuse(ex, 'sessionNotFound');
      return ex.respond(202, { 'content-type': 'text/plain' }, 'Accepted');
    }
    ex.respond(202, { 'content-type': 'text/plain' }, 'Accepted');
    conn.transport.sink?.frame(frame, infoOf(ex.authInfo));
  }

  /** The other node a connection id names, on a cluster; undefined when none. */
  private holderOf(id: string): string | undefined {
    if (!this.bus || id.length > 200) return undefined;
    const dot = id.indexOf('.');
    const node = dot > 0 ? id.slice(0, dot) : '';
    return node !== '' && node !== this.bus.nodeId ? node : undefined;
  }

  /**
   * Sends a POST's body, its principal and its authInfo to the node holding the connection;
   * true once that node took it (false when it holds no such connection of that principal).
   */
  private forward(
    node: string,
    id: string,
    text: string,
    principal: string,
    authInfo: unknown,
  ): Promise<boolean> {
    const bus = this.bus!;
    const k = this.nextAck++;
    return new Promise<boolean>((resolve) => {
      // A node that died never answers: its client's stream is gone with it, so 404.
      const timer = setTimeout(() => settle(false), FORWARD_TIMEOUT_MS);
      const settle = (ok: boolean): void => {
        clearTimeout(timer);
        this.acks.delete(k);
        resolve(ok);
      };
      this.acks.set(k, settle);
      const message: Extract<ClusterMessage, { t: 'sse' }> = {
        t: 'sse',
        c: id,
        m: text,
        r: bus.nodeId,
        k,
        p: principal,
      };
      if (authInfo !== undefined) message.a = authInfo;
      void bus.publish(node, message);
    });
  }

  private onClusterMessage(m: ClusterMessage): void {
    if (m.t === 'sse-ack') return this.acks.get(m.k)?.(m.ok);
    if (m.t !== 'sse') return;
    const conn = this.connections.get(m.c);
    // The holder checks the binding itself, and that the authInfo the session will see is
    // that principal's: the bus is internal, but a node's mistake must not cross principals.
    const bound = conn !== undefined && conn.principal === m.p && principalKey(m.a) === m.p;
    const frame = bound ? parseFrame(m.m) : undefined;
    const ok = frame !== undefined && !(frame instanceof InvalidMessage);
    // Acknowledged before the session sees it, as a local POST is answered 202 first.
    void this.bus!.publish(m.r, { t: 'sse-ack', k: m.k, ok });
    if (ok) conn!.transport.sink?.frame(frame, infoOf(m.a));
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const settle of [...this.acks.values()]) settle(false);
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
