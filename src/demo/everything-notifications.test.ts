/**
 * What the everything server sends besides results, in process and in both eras: log
 * messages, progress, cancellation, resource subscriptions and list changes.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import type { Progress } from '../session/index.js';
import type { Session } from '../session/index.js';
import type { McpServer } from '../server/server.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import { WATCHED_RESOURCE_URI, createEverythingServer } from './everything-server.js';
import { settle, waitFor } from '../test-support/waiting.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const STEP_MS = 20;

interface Fixture {
  server: McpServer;
  client: TestClient;
  serverSession: Session;
}

const open: Fixture[] = [];

async function setup(revision: string, stepMs = STEP_MS): Promise<Fixture> {
  const server = createEverythingServer({ stepMs });
  const [clientSide, serverSide] = memoryPair();
  const serverSession = await server.connect(serverSide);
  const client = await openClient(clientSide, revision);
  const f = { server, client, serverSession };
  open.push(f);
  return f;
}

afterEach(async () => {
  for (const f of open.splice(0)) {
    f.client.tap.assertValid();
    await f.client.close();
    await f.server.close();
  }
});

const isCancelled = (e: unknown) => e instanceof LocalError && e.code === 'Cancelled';
const params = (m: Obj | undefined) => (m?.params ?? {}) as Obj;
const meta = (m: Obj | undefined) => (params(m)._meta ?? {}) as Obj;

/**
 * A round trip over the one ordered memory connection: everything the server sent before its
 * answer has arrived once this resolves. (`tools/list` exists in both eras; `ping` does not.)
 */
const barrier = (client: TestClient): Promise<Obj> => client.request('tools/list');

describe('logging', () => {
  test('legacy: logging/setLevel info lets three info messages through, ~50 ms apart', async () => {
    const { client } = await setup(LEGACY, 50);
    assert.deepEqual(await client.request('logging/setLevel', { level: 'info' }), {});
    await client.callTool('test_tool_with_logging');
    const logs = client.tap.entries.filter((e) => e.message.method === 'notifications/message');
    assert.deepEqual(
      logs.map((e) => [params(e.message).level, params(e.message).data]),
      [
        ['info', 'Tool execution started'],
        ['info', 'Tool processing data'],
        ['info', 'Tool execution completed'],
      ],
    );
    for (let i = 1; i < logs.length; i++) {
      assert.ok(logs[i]!.at - logs[i - 1]!.at >= 40, 'messages are spread out during the call');
    }
    // Raising the level to error silences info messages.
    await client.request('logging/setLevel', { level: 'error' });
    await client.callTool('test_tool_with_logging');
    assert.equal(client.tap.notifications('notifications/message').length, 3);
  });

  test('modern: messages only for a request that opted in with a log level', async () => {
    const { client } = await setup(MODERN);
    await client.callTool('test_tool_with_logging');
    assert.equal(client.tap.notifications('notifications/message').length, 0, 'no opt-in, no logs');
    await client.request('tools/call', {
      name: 'test_tool_with_logging',
      _meta: { [MetaKey.LogLevel]: 'warning' },
    });
    assert.equal(client.tap.notifications('notifications/message').length, 0, 'info < warning');
    await client.request('tools/call', {
      name: 'test_tool_with_logging',
      _meta: { [MetaKey.LogLevel]: 'info' },
    });
    const logs = client.tap.notifications('notifications/message');
    assert.deepEqual(
      logs.map((m) => params(m).level),
      ['info', 'info', 'info'],
    );
  });
});

for (const revision of [LEGACY, MODERN]) {
  describe(`progress and cancellation, ${revision}`, () => {
    test('test_tool_with_progress reports 0, 50, 100 of 100 with the request token', async () => {
      const { client } = await setup(revision);
      const seen: Progress[] = [];
      await client.callTool('test_tool_with_progress', {}, { onprogress: (p) => seen.push(p) });
      assert.deepEqual(seen, [
        { progress: 0, total: 100 },
        { progress: 50, total: 100 },
        { progress: 100, total: 100 },
      ]);
      const call = client.tap.requestsFrom('client', 'tools/call').at(-1);
      const token = meta(call).progressToken;
      assert.notEqual(token, undefined);
      for (const n of client.tap.notifications('notifications/progress')) {
        assert.equal(params(n).progressToken, token);
      }
    });

    test('echoes whatever progress token arrives, and sends none without one', async () => {
      const { client } = await setup(revision);
      await client.request('tools/call', {
        name: 'test_tool_with_progress',
        _meta: { progressToken: 'my-token' },
      });
      const tokens = client.tap.notifications('notifications/progress').map((n) => params(n).progressToken);
      assert.deepEqual(tokens, ['my-token', 'my-token', 'my-token']);
      await client.callTool('test_tool_with_progress');
      assert.equal(client.tap.notifications('notifications/progress').length, 3);
    });

    test('slow_count reports every step', async () => {
      const { client } = await setup(revision, 5);
      const seen: Progress[] = [];
      const r = await client.callTool('slow_count', { n: 3 }, { onprogress: (p) => seen.push(p) });
      assert.equal((r.content as Obj[])[0]?.text, 'Counted to 3');
      assert.deepEqual(
        seen.map((p) => [p.progress, p.total, p.message]),
        [
          [1, 3, 'Counted 1 of 3'],
          [2, 3, 'Counted 2 of 3'],
          [3, 3, 'Counted 3 of 3'],
        ],
      );
    });

    test('notifications/cancelled stops slow_count and no response arrives', async () => {
      const { client, serverSession } = await setup(revision);
      const ac = new AbortController();
      let steps = 0;
      // Cancel once two steps are done, so the call is surely running on the server.
      const onprogress = () => {
        if (++steps === 2) ac.abort('changed my mind');
      };
      const call = client.callTool('slow_count', { n: 500 }, { signal: ac.signal, onprogress });
      await assert.rejects(call, isCancelled);
      const id = client.tap.requestsFrom('client', 'tools/call').at(-1)?.id;
      const cancel = client.tap.notifications('notifications/cancelled', 'client');
      assert.deepEqual(params(cancel[0]), { requestId: id, reason: 'changed my mind' });
      // The handler has ended (its pause rejects on abort), so it can send nothing more.
      await waitFor(() => serverSession.inboundCount === 0);
      await barrier(client);
      assert.deepEqual(client.tap.responses(id), [], 'a cancelled request gets no response');
      assert.equal(client.tap.notifications('notifications/progress').length, 2, 'counting stopped');
    });
  });
}

describe('cancellation while the server waits for the client, legacy', () => {
  test('cancelling the tool call also cancels its elicitation request', async () => {
    const { client, serverSession } = await setup(LEGACY);
    let answer!: () => void;
    client.script.hold = new Promise<void>((r) => (answer = r));
    const ac = new AbortController();
    const call = client.callTool('test_elicitation', { message: 'Still there?' }, { signal: ac.signal });
    const asked = await waitFor(() => client.tap.requestsFrom('server', 'elicitation/create')[0]);
    ac.abort('never mind');
    await assert.rejects(call, isCancelled);
    // The server passes the cancellation on to its own request to us.
    const cancelled = await waitFor(() => client.tap.notifications('notifications/cancelled')[0]);
    assert.equal(params(cancelled).requestId, asked.id);
    await waitFor(() => serverSession.inboundCount === 0 && serverSession.pendingCount === 0);
    answer(); // the late answer is ignored
    await settle(); // the script's answer goes out...
    await barrier(client); // ...and the server has handled it by the time this comes back
    const callId = client.tap.requestsFrom('client', 'tools/call')[0]?.id;
    assert.deepEqual(client.tap.responses(callId), []);
  });
});

describe('subscriptions and list changes, legacy', () => {
  test('resources/subscribe → notifications/resources/updated until unsubscribed', async () => {
    const { client, server } = await setup(LEGACY);
    const updates = () => client.tap.notifications('notifications/resources/updated');
    assert.deepEqual(await client.request('resources/subscribe', { uri: WATCHED_RESOURCE_URI }), {});
    server.resourceUpdated(WATCHED_RESOURCE_URI);
    server.resourceUpdated('test://static-text'); // not subscribed: not sent
    await waitFor(() => updates().length === 1);
    assert.deepEqual(params(updates()[0]), { uri: WATCHED_RESOURCE_URI });
    // The demo tool changes the resource and notifies too.
    await client.callTool('touch_watched_resource');
    await waitFor(() => updates().length === 2);
    const read = await client.request('resources/read', { uri: WATCHED_RESOURCE_URI });
    assert.match(String((read.contents as Obj[])[0]?.text), /revision 1$/);
    assert.deepEqual(await client.request('resources/unsubscribe', { uri: WATCHED_RESOURCE_URI }), {});
    server.resourceUpdated(WATCHED_RESOURCE_URI);
    await barrier(client);
    assert.equal(updates().length, 2);
  });

  test('a tool registered at runtime is announced with list_changed, and its removal too', async () => {
    const { client, server } = await setup(LEGACY);
    const changes = () => client.tap.notifications('notifications/tools/list_changed');
    const reg = server.tool(
      { name: 'runtime_tool', description: 'Added later', input: { type: 'object' } },
      () => 'late but here',
    );
    await waitFor(() => changes().length === 1);
    const names = async () => ((await client.request('tools/list')).tools as Obj[]).map((t) => t.name);
    assert.ok((await names()).includes('runtime_tool'));
    assert.equal(((await client.callTool('runtime_tool')).content as Obj[])[0]?.text, 'late but here');
    reg.remove();
    await waitFor(() => changes().length === 2);
    assert.ok(!(await names()).includes('runtime_tool'));
  });
});

describe('subscriptions and list changes, modern', () => {
  test('subscriptions/listen: acknowledged, tagged notifications, ended by notifications/cancelled', async () => {
    const { client, server, serverSession } = await setup(MODERN);
    const ac = new AbortController();
    const listen = client.session.request(
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [WATCHED_RESOURCE_URI], toolsListChanged: true } },
      { signal: ac.signal },
    );
    const ack = await waitFor(() => client.tap.notifications('notifications/subscriptions/acknowledged')[0]);
    const listenId = client.tap.requestsFrom('client', 'subscriptions/listen')[0]?.id;
    assert.equal(meta(ack)[MetaKey.SubscriptionId], listenId);
    assert.deepEqual(params(ack).notifications, {
      toolsListChanged: true,
      resourceSubscriptions: [WATCHED_RESOURCE_URI],
    });

    server.resourceUpdated(WATCHED_RESOURCE_URI);
    server.resourceUpdated('test://static-text'); // not asked for
    server.prompt({ name: 'late_prompt' }, () => []); // promptsListChanged not asked for
    const reg = server.tool({ name: 'late_tool', input: { type: 'object' } }, () => 'x');
    const tagged = () =>
      client.tap.notifications().filter((n) => meta(n)[MetaKey.SubscriptionId] === listenId);
    await waitFor(() => tagged().length === 3);
    assert.deepEqual(
      tagged().map((n) => [n.method, params(n).uri]),
      [
        ['notifications/subscriptions/acknowledged', undefined],
        ['notifications/resources/updated', WATCHED_RESOURCE_URI],
        ['notifications/tools/list_changed', undefined],
      ],
    );

    ac.abort('done listening');
    await assert.rejects(listen, isCancelled);
    assert.deepEqual(params(client.tap.notifications('notifications/cancelled', 'client')[0]), {
      requestId: listenId,
      reason: 'done listening',
    });
    await waitFor(() => serverSession.inboundCount === 0);
    // A second stream as the barrier: the same changes reach it, so once they have, anything
    // the ended stream would have got has arrived too.
    const ac2 = new AbortController();
    const second = client.session.request(
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [WATCHED_RESOURCE_URI], toolsListChanged: true } },
      { signal: ac2.signal },
    );
    await waitFor(() => client.tap.notifications('notifications/subscriptions/acknowledged').length === 2);
    const secondId = client.tap.requestsFrom('client', 'subscriptions/listen')[1]?.id;
    const onSecond = () =>
      client.tap.notifications().filter((n) => meta(n)[MetaKey.SubscriptionId] === secondId);
    server.resourceUpdated(WATCHED_RESOURCE_URI);
    reg.remove();
    await waitFor(() => onSecond().length === 3, undefined, 'the changes on the second stream');
    assert.equal(tagged().length, 3, 'nothing after the stream ended');
    assert.deepEqual(client.tap.responses(listenId), [], 'a cancelled listen gets no response');
    ac2.abort('done');
    await assert.rejects(second, isCancelled);
  });

  test('without a listen stream, a modern connection receives no change notifications', async () => {
    const { client, server } = await setup(MODERN);
    server.resourceUpdated(WATCHED_RESOURCE_URI);
    server.tool({ name: 'late_tool', input: { type: 'object' } }, () => 'x');
    await client.callTool('touch_watched_resource');
    // The barrier: a listen stream opened now gets the next change; anything sent without
    // one before that has arrived by then.
    const ac = new AbortController();
    const listen = client.session.request(
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [WATCHED_RESOURCE_URI] } },
      { signal: ac.signal },
    );
    await waitFor(() => client.tap.notifications('notifications/subscriptions/acknowledged').length === 1);
    server.resourceUpdated(WATCHED_RESOURCE_URI);
    await waitFor(() => client.tap.notifications('notifications/resources/updated').length === 1);
    const untagged = client.tap.notifications().filter((n) => meta(n)[MetaKey.SubscriptionId] === undefined);
    assert.deepEqual(untagged, []);
    ac.abort('done');
    await assert.rejects(listen, isCancelled);
  });

  test('server.close() ends a listen stream gracefully with its result', async () => {
    const { client, server } = await setup(MODERN);
    const listen = client.session.request('subscriptions/listen', {
      notifications: { resourcesListChanged: true },
    });
    await waitFor(() => client.tap.notifications('notifications/subscriptions/acknowledged')[0]);
    await server.close();
    const result = await listen;
    const listenId = client.tap.requestsFrom('client', 'subscriptions/listen')[0]?.id;
    assert.equal((result._meta as Obj)[MetaKey.SubscriptionId], listenId);
    assert.equal(result.resultType, 'complete');
  });
});
