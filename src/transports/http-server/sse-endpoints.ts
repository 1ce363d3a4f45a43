import { ErrorCode, InvalidMessage, parseFrame, serializeMessage } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';
import type { HttpExchange, ResponseStream } from './exchange.js';
import type { McpConnector } from './respond.js';
import { refuseNonJson, sendError } from './respond.js';
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

/**
 * The deprecated HTTP+SSE transport (2024-11-05), kept apart so it can be deleted one
 * day: `GET ssePath` opens a session and names its POST endpoint; `POST messagesPath`
 * carries the client's messages, answered on the stream.
 */
export class LegacySseEndpoints {
  private readonly connections = new Map<
    string,
    { transport: SseConnectionTransport; close(): Promise<void> }
  >();

  constructor(
    private readonly connector: McpConnector,
    private readonly paths: { ssePath: string; messagesPath: string },
    private readonly maxBody: number,
    private readonly keepAliveMs = 15_000,
  ) {}

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
    const id = crypto.randomUUID();
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
    if (!conn) return sendError(ex, 404, ErrorCode.InvalidRequest, 'Session not found');
    if (refuseNonJson(ex)) return;
    const body = await ex.readBody(this.maxBody);
    if (!body.ok) {
      if (body.reason === 'aborted') return;
      return sendError(
        ex,
        body.reason === 'too-large' ? 413 : 400,
        ErrorCode.InvalidRequest,
        'Unreadable body',
      );
    }
    const frame = parseFrame(body.text);
    if (frame instanceof InvalidMessage)
      return sendError(ex, 400, frame.error.code, frame.error.message, frame.id);
    ex.respond(202, { 'content-type': 'text/plain' }, 'Accepted');
    conn.transport.sink?.frame(frame);
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
