/**
 * The Durable Object class a Worker binds for mcpkit's shared state (see
 * `connectDurableObjectStores`). One instance per legacy session (`session:<id>`), per
 * resumable SSE stream (`stream:<id>`), per task (`task:<id>`), per task owner
 * (`tasks-of:<owner>`) and one for the MRTR key (`meta`): each instance's
 * operations run one at a time against its own storage, so no locking is needed.
 */
import type { DurableObjectStateLike, StoreOp } from './durable-object-types.js';
import { taskOp } from './task-object-ops.js';

interface SessionRecord {
  principal: string;
  ops: string[];
  lastActive: number;
}

/**
 * The longest copy lease granted (ms): a longer one asked for is cut to it. The sessions'
 * own leases are about a second.
 */
const MAX_LEASE_MS = 5000;

/** How far past a lease the stored horizon is put, so that it is written once per step. */
const HORIZON_STEP_MS = 5000;

/** Operations a session keeps at most (the Redis store's bound too). */
const MAX_OPS = 10_000;

const json = (value: unknown) =>
  new Response(JSON.stringify(value ?? null), { headers: { 'content-type': 'application/json' } });

/**
 * Export it from your Worker's module and bind it as a Durable Object namespace:
 *
 * @example
 * ```ts
 * import { McpSessionObject } from 'mcpkit/durable-object';
 *
 * // In the Worker's module: `export { McpSessionObject };`, bound in wrangler.jsonc as
 * // "durable_objects": { "bindings": [{ "name": "MCP_SESSIONS", "class_name": "McpSessionObject" }] }
 * const workerExports = { McpSessionObject };
 * ```
 */
export class McpSessionObject {
  /**
   * The copy leases of a session's isolates (node id → when it runs out, ms since the epoch),
   * kept in memory: a lease lasts about a second, and writing each one would cost a storage
   * write per touch. What is written is a horizon no lease granted runs past, moved ahead
   * HORIZON_STEP_MS at a time (one write every few seconds of use), so that an instance
   * started afresh on a session (after a crash or a restart) knows how long leases it never
   * saw may still run.
   */
  private readonly leases = new Map<string, number>();
  /** The stored horizon; undefined until read. */
  private horizon: number | undefined;
  /** The horizon as this instance first read it: leases it did not see run no later. */
  private inherited = 0;

  constructor(private readonly state: DurableObjectStateLike) {}

  async fetch(request: Request): Promise<Response> {
    let body: StoreOp;
    try {
      body = (await request.json()) as StoreOp;
    } catch {
      return new Response('a JSON operation is required', { status: 400 });
    }
    const storage = this.state.storage;
    switch (body.op) {
      case 'session.create': {
        if (await storage.get('session')) return json(false);
        const record: SessionRecord = {
          principal: body.principal,
          ops: [body.initialize],
          lastActive: Date.now(),
        };
        await storage.put('session', record);
        this.horizon = 0; // A new session: every lease on it is granted here.
        return json(true);
      }
      case 'session.touch': {
        const r = await storage.get<SessionRecord>('session');
        if (!r) return json(null);
        const now = Date.now();
        if (now - r.lastActive > body.idleMs) {
          await storage.deleteAll();
          return json(null);
        }
        // The idle clock is written coarsely (a session may end up to 1/64 of its idle time
        // early): a session in use costs no storage write per touch.
        if (now - r.lastActive > body.idleMs / 64) {
          r.lastActive = now;
          await storage.put('session', r);
        }
        if (body.lease) {
          const expiry = now + Math.min(body.lease.ms, MAX_LEASE_MS);
          // Isolates come and go: the ones whose lease ran out are dropped now and then.
          if (this.leases.size >= 16) for (const [n, e] of this.leases) if (e <= now) this.leases.delete(n);
          this.leases.set(body.lease.node, expiry);
          if (expiry > (await this.storedHorizon())) {
            this.horizon = expiry + HORIZON_STEP_MS;
            await storage.put('leaseHorizon', this.horizon);
          }
        }
        const from = Math.min(Math.max(0, body.knownOps), r.ops.length);
        return json({ principal: r.principal, ops: r.ops.slice(from), firstOp: from, opCount: r.ops.length });
      }
      case 'session.append': {
        const r = await storage.get<SessionRecord>('session');
        if (!r) return json(0);
        if (r.ops.length < MAX_OPS) r.ops.push(body.text);
        await storage.put('session', r);
        return json(r.ops.length);
      }
      case 'session.holders':
        await this.storedHorizon();
        return json(this.holdersAnswer(body.except));
      case 'session.delete':
        // The leases stay until they run out: their isolates must still be told of the end.
        await storage.deleteAll();
        if (this.horizon !== undefined && this.horizon > Date.now())
          await storage.put('leaseHorizon', this.horizon);
        return json(true);
      case 'events.append': {
        const events = (await storage.get<Array<[number, string]>>('events')) ?? [];
        events.push(...body.events);
        if (events.length > body.max) events.splice(0, events.length - body.max);
        const next = Math.max(
          (await storage.get<number>('next')) ?? 0,
          ...body.events.map(([seq]) => seq + 1),
        );
        await storage.put('events', events);
        await storage.put('next', next);
        return json(true);
      }
      case 'events.replay': {
        const next = await storage.get<number>('next');
        if (next === undefined || body.after < 0 || body.after >= next) return json(null);
        const events = (await storage.get<Array<[number, string]>>('events')) ?? [];
        return json(
          events.filter(([seq, text]) => seq > body.after && text !== '').sort((a, b) => a[0] - b[0]),
        );
      }
      case 'events.drop':
        await storage.deleteAll();
        return json(true);
      case 'meta.key': {
        let key = await storage.get<number[]>('requestStateKey');
        if (!key) {
          key = Array.from(crypto.getRandomValues(new Uint8Array(32)));
          await storage.put('requestStateKey', key);
        }
        return json(key);
      }
      case 'task.create':
      case 'task.get':
      case 'task.update':
      case 'task.delete':
      case 'owner.reserve':
      case 'owner.end':
      case 'owner.remove':
      case 'owner.list':
        return json(await taskOp(storage, body));
      default:
        return new Response('unknown operation', { status: 400 });
    }
  }

  private async storedHorizon(): Promise<number> {
    if (this.horizon === undefined) {
      this.horizon = (await this.state.storage.get<number>('leaseHorizon')) ?? 0;
      this.inherited = this.horizon;
    }
    return this.horizon;
  }

  /**
   * The isolates other than `except` with a running lease, and how long until the last runs
   * out: at least until the inherited horizon, for leases this instance did not see.
   */
  private holdersAnswer(except: string): { nodes: string[]; ms: number } {
    const now = Date.now();
    let until = now;
    const nodes: string[] = [];
    for (const [node, expiry] of this.leases) {
      if (expiry <= now) this.leases.delete(node);
      else if (node !== except) {
        nodes.push(node);
        until = Math.max(until, expiry);
      }
    }
    // Leases granted before this instance started (an earlier one, since crashed or
    // restarted) run no later than the horizon; those granted here are all in `leases`.
    until = Math.max(until, this.inherited);
    return { nodes, ms: until - now };
  }
}
