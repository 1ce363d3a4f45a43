/**
 * The Redis key layout, in one place. Keys that one script or command touches together
 * share a hash tag (`{…}`), so they land on one slot and the layout works on Redis Cluster,
 * where a multi-key operation must stay within one slot:
 *
 * - a legacy session's record, its recorded ops and its copy leases: `{s:<id>}`;
 * - one owner's task indexes (the live set, the list by creation): `{o:<owner>}`;
 * - a task's record: `{t:<id>}` (alone; the owner indexes are updated by separate commands);
 * - one caller's rate limit buckets, taken together by one script: `{rl:<caller>}`.
 *
 * Single-key data needs no tag: the live-session index (`sessions`), node leases
 * (`node:<id>`), resumable event streams (`ev:<stream>`) and the MRTR key. A `keyPrefix`
 * holding a `{…}` of its own puts every key on one slot, which also works.
 */
export interface RedisKeys {
  /** A node's lease: its process token, expiring unless renewed. */
  node(nodeId: string): string;
  /** A legacy session's record (its principal). */
  session(id: string): string;
  /** A legacy session's recorded state-changing messages (a list), on the record's slot. */
  sessionOps(id: string): string;
  /** The nodes serving a legacy session from their copy, by lease expiry (a sorted set), on the record's slot. */
  sessionHolders(id: string): string;
  /** Live legacy sessions by expiry (a sorted set): the cluster-wide `maxSessions` cap. */
  readonly sessionIndex: string;
  /** A task's record (its JSON); also the channel its changes are published on. */
  task(taskId: string): string;
  /** An owner's unfinished tasks by expiry (a sorted set): the `maxLivePerOwner` cap. */
  ownerLive(owner: string): string;
  /** An owner's tasks by creation time (a sorted set): `tasks/list`, on the live set's slot. */
  ownerIndex(owner: string): string;
  /** One of a caller's rate limit buckets (a hash), on the caller's slot. */
  rateBucket(caller: string, bucket: string): string;
}

/** The key layout under one prefix. */
export function redisKeys(prefix: string): RedisKeys {
  return {
    node: (nodeId) => `${prefix}node:${nodeId}`,
    session: (id) => `${prefix}{s:${id}}`,
    sessionOps: (id) => `${prefix}{s:${id}}:ops`,
    sessionHolders: (id) => `${prefix}{s:${id}}:holders`,
    sessionIndex: `${prefix}sessions`,
    task: (taskId) => `${prefix}{t:${taskId}}`,
    ownerLive: (owner) => `${prefix}{o:${owner}}:live`,
    ownerIndex: (owner) => `${prefix}{o:${owner}}:by`,
    // The caller is escaped: a `}` inside it would end the hash tag early.
    rateBucket: (caller, bucket) => `${prefix}{rl:${encodeURIComponent(caller)}}:${bucket}`,
  };
}

/**
 * The part of a key Redis Cluster hashes: the text between the first `{` and the first `}`
 * after it, when that is not empty; otherwise the whole key.
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close <= open + 1 ? key : key.slice(open + 1, close);
}

/** The Redis Cluster slot of a key: CRC16 (XMODEM) of its hash tag, mod 16384. */
export function hashSlotOf(key: string): number {
  const bytes = new TextEncoder().encode(hashTagOf(key));
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}
