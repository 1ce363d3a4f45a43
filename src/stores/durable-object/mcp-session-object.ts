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
        r.lastActive = now;
        await storage.put('session', r);
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
      case 'session.delete':
        await storage.deleteAll();
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
}
