import { ErrorCode, httpStatusForCode, serializeMessage } from '../../jsonrpc/index.js';
import { merged } from '../../jsonrpc/with-field.js';
import type {
  FrameInfo,
  JsonRpcMessage,
  JsonRpcRequest,
  Transport,
  TransportSink,
} from '../../jsonrpc/index.js';
import type { HttpExchange, ResponseStream } from './exchange.js';
import { checkModernHeaders } from './header-checks.js';
import type { ToolSchemas } from './header-checks.js';
import { refuse } from './refusals.js';
import { screenFrame } from './request-authorizer.js';
import { frameInfoOf, sendError } from './respond.js';
import type { McpConnector } from './respond.js';
import { SSE_HEADERS, SSE_KEEPALIVE, sseEvent } from './sse-format.js';

/** Headers for an error answer: a rate limit's `Retry-After`, from its `data.retryAfterMs`. */
function errorHeaders(error: { code: number; data?: unknown }): Record<string, string> | undefined {
  if (error.code !== ErrorCode.RateLimited) return undefined;
  const ms = (error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof ms === 'number' && ms > 0 ? { 'retry-after': String(Math.ceil(ms / 1000)) } : undefined;
}

/** No extra headers: shared, and known as such without looking inside. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The answer headers when the handler adds none: one shared object, not one per request. */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/**
 * The transport of one modern (2026-07-28) request: one POST, one answer. The answer is a
 * single JSON body when the response is the first thing the handler sends; as soon as a
 * notification comes first (progress, logs, a subscription's events) it becomes an SSE
 * stream. Closing the stream, from either side, is cancellation.
 */
export class ModernExchangeTransport implements Transport {
  readonly kind = 'http';
  private sink: TransportSink | undefined;
  private out: ResponseStream | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private done = false;

  constructor(
    private readonly exchange: HttpExchange,
    private readonly keepAliveMs: number,
    private readonly extraHeaders: Record<string, string>,
  ) {}

  start(sink: TransportSink): void {
    this.sink = sink;
  }

  get receiver(): TransportSink | undefined {
    return this.sink;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.done || Array.isArray(message)) return;
    const isResponse = !('method' in message);
    if (!this.out) {
      if (isResponse) {
        const status = 'error' in message ? httpStatusForCode(message.error.code) : 200;
        const more = 'error' in message ? errorHeaders(message.error) : undefined;
        const headers =
          more !== undefined
            ? { 'content-type': 'application/json', ...this.extraHeaders, ...more }
            : this.extraHeaders !== NO_HEADERS && hasKeys(this.extraHeaders)
              ? { 'content-type': 'application/json', ...this.extraHeaders }
              : JSON_HEADERS;
        this.exchange.respond(status, headers, serializeMessage(message));
        this.finish();
        return;
      }
      this.out = this.exchange.stream(200, merged(SSE_HEADERS, this.extraHeaders));
      this.keepAlive = setInterval(() => this.out?.write(SSE_KEEPALIVE), this.keepAliveMs);
      this.keepAlive.unref?.();
    }
    this.out.write(sseEvent(serializeMessage(message)));
    if (isResponse) {
      this.out.end();
      this.finish();
    }
  }

  private finish(): void {
    this.done = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.sink?.closed();
    this.sink = undefined;
  }

  /** Whether the exchange has been answered. */
  get answered(): boolean {
    return this.done;
  }

  async close(): Promise<void> {
    if (this.done) return;
    if (this.out) this.out.end();
    else this.exchange.respond(204, {});
    this.finish();
  }
}

function hasKeys(o: Record<string, string>): boolean {
  for (const _ in o) return true;
  return false;
}

/**
 * The modern (2026-07-28) half of the Streamable HTTP endpoint: one POST, one request, one
 * answer, nothing kept between requests.
 */
export class ModernEndpoint {
  /** Where the `Mcp-Param-*` checks find a tool's schema, chosen once. */
  private readonly toolSchemas: ToolSchemas | undefined;

  constructor(
    private readonly connector: McpConnector,
    private readonly keepAliveMs: number,
  ) {
    const lookup = connector.toolInputSchema?.bind(connector);
    const map = connector.toolInputSchemas;
    // The map holds the tools every caller sees; a hidden one is looked up with its caller.
    this.toolSchemas =
      map && lookup
        ? { get: (name, authInfo) => map.get(name) ?? lookup(name, authInfo) }
        : (map ?? (lookup ? { get: lookup } : undefined));
  }

  /**
   * Serves one modern request: its mirrored headers checked, its scopes decided, then run.
   * Synchronous unless an authorizer or a connection has to be waited for: an async function
   * here cost a promise and microtask jobs per request for nothing.
   */
  post(ex: HttpExchange, msg: JsonRpcRequest): void | Promise<void> {
    const refused = checkModernHeaders(msg, ex, this.toolSchemas);
    if (refused) return sendError(ex, 400, refused.code, refused.message, msg.id);
    // Scopes are decided only when an auth layer attached an authorizer (modern requests have
    // no mirrored legacy headers to screen).
    if (ex.authorizer) return this.screenThenRun(ex, msg);
    return this.run(ex, msg);
  }

  private async screenThenRun(ex: HttpExchange, msg: JsonRpcRequest): Promise<void> {
    const screened = screenFrame(ex, msg, this.connector, false);
    if (screened === true || (screened !== false && (await screened))) return;
    return this.run(ex, msg);
  }

  private run(ex: HttpExchange, msg: JsonRpcRequest): void | Promise<void> {
    const transport = new ModernExchangeTransport(ex, this.keepAliveMs, NO_HEADERS);
    const info = frameInfoOf(ex);
    // The client closing the stream is cancellation: closing the transport cancels the
    // handler. No AbortController per request: the handler's own signal is made only if it
    // asks for one.
    if (this.connector.serveRequest?.(transport, msg, info)) return ex.onClose(() => void transport.close());
    return this.connectThenRun(ex, msg, transport, info);
  }

  /** A request that needs a connection (a listen stream, a task) gets a session of its own. */
  private async connectThenRun(
    ex: HttpExchange,
    msg: JsonRpcRequest,
    transport: ModernExchangeTransport,
    info: FrameInfo,
  ): Promise<void> {
    await this.connector.connect(transport);
    const sink = transport.receiver;
    if (!sink) return refuse(ex, 'internal', undefined, msg.id);
    ex.onClose(() => void transport.close());
    sink.frame(msg, info);
  }
}
