/** One change subscription, as the caller sees it: an async iterable of change events. */
import type { JsonRpcNotification, RequestId } from '../jsonrpc/index.js';
import type { SubscriptionFilter } from '../protocol/types/index.js';
import type { Era } from '../protocol/versions.js';
import type { ClientEra } from './client-era.js';
import { EventQueue } from './event-queue.js';
import type { ChangeEvent, SubscribeOptions } from './types.js';

/** The change event a notification stands for, if any. */
export function eventOf(n: JsonRpcNotification): ChangeEvent | undefined {
  switch (n.method) {
    case 'notifications/tools/list_changed':
      return { kind: 'tools' };
    case 'notifications/prompts/list_changed':
      return { kind: 'prompts' };
    case 'notifications/resources/list_changed':
      return { kind: 'resources' };
    case 'notifications/resources/updated':
      return typeof n.params?.uri === 'string' ? { kind: 'resource', uri: n.params.uri } : undefined;
    default:
      return undefined;
  }
}

export function wants(filter: SubscriptionFilter, event: ChangeEvent): boolean {
  switch (event.kind) {
    case 'tools':
      return filter.toolsListChanged === true;
    case 'prompts':
      return filter.promptsListChanged === true;
    case 'resources':
      return filter.resourcesListChanged === true;
    case 'resource': {
      const uri = event.uri;
      return (filter.resourceSubscriptions ?? []).some((u) => uri === u || uri.startsWith(u));
    }
  }
}

export function filterOf(options: SubscribeOptions): SubscriptionFilter {
  const f: SubscriptionFilter = {};
  if (options.toolsListChanged) f.toolsListChanged = true;
  if (options.promptsListChanged) f.promptsListChanged = true;
  if (options.resourcesListChanged) f.resourcesListChanged = true;
  if (options.resources && options.resources.length > 0)
    f.resourceSubscriptions = [...new Set(options.resources)];
  return f;
}

/**
 * A live subscription: an async iterable of {@link ChangeEvent}s. `break` out of the
 * loop, call `close()`, or `await using` it to end it.
 *
 * @example
 * ```ts
 * await using sub = await client.subscribe({ toolsListChanged: true, resources: ['file:///a.txt'] });
 * for await (const change of sub) {
 *   if (change.kind === 'tools') console.log('tools changed');
 *   else if (change.kind === 'resource') console.log('changed:', change.uri);
 * }
 * ```
 */
export class Subscription implements AsyncIterable<ChangeEvent> {
  /** What the server agreed to send: the acknowledged filter (modern), or what its capabilities allow (legacy). */
  acknowledged: SubscriptionFilter = {};
  /** @internal */
  readonly queue: EventQueue;
  /** @internal id of the current listen request (modern). */
  listenId: RequestId | undefined;
  /** @internal */
  ack: ((filter: SubscriptionFilter) => void) | undefined;
  /** @internal */
  controller: AbortController | undefined;
  /** @internal */
  retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closing: Promise<void> | undefined;

  /** @internal */
  constructor(
    /** @internal the connection's era strategy */
    readonly strategy: ClientEra,
    readonly requested: SubscriptionFilter,
    private readonly hub: { release(sub: Subscription): Promise<void> },
  ) {
    this.queue = new EventQueue(() => this.close());
  }

  /** The era of the connection the subscription lives on. */
  get era(): Era {
    return this.strategy.name;
  }

  get closed(): boolean {
    return this.queue.isEnded;
  }

  /** Ends the subscription: cancels the listen request (modern) or unsubscribes (legacy). */
  close(): Promise<void> {
    this.closing ??= this.hub.release(this);
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<ChangeEvent> {
    return this.queue;
  }
}
