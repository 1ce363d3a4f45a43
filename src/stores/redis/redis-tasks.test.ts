/**
 * Tasks on Redis: the {@link RedisTaskStore} against the TaskStore contract, and who may
 * reach a 2025-11-25 task from another server process sharing the store (each "process"
 * here is a server with its own Redis connections, so every change travels through Redis):
 * - a caller authenticated as the same principal reaches it from any session on any node,
 *   and gets its result after its first connection is gone;
 * - an unauthenticated session is the owner: another session, on any node, cannot get,
 *   read, list or cancel its tasks, even knowing the id.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, WireError } from '../../jsonrpc/index.js';
import type { Transport, TransportSink } from '../../jsonrpc/index.js';
import { McpServer } from '../../server/server.js';
import { memoryPair } from '../../transports/memory/index.js';
import { startRedis } from '../../test-support/cluster.js';
import { missing } from '../../test-support/services.js';
import type { RedisProcess } from '../../test-support/cluster.js';
import { openClient } from '../../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../../test-support/mcp-harness.js';
import { taskStoreContract } from '../../test-support/task-store-contract.js';
import { connectRedisStores } from './connect-redis.js';
import type { RedisStores } from './connect-redis.js';

const REV = '2025-11-25';
let redis: RedisProcess;
let prefixCounter = 0;
const opened: RedisStores[] = [];

async function stores(keyPrefix: string): Promise<RedisStores> {
  const s = await connectRedisStores({ url: redis.url, keyPrefix });
  opened.push(s);
  return s;
}

const NO_REDIS = missing('redis');
before(async () => {
  if (!NO_REDIS) redis = await startRedis();
});
after(async () => {
  for (const s of opened.splice(0)) await s.close();
  await redis?.stop();
});

describe('RedisTaskStore', { skip: NO_REDIS }, () => {
  taskStoreContract(
    'RedisTaskStore',
    async () => (await stores(`c${process.pid}-${prefixCounter++}:`)).taskStore,
  );
});

/** The server side of a memory pair, with every frame stamped as authenticated by `subject`. */
function authenticated(inner: Transport, subject: string): Transport {
  return {
    kind: inner.kind,
    start: (sink: TransportSink) =>
      inner.start({ ...sink, frame: (frame, info) => sink.frame(frame, { ...info, authInfo: { subject } }) }),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
}

function isWire(code: number) {
  return (e: unknown) => e instanceof WireError && e.code === code;
}

describe('2025-11-25 tasks across server processes sharing a Redis task store', { skip: NO_REDIS }, () => {
  const nodes: McpServer[] = [];
  const clients: TestClient[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));

  before(async () => {
    const keyPrefix = `o${process.pid}-${prefixCounter++}:`;
    for (let i = 0; i < 2; i++) {
      const { taskStore } = await stores(keyPrefix);
      const server = new McpServer({ name: `node-${i}`, version: '1.0.0' }, { tasks: { store: taskStore } });
      server.tool({ name: 'job', execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
        ctx.status('working on it');
        await gate;
        return 'job done';
      });
      nodes.push(server);
    }
  });
  after(async () => {
    release();
    for (const c of clients.splice(0)) await c.close();
    for (const s of nodes.splice(0)) await s.close();
  });

  async function connect(node: McpServer, subject?: string): Promise<TestClient> {
    const [a, b] = memoryPair();
    await node.connect(subject === undefined ? b : authenticated(b, subject));
    const client = await openClient(a, REV);
    clients.push(client);
    return client;
  }

  async function start(client: TestClient): Promise<string> {
    const r = await client.request('tools/call', { name: 'job', arguments: {}, task: { ttl: 60_000 } });
    return String((r.task as Obj).taskId);
  }

  test('a principal reaches its task from another session on another node, after the first is gone', async () => {
    const first = await connect(nodes[0]!, 'alice');
    const taskId = await start(first);
    await first.close();
    const again = await connect(nodes[1]!, 'alice');
    const got = await again.request('tasks/get', { taskId });
    assert.equal(got.taskId, taskId);
    const listed = (await again.request('tasks/list', {})).tasks as Obj[];
    assert.ok(listed.some((t) => t.taskId === taskId));
    // Someone else, authenticated or not, still cannot.
    const mallory = await connect(nodes[1]!, 'mallory');
    await assert.rejects(mallory.request('tasks/get', { taskId }), isWire(ErrorCode.InvalidParams));
    const anonymous = await connect(nodes[0]!);
    await assert.rejects(anonymous.request('tasks/cancel', { taskId }), isWire(ErrorCode.InvalidParams));
    const result = again.request('tasks/result', { taskId });
    release();
    assert.equal(((await result).content as Obj[])[0]!.text, 'job done');
    for (const c of [again, mallory, anonymous]) c.tap.assertValid();
  });

  test('an unauthenticated session owns its tasks: no other session on any node can touch them', async () => {
    const owner = await connect(nodes[0]!);
    const taskId = await start(owner);
    for (const node of nodes) {
      const other = await connect(node);
      await assert.rejects(other.request('tasks/get', { taskId }), isWire(ErrorCode.InvalidParams));
      await assert.rejects(other.request('tasks/result', { taskId }), isWire(ErrorCode.InvalidParams));
      await assert.rejects(other.request('tasks/cancel', { taskId }), isWire(ErrorCode.InvalidParams));
      assert.deepEqual((await other.request('tasks/list', {})).tasks, []);
      other.tap.assertValid();
    }
    // The owner still sees it, done (the gate is open by now).
    const mine = (await owner.request('tasks/list', {})).tasks as Obj[];
    assert.deepEqual(
      mine.map((t) => t.taskId),
      [taskId],
    );
    assert.equal(((await owner.request('tasks/result', { taskId })).content as Obj[])[0]!.text, 'job done');
    owner.tap.assertValid();
  });
});
