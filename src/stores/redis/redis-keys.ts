/**
 * Every Redis key and channel mcpkit uses, in one place, so the layout can be read (and
 * tested) at a glance.
 */
export interface RedisKeys {
  /** A node's lease: its process token, expiring unless renewed. */
  node(nodeId: string): string;
}

/** The key layout under one prefix. */
export function redisKeys(prefix: string): RedisKeys {
  return {
    node: (nodeId) => `${prefix}node:${nodeId}`,
  };
}
