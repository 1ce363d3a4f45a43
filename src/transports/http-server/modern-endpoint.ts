import type { FrameInfo, JsonRpcRequest } from '../../jsonrpc/index.js';
import type { HttpExchange } from './exchange.js';
import { checkModernHeaders } from './header-checks.js';
import { ModernExchangeTransport } from './modern-exchange.js';
import { refuse } from './refusals.js';
import { screenFrame } from './request-authorizer.js';
import { sendError } from './respond.js';
import type { McpConnector } from './respond.js';

/** The frame info of a request without auth details: nothing, shared. */
const NO_INFO: FrameInfo = Object.freeze({});

/**
 * The modern (2026-07-28) half of the Streamable HTTP endpoint: one POST, one request, one
 * answer, nothing kept between requests.
 */
export class ModernEndpoint {
  constructor(
    private readonly connector: McpConnector,
    private readonly keepAliveMs: number,
  ) {}

  /** Serves one modern request: its mirrored headers checked, its scopes decided, then run. */
  async post(ex: HttpExchange, msg: JsonRpcRequest): Promise<void> {
    const refused = checkModernHeaders(
      msg,
      (n) => ex.header(n),
      this.connector.toolInputSchema?.bind(this.connector),
    );
    if (refused) return sendError(ex, 400, refused.code, refused.message, msg.id);
    const screened = screenFrame(ex, msg, this.connector, 'modern');
    if (screened === true || (screened !== false && (await screened))) return;
    const transport = new ModernExchangeTransport(ex, this.keepAliveMs, {});
    await this.connector.connect(transport);
    const sink = transport.receiver;
    if (!sink) return refuse(ex, 'internal', undefined, msg.id);
    // The client closing the stream is cancellation: closing the transport closes this
    // request's session, which cancels the handler. No AbortController per request: the
    // handler's own signal is made only if it asks for one.
    ex.onClose(() => void transport.close());
    sink.frame(msg, ex.authInfo === undefined ? NO_INFO : { authInfo: ex.authInfo });
  }
}
