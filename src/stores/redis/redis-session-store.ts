import type { Redis } from 'ioredis';
import type {
  LegacySessionRecord,
  LegacySessionStore,
  SessionLimits,
} from '../../transports/http-server/shared-state.js';
import { guarded } from './redis-errors.js';

/** Most recorded state changes one session may have; past this, more are not shared. */
const MAX_OPS = 10_000;

// Each script is one round trip and atomic across nodes. KEYS: record, ops list, live-session index.
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[5])
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('DEL', KEYS[2])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], tonumber(ARGV[5]) + tonumber(ARGV[3]), ARGV[6])
return 1`;

const TOUCH = `
local p = redis.call('GET', KEYS[1])
if not p then
  redis.call('ZREM', KEYS[3], ARGV[3])
  return false
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], tonumber(ARGV[2]) + tonumber(ARGV[1]), ARGV[3])
local n = redis.call('LLEN', KEYS[2])
local k = tonumber(ARGV[4])
if k < n then return {p, n, redis.call('LRANGE', KEYS[2], k, -1)} end
return {p, n}`;

const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[2]) then return -1 end
return redis.call('RPUSH', KEYS[2], ARGV[1])`;

const RESTORE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
for i = 5, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], tonumber(ARGV[3]) + tonumber(ARGV[2]), ARGV[4])
return 1`;

type Scripted = Redis & {
  mcpCreate(k1: string, k2: string, k3: string, ...args: (string | number)[]): Promise<number>;
  mcpTouch(
    k1: string,
    k2: string,
    k3: string,
    ...args: (string | number)[]
  ): Promise<[string, number, string[]?] | null>;
  mcpAppend(k1: string, k2: string, ...args: (string | number)[]): Promise<number>;
  mcpRestore(k1: string, k2: string, k3: string, ...args: (string | number)[]): Promise<number>;
};

/**
 * Legacy sessions in Redis: a record (the principal) and a list of recorded state changes,
 * both expiring after the idle time, plus a sorted set of live sessions by expiry that
 * enforces `maxSessions` across every node.
 */
export class RedisLegacySessionStore implements LegacySessionStore {
  readonly shared = true;
  private readonly redis: Scripted;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('mcpCreate', { numberOfKeys: 3, lua: CREATE });
    redis.defineCommand('mcpTouch', { numberOfKeys: 3, lua: TOUCH });
    redis.defineCommand('mcpAppend', { numberOfKeys: 2, lua: APPEND });
    redis.defineCommand('mcpRestore', { numberOfKeys: 3, lua: RESTORE });
    this.redis = redis as Scripted;
  }

  private keys(id: string): [string, string, string] {
    return [`${this.prefix}s:${id}`, `${this.prefix}s:${id}:ops`, `${this.prefix}sessions`];
  }

  async create(id: string, principal: string, initialize: string, limits: SessionLimits): Promise<boolean> {
    const [a, b, c] = this.keys(id);
    const now = Date.now();
    const r = await guarded(
      this.redis.mcpCreate(a, b, c, principal, initialize, limits.idleMs, limits.maxSessions, now, id),
    );
    return r === 1;
  }

  async touch(id: string, knownOps: number, limits: SessionLimits): Promise<LegacySessionRecord | undefined> {
    const [a, b, c] = this.keys(id);
    const r = await guarded(this.redis.mcpTouch(a, b, c, limits.idleMs, Date.now(), id, knownOps));
    if (!r) return undefined;
    const [principal, count, ops] = r;
    return { principal, ops: ops ?? [], firstOp: ops ? knownOps : count, opCount: count };
  }

  async appendOp(id: string, op: string): Promise<number> {
    const [a, b] = this.keys(id);
    return guarded(this.redis.mcpAppend(a, b, op, MAX_OPS));
  }

  async restore(
    id: string,
    principal: string,
    ops: readonly string[],
    limits: SessionLimits,
  ): Promise<boolean> {
    const [a, b, c] = this.keys(id);
    const r = await guarded(this.redis.mcpRestore(a, b, c, principal, limits.idleMs, Date.now(), id, ...ops));
    return r === 1;
  }

  async delete(id: string): Promise<void> {
    const [a, b, c] = this.keys(id);
    await guarded(this.redis.multi().del(a, b).zrem(c, id).exec());
  }
}
