import type { Params } from '../jsonrpc/index.js';
import { InterceptorChain } from './interceptors.js';
import type { InterceptedRequest, Interceptor } from './interceptors.js';
import type { SessionLogger } from './session-types.js';

type Direction = 'inbound' | 'outbound';

/**
 * The protocol's own handshake and cancellation never go through interceptors: refusing or
 * changing them would break the connection (or leave a request running), not police it.
 */
const DONE: Promise<unknown> = Promise.resolve();

const EXEMPT = new Set(['notifications/initialized', 'initialized', 'notifications/cancelled']);

/**
 * Runs one session's notifications, both ways, through its role's interceptors (the
 * `phases: ['notification']` ones), keeping their order per direction: once one waits on an
 * asynchronous interceptor, every later one queues behind it, so a progress stream is never
 * reordered. The list is the server's or client's own, read live (interceptors added later count).
 */
export class NotificationGate {
  private chain: InterceptorChain<InterceptedRequest> | undefined;
  private builtFor = 0;
  private inboundTail: Promise<void> | undefined;
  private outboundTail: Promise<void> | undefined;
  private inboundQueued = 0;
  private outboundQueued = 0;

  constructor(
    /** Checked by callers (`list.length === 0` means no gate work at all). */
    readonly list: readonly Interceptor<InterceptedRequest>[],
    private readonly side: 'server' | 'client',
    private readonly logger: SessionLogger,
  ) {}

  /**
   * Takes the notification when an interceptor sees it (or others wait before it): returns
   * the delivery's promise (its `deliver` result, or resolved when refused); `undefined`
   * means deliver it directly. Synchronous interceptors deliver before this returns.
   */
  pass(
    direction: Direction,
    method: string,
    params: Params,
    deliver: (params: Params) => unknown,
  ): Promise<unknown> | undefined {
    if (EXEMPT.has(method)) return undefined;
    const chain = this.current();
    const queued = direction === 'inbound' ? this.inboundQueued : this.outboundQueued;
    if (queued === 0 && !chain.interceptsNotification(method)) return undefined;
    let sent: unknown;
    const n = { method, params, direction };
    const run = (): Promise<void> | undefined =>
      chain.runNotification(n, (changed) => {
        sent = deliver(changed);
      });
    const prev = direction === 'inbound' ? this.inboundTail : this.outboundTail;
    let p: Promise<void> | undefined;
    if (prev) p = prev.then(run);
    else {
      try {
        p = run();
      } catch (e) {
        return Promise.reject(e);
      }
      if (p === undefined) return sent instanceof Promise ? sent : DONE;
    }
    // Asynchronous from here: later notifications of this direction queue behind this one.
    const tail: Promise<void> = p.then(
      () => this.settled(direction, tail),
      () => this.settled(direction, tail),
    );
    if (direction === 'inbound') {
      this.inboundQueued++;
      this.inboundTail = tail;
    } else {
      this.outboundQueued++;
      this.outboundTail = tail;
    }
    return p.then(() => sent);
  }

  /** Whether inbound notifications wait on an asynchronous interceptor. */
  get inboundWaiting(): boolean {
    return this.inboundQueued !== 0;
  }

  /** Runs `then` once the inbound notifications queued so far went through. */
  afterInbound(then: () => void): void {
    void this.inboundTail!.then(then);
  }

  private settled(direction: Direction, tail: Promise<void>): void {
    if (direction === 'inbound') {
      if (--this.inboundQueued === 0 && this.inboundTail === tail) this.inboundTail = undefined;
    } else if (--this.outboundQueued === 0 && this.outboundTail === tail) this.outboundTail = undefined;
  }

  private current(): InterceptorChain<InterceptedRequest> {
    // The list only grows (use()), so its length tells whether the chain is stale.
    if (!this.chain || this.builtFor !== this.list.length) {
      this.chain = new InterceptorChain(this.list, {
        side: this.side,
        reentrant: false,
        logger: this.logger,
      });
      this.builtFor = this.list.length;
    }
    return this.chain;
  }
}
