import { InvalidMessage, parseFrame, serializeMessage } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';
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

/**
 * The deprecated HTTP+SSE transport (2024-11-05), kept apart so it can be deleted one
 * day: `GET ssePath` opens a session and names its POST endpoint; `POST messagesPath`
 * carries the client's messages, answered on the stream.
 *
 * On a cluster (a {@link ClusterBus}) the stream lives on one node, but the client's POSTs
 * may reach any: the connection id names its node, and a POST that lands elsewhere is
 * forwarded there on the bus. It is answered 202 only once that node took the message, so
 * the client's messages keep their order, and 404 when the node no longer holds it.
 */
export class LegacySseEndpoints {
  private readonly connections = new Map<
    string,
    { transport: SseConnectionTransport; close(): Promise<void> }
  >();
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
    this.connections.set(id, { transport, close: () => connection.close() });
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
    const conn = this.connections.get(id);
    const holder = conn ? undefined : this.holderOf(id);
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
    const screened = screenFrame(ex, frame, this.connector, 'legacy');
    if (screened === true || (screened !== false && (await screened))) return;
    if (!conn) {
      if (!(await this.forward(holder!, id, body.text))) return refuse(ex, 'sessionNotFound');
      return ex.respond(202, { 'content-type': 'text/plain' }, 'Accepted');
    }
    ex.respond(202, { 'content-type': 'text/plain' }, 'Accepted');
    conn.transport.sink?.frame(frame);
  }

  /** The other node a connection id names, on a cluster; undefined when none. */
  private holderOf(id: string): string | undefined {
    if (!this.bus || id.length > 200) return undefined;
    const dot = id.indexOf('.');
    const node = dot > 0 ? id.slice(0, dot) : '';
    return node !== '' && node !== this.bus.nodeId ? node : undefined;
  }

  /** Sends a POST's body to the node holding the connection; true once that node took it. */
  private forward(node: string, id: string, text: string): Promise<boolean> {
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
      void bus.publish(node, { t: 'sse', c: id, m: text, r: bus.nodeId, k });
    });
  }

  private onClusterMessage(m: ClusterMessage): void {
    if (m.t === 'sse-ack') return this.acks.get(m.k)?.(m.ok);
    if (m.t !== 'sse') return;
    const conn = this.connections.get(m.c);
    const frame = conn ? parseFrame(m.m) : undefined;
    const ok = frame !== undefined && !(frame instanceof InvalidMessage);
    // Acknowledged before the session sees it, as a local POST is answered 202 first.
    void this.bus!.publish(m.r, { t: 'sse-ack', k: m.k, ok });
    if (ok) conn!.transport.sink?.frame(frame);
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const settle of [...this.acks.values()]) settle(false);
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
