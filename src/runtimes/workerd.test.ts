/**
 * The runtime suite on workerd (src/test-support/runtime-suite.ts): the server fixture as a
 * Cloudflare Worker (test/runtimes/workerd-worker.mjs, bundled for Workers, no nodejs_compat),
 * served by `workerd serve`, checked by mcpkit's client in both eras (legacy sessions through
 * the Durable Object store, mcpkit/durable-object) and by the official SDK client, and
 * mcpkit's client run inside workerd too (test/runtimes/workerd-client-worker.mjs, its
 * outbound fetches allowed to reach loopback). Also: the Worker builds its server at module scope.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runtimeTests } from '../test-support/runtime-suite.js';

await runtimeTests('workerd');

interface WorkerdLauncher {
  binary(): string;
  start(options: { port: number; storageDir?: string }): Promise<{ url: string; stop(): Promise<void> }>;
}

// From src/runtimes or dist/runtimes alike.
const launcherUrl = new URL('../../test/runtimes/workerd-launcher.mjs', import.meta.url).href;
const { workerd } = (await import(launcherUrl)) as { workerd: WorkerdLauncher };

let unavailable: string | false = false;
try {
  workerd.binary();
} catch (err) {
  if (process.env.MCPKIT_REQUIRE_SERVICES === '1') throw err;
  unavailable = `needs workerd, which could not be installed: ${(err as Error).message.split('\n')[0]}`;
}

test(
  'the Worker builds its McpServer at module scope (no timers or randomness at construction)',
  { skip: unavailable },
  async () => {
    const running = await workerd.start({ port: 0 });
    try {
      const res = await fetch(new URL('/module-scope', running.url));
      assert.equal(await res.text(), 'ok');
    } finally {
      await running.stop();
    }
  },
);

test(
  "a legacy session's copy lease is kept in its Durable Object: other isolates are told of it, even after the end",
  { skip: unavailable },
  async () => {
    const running = await workerd.start({ port: 0 });
    try {
      const res = await fetch(new URL('/lease-check', running.url));
      const r = (await res.json()) as {
        created: boolean;
        plain: { principal: string; opCount: number } | null;
        forB: { nodes: string[]; ms: number };
        forA: { nodes: string[]; ms: number };
        afterDelete: { nodes: string[]; ms: number };
        touchAfterDelete: unknown;
      };
      assert.equal(r.created, true);
      assert.equal(r.plain?.principal, 'p');
      // The lease another isolate must wait out, and for how long at most.
      assert.deepEqual(r.forB.nodes, ['isolate-a']);
      assert.ok(r.forB.ms > 0 && r.forB.ms <= 1000, `ms ${r.forB.ms}`);
      // An isolate is never asked to wait for itself.
      assert.deepEqual(r.forA, { nodes: [], ms: 0 });
      // Deleted: the session is gone, its running lease is not.
      assert.deepEqual(r.afterDelete.nodes, ['isolate-a']);
      assert.equal(r.touchAfterDelete, null);
    } finally {
      await running.stop();
    }
  },
);

/** A JSON-RPC answer, as the tests below read it. */
interface Reply {
  result?: {
    content?: { text: string }[];
    task?: { taskId: string; status: string };
    taskId?: string;
    status?: string;
  };
  error?: { code: number; message: string };
}

/** One JSON-RPC POST in the legacy era; resolves to the status, the session id and the message. */
async function post(url: string, body: object, sessionId?: string, version = '2025-06-18') {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data = text.split('\n').find((line) => line.startsWith('data: {')); // past a priming event;
  const json = data ? data.slice(6) : text.startsWith('{') ? text : undefined;
  const message = json ? (JSON.parse(json) as Reply) : undefined;
  return { status: res.status, sessionId: res.headers.get('mcp-session-id'), message };
}

test(
  'a legacy session lives in the Durable Object store: a restarted workerd (a new isolate) serves it',
  { skip: unavailable },
  async () => {
    const storageDir = mkdtempSync(join(tmpdir(), 'mcpkit-workerd-do-'));
    try {
      let running = await workerd.start({ port: 0, storageDir });
      const url = running.url;
      const port = Number(new URL(url).port);
      const init = await post(url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      assert.equal(init.status, 200);
      const id = init.sessionId!;
      assert.match(id, /^[0-9a-f]{32}$/);
      assert.equal(
        (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, id)).status,
        202,
      );
      await running.stop();

      // Nothing of the session is left in any process: only the Durable Objects on disk.
      running = await workerd.start({ port, storageDir });
      try {
        const call = {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'still here' } },
        };
        const again = await post(url, call, id);
        assert.equal(again.status, 200);
        assert.equal(again.message?.result?.content?.[0]?.text, 'still here');
        // And a session the store never had is refused, as on one node.
        assert.equal((await post(url, call, 'f'.repeat(32))).status, 404);
      } finally {
        await running.stop();
      }
    } finally {
      rmSync(storageDir, { recursive: true, force: true });
    }
  },
);

test(
  'a task lives in the Durable Object task store: a restarted workerd finds it (tasks/get, tasks/result)',
  { skip: unavailable },
  async () => {
    const storageDir = mkdtempSync(join(tmpdir(), 'mcpkit-workerd-tasks-'));
    const V = '2025-11-25';
    try {
      let running = await workerd.start({ port: 0, storageDir });
      const url = running.url;
      const port = Number(new URL(url).port);
      const init = await post(
        url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        undefined,
        V,
      );
      assert.equal(init.status, 200);
      const sid = init.sessionId!;
      assert.equal(
        (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sid, V)).status,
        202,
      );
      const created = await post(
        url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'echo_task', arguments: { text: 'hi' }, task: { ttl: 600_000 } },
        },
        sid,
        V,
      );
      const taskId = created.message?.result?.task?.taskId;
      assert.equal(typeof taskId, 'string', JSON.stringify(created.message));
      // tasks/result blocks until the task ends: its handler ran in this workerd.
      const first = await post(
        url,
        { jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } },
        sid,
        V,
      );
      assert.equal(first.message?.result?.content?.[0]?.text, 'task says hi', JSON.stringify(first.message));
      await running.stop();

      // A new process: the task is known only to the Durable Objects on disk.
      running = await workerd.start({ port, storageDir });
      try {
        const got = await post(
          url,
          { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId } },
          sid,
          V,
        );
        assert.equal(got.message?.result?.taskId, taskId, JSON.stringify(got.message));
        assert.equal(got.message?.result?.status, 'completed');
        const again = await post(
          url,
          { jsonrpc: '2.0', id: 5, method: 'tasks/result', params: { taskId } },
          sid,
          V,
        );
        assert.equal(again.message?.result?.content?.[0]?.text, 'task says hi');
        const listed = await post(url, { jsonrpc: '2.0', id: 6, method: 'tasks/list' }, sid, V);
        const tasks = (listed.message?.result as { tasks?: { taskId: string }[] } | undefined)?.tasks;
        assert.deepEqual(
          tasks?.map((t) => t.taskId),
          [taskId],
        );
        // A task id the store never had: the one error that does not reveal existence.
        const unknown = await post(
          url,
          { jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { taskId: 'no-such-task' } },
          sid,
          V,
        );
        assert.equal(unknown.message?.error?.code, -32602, JSON.stringify(unknown.message));
        assert.match(unknown.message?.error?.message ?? '', /Task not found/);
      } finally {
        await running.stop();
      }
    } finally {
      rmSync(storageDir, { recursive: true, force: true });
    }
  },
);
