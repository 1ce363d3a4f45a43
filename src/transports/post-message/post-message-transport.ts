import { LocalError, inspectValue } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, Transport, TransportSink } from '../../jsonrpc/index.js';

/** Something that can be posted to: a window (an iframe's `contentWindow`, `window.parent`) or a port. */
export type PostTarget = Window | MessagePort;

/** Where messages arrive: a window's or worker's global, or the port itself. */
export interface MessageSource {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface PostMessageTransportOptions {
  /** Where this end posts. */
  target: PostTarget;
  /**
   * The origin the target window must have for a message to be delivered
   * (`postMessage`'s `targetOrigin`). Required for a window target. `'*'` is for a peer whose
   * origin is opaque (a sandboxed iframe without `allow-same-origin`) and then needs
   * `allowedOrigins` to be given explicitly.
   */
  targetOrigin?: string;
  /**
   * Origins whose messages are accepted (`'null'` names an opaque origin, `'*'` any).
   * Default: `[targetOrigin]`. Ignored for a port, which has no origin.
   */
  allowedOrigins?: readonly string[];
  /**
   * Accept only messages whose `event.source` is this window. Default: the target when it
   * is a window, so a frame cannot speak for another one on the same origin. `null` turns
   * the check off.
   */
  expectedSource?: MessageEventSource | null;
  /** Where to listen. Default: the port itself, or `globalThis` for a window target. */
  listenOn?: MessageSource;
  /** Told about each message dropped by the origin or source checks (for audit logs). */
  onrejected?: (event: MessageEvent, reason: 'origin' | 'source') => void;
  /** A short name for diagnostics (default `postMessage`). */
  kind?: string;
}

function isPort(t: PostTarget): t is MessagePort {
  return typeof MessagePort !== 'undefined' && t instanceof MessagePort;
}

function looksLikeJsonRpc(data: unknown): boolean {
  if (Array.isArray(data)) return data.length > 0 && looksLikeJsonRpc(data[0]);
  return typeof data === 'object' && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/**
 * JSON-RPC over `window.postMessage` or a `MessagePort`, for MCP Apps and any other
 * browser peer (iframes, popups, workers). Messages travel as structured-clone objects,
 * which is what the Apps specification and the official SDKs post.
 *
 * Every inbound message is checked before the session sees it: its origin must be one of
 * `allowedOrigins` and its `event.source` the expected window. A window receives messages
 * from anyone (other frames, extensions), so what fails those checks, or is not JSON-RPC
 * at all, is dropped silently rather than answered.
 *
 * @example
 * ```ts
 * // In a host page: talk to an iframe served from https://sandbox.example.com.
 * const iframe = document.querySelector('iframe')!;
 * const transport = new PostMessageTransport({
 *   target: iframe.contentWindow!,
 *   targetOrigin: 'https://sandbox.example.com',
 * });
 * await session.connect(transport);
 * ```
 */
export class PostMessageTransport implements Transport {
  readonly kind: string;
  private readonly target: PostTarget;
  private readonly targetOrigin: string;
  private readonly allowed: ReadonlySet<string> | undefined;
  private readonly expectedSource: MessageEventSource | null;
  private readonly listenOn: MessageSource;
  private readonly onrejected: PostMessageTransportOptions['onrejected'];
  private sink: TransportSink | undefined;
  private closed = false;
  private readonly listener = (event: MessageEvent): void => this.onMessage(event);

  constructor(options: PostMessageTransportOptions) {
    this.target = options.target;
    this.kind = options.kind ?? 'postMessage';
    this.onrejected = options.onrejected;
    if (isPort(options.target)) {
      this.targetOrigin = '*';
      this.allowed = undefined;
      this.expectedSource = null;
      this.listenOn = options.listenOn ?? options.target;
      return;
    }
    const origin = options.targetOrigin;
    if (typeof origin !== 'string' || origin.length === 0) {
      throw new TypeError('PostMessageTransport needs a targetOrigin for a window target');
    }
    if (origin === '*' && !options.allowedOrigins) {
      throw new TypeError('PostMessageTransport with targetOrigin "*" needs explicit allowedOrigins');
    }
    this.targetOrigin = origin;
    const allowed = options.allowedOrigins ?? [origin];
    this.allowed = allowed.includes('*') ? undefined : new Set(allowed);
    this.expectedSource = options.expectedSource === undefined ? options.target : options.expectedSource;
    this.listenOn = options.listenOn ?? (globalThis as unknown as MessageSource);
  }

  start(sink: TransportSink): void {
    if (this.closed) throw new LocalError('ConnectionClosed', 'The postMessage transport is closed');
    this.sink = sink;
    this.listenOn.addEventListener('message', this.listener);
    if (isPort(this.target)) this.target.start();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed) {
      return Promise.reject(new LocalError('ConnectionClosed', 'The postMessage transport is closed'));
    }
    try {
      if (isPort(this.target)) this.target.postMessage(message);
      else this.target.postMessage(message, this.targetOrigin);
    } catch (e) {
      // A value structured clone cannot copy (a function, a symbol): nothing was sent.
      return Promise.reject(
        new LocalError('InvalidMessage', 'postMessage could not copy the message', { cause: e }),
      );
    }
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listenOn.removeEventListener('message', this.listener);
    if (isPort(this.target)) this.target.close();
    this.sink?.closed();
  }

  private onMessage(event: MessageEvent): void {
    if (this.closed || !this.sink) return;
    if (this.allowed && !this.allowed.has(event.origin)) {
      this.onrejected?.(event, 'origin');
      return;
    }
    if (this.expectedSource !== null && event.source !== this.expectedSource) {
      this.onrejected?.(event, 'source');
      return;
    }
    if (!looksLikeJsonRpc(event.data)) return;
    this.sink.frame(inspectValue(event.data));
  }
}
