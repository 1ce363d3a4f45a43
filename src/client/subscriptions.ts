/**
 * Change subscriptions with one API for both eras. Legacy: `resources/subscribe` and
 * `resources/unsubscribe` per URI, plus the list_changed notifications that arrive
 * anyway. Modern: one long-lived `subscriptions/listen` request per subscription, named
 * by its JSON-RPC id, re-sent with backoff when the stream ends without the client
 * closing it.
 */
import { LocalError } from '../jsonrpc/index.js';
import type { JsonRpcNotification, Params, RequestId } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../protocol/types/index.js';
import type { Session } from '../session/session.js';
import type { ClientEra } from './client-era.js';
import { Subscription, eventOf, filterOf, wants } from './subscription.js';
import type { TransportTap } from './transport-tap.js';
import type { ResubscribeOptions, SubscribeOptions } from './types.js';
import { isObject } from '../jsonrpc/is-object.js';

/** A listen request has no timeout of its own: it lives as long as the subscription. */
const FOREVER_MS = 2 ** 31 - 1;
/** Re-listen attempts after a stream ends, and their backoff (doubling from the base). */
export const DEFAULT_RESUBSCRIBE: Required<ResubscribeOptions> = {
  attempts: 5,
  baseDelayMs: 100,
  maxDelayMs: 5000,
};

/** What a subscription needs from the client. */
export interface SubscriptionHost {
  readonly session: Session;
  readonly tap: TransportTap;
  readonly timeoutMs: number;
  readonly resubscribe: Required<ResubscribeOptions>;
  /** The connection's era strategy (chosen before anything subscribes). */
  era(): ClientEra;
  /** Adds per-request `_meta` (the modern log level). */
  withMeta(params: Params): Params;
}

/** Routes change notifications to subscriptions and manages their wire side. */
export class SubscriptionHub {
  private readonly live = new Set<Subscription>();
  private readonly byId = new Map<RequestId, Subscription>();
  /** Legacy: how many subscriptions watch each URI. */
  private readonly uriCounts = new Map<string, number>();
  private shutdown = false;

  constructor(private readonly host: SubscriptionHost) {}

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.shutdown) throw new LocalError('ConnectionClosed', 'The client is closed');
    const filter = filterOf(options);
    const sub = new Subscription(this.host.era(), filter, this);
    if (sub.strategy.subscribesByListen) {
      this.live.add(sub);
      try {
        await this.listen(sub, options.signal, options.timeoutMs ?? this.host.timeoutMs);
      } catch (e) {
        this.forget(sub);
        sub.queue.end();
        throw e;
      }
      return sub;
    }
    await this.subscribeLegacy(sub, filter, options);
    this.live.add(sub);
    return sub;
  }

  private async subscribeLegacy(
    sub: Subscription,
    filter: SubscriptionFilter,
    options: SubscribeOptions,
  ): Promise<void> {
    const session = this.host.session;
    const caps = session.peerCapabilities ?? {};
    const listChanged = (k: string): boolean =>
      isObject(caps[k]) && (caps[k] as { listChanged?: unknown }).listChanged === true;
    const uris = filter.resourceSubscriptions ?? [];
    const done: string[] = [];
    try {
      for (const uri of uris) {
        const n = this.uriCounts.get(uri) ?? 0;
        if (n === 0) {
          const opts = {
            timeoutMs: options.timeoutMs ?? this.host.timeoutMs,
            ...(options.signal ? { signal: options.signal } : {}),
          };
          await session.request('resources/subscribe', this.host.withMeta({ uri }), opts);
        }
        this.uriCounts.set(uri, n + 1);
        done.push(uri);
      }
    } catch (e) {
      await this.unwatch(done);
      throw e;
    }
    const ack: SubscriptionFilter = {};
    if (filter.toolsListChanged && listChanged('tools')) ack.toolsListChanged = true;
    if (filter.promptsListChanged && listChanged('prompts')) ack.promptsListChanged = true;
    if (filter.resourcesListChanged && listChanged('resources')) ack.resourcesListChanged = true;
    if (uris.length > 0) ack.resourceSubscriptions = [...uris];
    sub.acknowledged = ack;
  }

  private async unwatch(uris: readonly string[]): Promise<void> {
    const session = this.host.session;
    for (const uri of uris) {
      const n = (this.uriCounts.get(uri) ?? 1) - 1;
      if (n > 0) {
        this.uriCounts.set(uri, n);
        continue;
      }
      this.uriCounts.delete(uri);
      if (!session.isOpen) continue;
      try {
        await session.request('resources/unsubscribe', this.host.withMeta({ uri }), {
          timeoutMs: this.host.timeoutMs,
        });
      } catch {
        // The subscription is gone on our side either way.
      }
    }
  }

  /**
   * Sends `subscriptions/listen` and waits for its acknowledgement. The request stays
   * pending for the life of the stream; when it settles without the client closing the
   * subscription, the stream is re-established.
   */
  private async listen(sub: Subscription, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    const session = this.host.session;
    const controller = new AbortController();
    sub.controller = controller;
    this.host.tap.reset();
    const pending = session.request(
      'subscriptions/listen',
      this.host.withMeta({ notifications: sub.requested }),
      {
        signal: controller.signal,
        timeoutMs: FOREVER_MS,
        maxTotalTimeoutMs: FOREVER_MS,
      },
    );
    const id = this.host.tap.take('subscriptions/listen');
    if (id === undefined) {
      await pending; // refused before sending: this rejects with the reason
      throw new LocalError('InvalidResult', 'subscriptions/listen ended before it started');
    }
    if (sub.listenId !== undefined) this.byId.delete(sub.listenId);
    sub.listenId = id;
    this.byId.set(id, sub);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const acked = new Promise<SubscriptionFilter>((resolve, reject) => {
        sub.ack = resolve;
        pending.then(
          () =>
            reject(
              new LocalError(
                'InvalidResult',
                'The server ended subscriptions/listen before acknowledging it',
              ),
            ),
          reject,
        );
        timer = setTimeout(() => {
          controller.abort();
          reject(
            new LocalError(
              'RequestTimeout',
              `The server did not acknowledge subscriptions/listen within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        if (signal) {
          onAbort = () => controller.abort(signal.reason);
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }
      });
      sub.acknowledged = await acked;
    } catch (e) {
      controller.abort();
      throw e;
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
      sub.ack = undefined;
    }
    pending.then(
      () => this.streamEnded(sub, controller, undefined),
      (e: unknown) => this.streamEnded(sub, controller, e),
    );
  }

  /** The listen request settled. Unless the client ended it, listen again with backoff. */
  private streamEnded(sub: Subscription, controller: AbortController, error: unknown, attempt = 0): void {
    if (sub.closed || sub.controller !== controller) return;
    if (this.shutdown || !this.host.session.isOpen) {
      this.forget(sub);
      sub.queue.end(error ?? new LocalError('ConnectionClosed', 'The connection closed'));
      return;
    }
    const policy = this.host.resubscribe;
    if (attempt >= policy.attempts) {
      this.forget(sub);
      sub.queue.end(
        new LocalError(
          'ConnectionClosed',
          `subscriptions/listen could not be re-established after ${attempt} attempts`,
          { cause: error },
        ),
      );
      return;
    }
    const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
    sub.retryTimer = setTimeout(() => {
      sub.retryTimer = undefined;
      if (sub.closed || this.shutdown) return;
      this.listen(sub, undefined, this.host.timeoutMs).then(
        () => this.resync(sub),
        (e: unknown) => this.streamEnded(sub, sub.controller!, e, attempt + 1),
      );
    }, delay);
    (sub.retryTimer as { unref?: () => void }).unref?.();
  }

  /** After a gap in the stream, changes may have been missed: report one of each kind. */
  private resync(sub: Subscription): void {
    const f = sub.acknowledged;
    if (f.toolsListChanged) sub.queue.push({ kind: 'tools' });
    if (f.promptsListChanged) sub.queue.push({ kind: 'prompts' });
    if (f.resourcesListChanged) sub.queue.push({ kind: 'resources' });
    for (const uri of f.resourceSubscriptions ?? []) sub.queue.push({ kind: 'resource', uri });
  }

  /**
   * Hands a notification to the subscriptions it belongs to. Modern notifications are
   * routed by their subscription id; legacy ones by what each subscription asked for.
   */
  dispatch(n: JsonRpcNotification): void {
    const meta = n.params?._meta;
    const id = isObject(meta) ? meta[MetaKey.SubscriptionId] : undefined;
    if (typeof id === 'string' || typeof id === 'number') {
      const sub = this.byId.get(id);
      if (!sub) return;
      if (n.method === 'notifications/subscriptions/acknowledged') {
        const filter = n.params?.notifications;
        sub.ack?.(isObject(filter) ? (filter as SubscriptionFilter) : {});
        return;
      }
      const event = eventOf(n);
      if (event && wants(sub.requested, event)) sub.queue.push(event);
      return;
    }
    const event = eventOf(n);
    if (!event) return;
    for (const sub of this.live)
      if (!sub.strategy.subscribesByListen && wants(sub.requested, event)) sub.queue.push(event);
  }

  /** Called by `Subscription.close()`. */
  async release(sub: Subscription): Promise<void> {
    if (!this.live.has(sub)) {
      sub.queue.end();
      return;
    }
    this.forget(sub);
    sub.queue.end();
    if (sub.strategy.subscribesByListen) {
      // Aborting the request makes the session send notifications/cancelled for it.
      sub.controller?.abort();
      return;
    }
    await this.unwatch(sub.requested.resourceSubscriptions ?? []);
  }

  private forget(sub: Subscription): void {
    this.live.delete(sub);
    if (sub.listenId !== undefined) this.byId.delete(sub.listenId);
    if (sub.retryTimer !== undefined) clearTimeout(sub.retryTimer);
    sub.retryTimer = undefined;
  }

  /** The connection closed: end every subscription (`error` when it was not our doing). */
  closeAll(error?: unknown): void {
    this.shutdown = true;
    for (const sub of [...this.live]) {
      this.forget(sub);
      sub.queue.end(error);
    }
    this.uriCounts.clear();
  }

  /** Number of live subscriptions. */
  get size(): number {
    return this.live.size;
  }
}
