import type { Redis } from 'ioredis';
import type { ClusterBus, ClusterMessage } from '../../transports/http-server/shared-state.js';

/**
 * Redis pub/sub on one subscriber connection per node: the cluster bus (one channel for
 * every node, one per node) and the channels of followed event streams share it.
 */
export class RedisChannels {
  private readonly handlers = new Map<string, Set<(text: string) => void>>();

  constructor(private readonly sub: Redis) {
    sub.on('message', (channel: string, text: string) => {
      const set = this.handlers.get(channel);
      if (set) for (const h of set) h(text);
    });
  }

  /** Listens on a channel; resolves once Redis confirms, to the function that stops it. */
  async listen(channel: string, handler: (text: string) => void): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      await this.sub.subscribe(channel);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        this.sub.unsubscribe(channel).catch(() => undefined);
      }
    };
  }
}

/** The {@link ClusterBus} on Redis pub/sub. */
export class RedisClusterBus implements ClusterBus {
  private readonly listeners = new Set<(message: ClusterMessage) => void>();
  /** Messages that could not be published (Redis was down): at most once, so they are lost. */
  dropped = 0;

  constructor(
    readonly nodeId: string,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Starts receiving; called once by the connector before the node serves. */
  async start(channels: RedisChannels): Promise<void> {
    const receive = (text: string): void => {
      let m: ClusterMessage & { o?: string };
      try {
        m = JSON.parse(text) as ClusterMessage & { o?: string };
      } catch {
        return;
      }
      if (m.o === this.nodeId) return;
      for (const l of this.listeners) {
        try {
          l(m);
        } catch {
          // One failing listener must not starve the others.
        }
      }
    };
    await channels.listen(`${this.prefix}bus`, receive);
    await channels.listen(`${this.prefix}bus:${this.nodeId}`, receive);
  }

  publish(to: string | null, message: ClusterMessage): Promise<void> {
    const channel = to === null ? `${this.prefix}bus` : `${this.prefix}bus:${to}`;
    // Redis answers PUBLISH once it has handed the message to every subscriber's connection.
    return this.redis.publish(channel, JSON.stringify({ ...message, o: this.nodeId })).then(
      () => undefined,
      () => void this.dropped++,
    );
  }

  subscribe(listener: (message: ClusterMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
