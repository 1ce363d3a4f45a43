import type { Redis } from 'ioredis';
import type {
  CopyLease,
  LeaseHolders,
  LegacySessionRecord,
  LegacySessionStore,
  SessionLimits,
} from '../../transports/http-server/shared-state.js';
import { guarded } from './redis-errors.js';
import { redisKeys } from './redis-keys.js';
import type { RedisKeys } from './redis-keys.js';

/** Most recorded state changes one session may have; past this, more are not shared. */
const MAX_OPS = 10_000;

// Each script is atomic across nodes and touches one slot only (Redis Cluster): the
// session's record and ops (KEYS[1], KEYS[2], one hash tag), or the live-session index.

// KEYS: the index. ARGV: now, this session's expiry, id, maxSessions. Reserves a place under
// the cap: added first and counted after, so racing creators can only under-admit.
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
if redis.call('ZCARD', KEYS[1]) > tonumber(ARGV[4]) then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return 0
end
return 1`;

// KEYS: record, ops. ARGV: principal, the initialize message, idle ms.
const CREATE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('DEL', KEYS[2])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

// Lease times are Redis's clock (TIME, ms), so nodes' clocks need not agree.
const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: record, ops, holders. ARGV: idle ms, the ops the caller has, and optionally the
// caller's node and lease ms: its lease is recorded in the same step as it reads the ops,
// so a change stored later finds it (see HOLDERS).
const TOUCH = `
local p = redis.call('GET', KEYS[1])
if not p then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
if ARGV[3] then
  ${NOW_MS}
  local ms = tonumber(ARGV[4])
  redis.call('ZADD', KEYS[3], now + ms, ARGV[3])
  if redis.call('PTTL', KEYS[3]) < ms then redis.call('PEXPIRE', KEYS[3], ms) end
end
local n = redis.call('LLEN', KEYS[2])
local k = tonumber(ARGV[2])
if k < n then return {p, n, redis.call('LRANGE', KEYS[2], k, -1)} end
return {p, n}`;

const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[2]) then return -1 end
return redis.call('RPUSH', KEYS[2], ARGV[1])`;

// KEYS: holders. ARGV: the node to leave out. Returns the time until the last lease runs
// out (ms, rounded up), then the nodes whose lease still runs.
const HOLDERS = `
${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local h = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local out = {0}
for i = 1, #h, 2 do
  if h[i] ~= ARGV[1] then
    out[#out + 1] = h[i]
    local left = tonumber(h[i + 1]) - now + 1
    if left > out[1] then out[1] = left end
  end
end
return out`;

// KEYS: record, ops. ARGV: principal, idle ms, ops...
const RESTORE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`;

type Scripted = Redis & {
  mcpReserve(k1: string, ...args: (string | number)[]): Promise<number>;
  mcpCreate(k1: string, k2: string, ...args: (string | number)[]): Promise<number>;
  mcpTouch(
    k1: string,
    k2: string,
    k3: string,
    ...args: (string | number)[]
  ): Promise<[string, number, string[]?] | null>;
  mcpHolders(k1: string, except: string): Promise<[number, ...string[]]>;
  mcpAppend(k1: string, k2: string, ...args: (string | number)[]): Promise<number>;
  mcpRestore(k1: string, k2: string, ...args: (string | number)[]): Promise<number>;
};

/**
 * Legacy sessions in Redis: a record (the principal) and a list of recorded state changes,
 * both expiring after the idle time, and the nodes' copy leases by expiry (a sorted set
 * that lives no longer than its last lease), all sharing one hash tag, plus a sorted set of
 * live sessions by expiry that enforces `maxSessions` across every node. The index is updated
 * by commands of its own, sent in the same round trip, so every script stays on one slot.
 */
export class RedisLegacySessionStore implements LegacySessionStore {
  readonly shared = true;
  private readonly redis: Scripted;
  private readonly keys: RedisKeys;

  constructor(redis: Redis, prefix: string) {
    redis.defineCommand('mcpReserve', { numberOfKeys: 1, lua: RESERVE });
    redis.defineCommand('mcpCreate', { numberOfKeys: 2, lua: CREATE });
    redis.defineCommand('mcpTouch', { numberOfKeys: 3, lua: TOUCH });
    redis.defineCommand('mcpHolders', { numberOfKeys: 1, lua: HOLDERS });
    redis.defineCommand('mcpAppend', { numberOfKeys: 2, lua: APPEND });
    redis.defineCommand('mcpRestore', { numberOfKeys: 2, lua: RESTORE });
    this.redis = redis as Scripted;
    this.keys = redisKeys(prefix);
  }

  async create(id: string, principal: string, initialize: string, limits: SessionLimits): Promise<boolean> {
    const k = this.keys;
    const now = Date.now();
    // Both at once (one round trip); a refused reservation takes the new keys back.
    const [reserved] = await guarded(
      Promise.all([
        this.redis.mcpReserve(k.sessionIndex, now, now + limits.idleMs, id, limits.maxSessions),
        this.redis.mcpCreate(k.session(id), k.sessionOps(id), principal, initialize, limits.idleMs),
      ]),
    );
    if (reserved === 1) return true;
    await guarded(this.redis.del(k.session(id), k.sessionOps(id)));
    return false;
  }

  async touch(
    id: string,
    knownOps: number,
    limits: SessionLimits,
    lease?: CopyLease,
  ): Promise<LegacySessionRecord | undefined> {
    const k = this.keys;
    const now = Date.now();
    // XX: the index only follows sessions it already has; sent in the same round trip.
    this.redis.zadd(k.sessionIndex, 'XX', now + limits.idleMs, id).catch(() => undefined);
    const keys = [k.session(id), k.sessionOps(id), k.sessionHolders(id)] as const;
    const r = await guarded(
      lease
        ? this.redis.mcpTouch(...keys, limits.idleMs, knownOps, lease.node, Math.ceil(lease.ms))
        : this.redis.mcpTouch(...keys, limits.idleMs, knownOps),
    );
    if (!r) {
      this.redis.zrem(k.sessionIndex, id).catch(() => undefined);
      return undefined;
    }
    const [principal, count, ops] = r;
    return { principal, ops: ops ?? [], firstOp: ops ? knownOps : count, opCount: count };
  }

  async appendOp(id: string, op: string): Promise<number> {
    return guarded(this.redis.mcpAppend(this.keys.session(id), this.keys.sessionOps(id), op, MAX_OPS));
  }

  async holders(id: string, except: string): Promise<LeaseHolders> {
    const [ms, ...nodes] = await guarded(this.redis.mcpHolders(this.keys.sessionHolders(id), except));
    return { nodes, ms };
  }

  async restore(
    id: string,
    principal: string,
    ops: readonly string[],
    limits: SessionLimits,
  ): Promise<boolean> {
    const k = this.keys;
    const r = await guarded(
      this.redis.mcpRestore(k.session(id), k.sessionOps(id), principal, limits.idleMs, ...ops),
    );
    if (r === 1) await guarded(this.redis.zadd(k.sessionIndex, Date.now() + limits.idleMs, id));
    return r === 1;
  }

  async delete(id: string): Promise<void> {
    const k = this.keys;
    // The leases stay until they run out: their nodes must still be told of the end.
    await guarded(
      Promise.all([this.redis.del(k.session(id), k.sessionOps(id)), this.redis.zrem(k.sessionIndex, id)]),
    );
  }
}
