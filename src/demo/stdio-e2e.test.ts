/**
 * The everything server as a real child process (`node dist/demo/everything-stdio.js`),
 * driven through StdioClientTransport by a raw client Session, in both eras. Every message
 * either side emits is checked against the official schema of the revision in use.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { LocalError } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import type { Progress } from '../session/index.js';
import { Session } from '../session/index.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import { waitFor } from '../test-support/waiting.js';

const ENTRY = fileURLToPath(new URL('./everything-stdio.js', import.meta.url));
const MODERN = '2026-07-28';

const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) {
    await c.close();
    c.tap.assertValid();
  }
});

async function spawnServer(revision: string, env: Record<string, string> = {}): Promise<TestClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ENTRY],
    env: { MCPKIT_DEMO_STEP_MS: '10', ...env },
    stderr: 'ignore',
  });
  const client = await openClient(transport, revision);
  clients.push(client);
  return client;
}

const text = (r: Obj) => String((r.content as Obj[])[0]?.text);
const params = (m: Obj | undefined) => (m?.params ?? {}) as Obj;

describe('everything server over stdio, legacy', () => {
  test('2025-11-25: tools, server-to-client requests, progress and logging over real pipes', async () => {
    const client = await spawnServer('2025-11-25');
    assert.equal(client.session.peerInfo?.name, 'mcpkit-everything');
    const { tools } = (await client.request('tools/list')) as { tools: Obj[] };
    assert.ok(tools.length >= 17);
    assert.equal(
      text(await client.callTool('test_simple_text')),
      'This is a simple text response for testing.',
    );
    // Sampling, elicitation and roots travel as requests from the child to us.
    assert.equal(
      text(await client.callTool('test_sampling', { prompt: 'ping?' })),
      'LLM response: Echo: ping?',
    );
    assert.match(text(await client.callTool('test_elicitation', { message: 'Name?' })), /action=accept/);
    assert.equal(text(await client.callTool('list_roots')), 'project: file:///home/user/project');
    assert.deepEqual(
      client.tap.requestsFrom('server').map((r) => r.method),
      ['sampling/createMessage', 'elicitation/create', 'roots/list'],
    );
    const seen: Progress[] = [];
    await client.callTool('test_tool_with_progress', {}, { onprogress: (p) => seen.push(p) });
    assert.deepEqual(
      seen.map((p) => p.progress),
      [0, 50, 100],
    );
    await client.request('logging/setLevel', { level: 'info' });
    await client.callTool('test_tool_with_logging');
    assert.equal(client.tap.notifications('notifications/message').length, 3);
    const read = await client.request('resources/read', { uri: 'test://template/7/data' });
    assert.match(String((read.contents as Obj[])[0]?.text), /Data for ID: 7/);
  });

  test('resources/subscribe over stdio: touch_watched_resource notifies', async () => {
    const client = await spawnServer('2025-06-18');
    await client.request('resources/subscribe', { uri: 'test://watched-resource' });
    await client.callTool('touch_watched_resource');
    const update = await waitFor(() => client.tap.notifications('notifications/resources/updated')[0]);
    assert.deepEqual(params(update), { uri: 'test://watched-resource' });
  });
});

describe('everything server over stdio, modern', () => {
  test('input_required rounds, per-request log level and progress', async () => {
    const client = await spawnServer(MODERN);
    const sampled = await client.callTool('test_sampling', { prompt: 'modern?' });
    assert.equal(text(sampled), 'LLM response: Echo: modern?');
    assert.equal(client.rounds, 1);
    const trip = await client.callTool('plan_trip', { destination: 'Oslo' });
    assert.equal(text(trip), '3 days in Oslo: Echo: Plan a 3-day trip to Oslo.');
    assert.equal(client.rounds, 2);
    // Modern servers send no requests: every question came back inside a result.
    assert.deepEqual(client.tap.requestsFrom('server'), []);

    await client.callTool('test_tool_with_logging');
    assert.equal(client.tap.notifications('notifications/message').length, 0, 'no opt-in');
    await client.request('tools/call', {
      name: 'test_tool_with_logging',
      _meta: { [MetaKey.LogLevel]: 'debug' },
    });
    assert.equal(client.tap.notifications('notifications/message').length, 3);
    const seen: Progress[] = [];
    await client.callTool('slow_count', { n: 4 }, { onprogress: (p) => seen.push(p) });
    assert.deepEqual(
      seen.map((p) => p.progress),
      [1, 2, 3, 4],
    );
  });

  test('subscriptions/listen over stdio, ended by notifications/cancelled', async () => {
    const client = await spawnServer(MODERN);
    const ac = new AbortController();
    const listen = client.session.request(
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: ['test://watched-resource'] } },
      { signal: ac.signal },
    );
    await waitFor(() => client.tap.notifications('notifications/subscriptions/acknowledged')[0]);
    await client.callTool('touch_watched_resource');
    const update = await waitFor(() => client.tap.notifications('notifications/resources/updated')[0]);
    const listenId = client.tap.requestsFrom('client', 'subscriptions/listen')[0]?.id;
    assert.equal((params(update)._meta as Obj)[MetaKey.SubscriptionId], listenId);
    ac.abort();
    await assert.rejects(listen, (e) => e instanceof LocalError && e.code === 'Cancelled');
    // The child still serves after the stream ended.
    assert.equal(text(await client.callTool('echo', { text: 'still here' })), 'still here');
  });
});

describe('StdioClientTransport failures', () => {
  test('a command that does not exist rejects with SpawnFailed', async () => {
    const session = new Session({ role: 'client', info: { name: 't', version: '1' } });
    const transport = new StdioClientTransport({ command: '/nonexistent/mcpkit-no-such-server' });
    await assert.rejects(
      session.connect(transport),
      (e) => e instanceof LocalError && e.code === 'SpawnFailed',
    );
  });

  test('a child killed mid-call rejects every pending request at once with ConnectionClosed', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY],
      env: { MCPKIT_DEMO_STEP_MS: '10' },
      stderr: 'ignore',
    });
    const client = await openClient(transport, '2025-11-25');
    clients.push(client);
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const long = client.callTool('slow_count', { n: 1000 }, { onprogress: () => first() });
    const other = client.callTool('slow_count', { n: 1000 });
    await started;
    const killedAt = Date.now();
    process.kill(transport.pid!, 'SIGKILL');
    const closed = (e: unknown) => e instanceof LocalError && e.code === 'ConnectionClosed';
    await assert.rejects(long, closed);
    await assert.rejects(other, closed);
    // Far below the 60 s request timeout, yet safe on a loaded machine.
    assert.ok(Date.now() - killedAt < 5000, 'rejected at once, not after a timeout');
    assert.equal(client.session.isOpen, false);
  });
});
