/**
 * Interceptors on notifications (the `notification` phase), both ways on both sides, in both
 * eras over memory (one over HTTP): an outbound validator that keeps a secret log line from leaving, a
 * client mutator on inbound progress, an inbound refusal on the server, order kept through
 * an asynchronous mutator, and nothing changed without interceptors.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/client.js';
import type { ClientInterceptor } from '../client/interceptors.js';
import type { JsonRpcNotification, Params } from '../jsonrpc/index.js';
import { Session } from '../session/session.js';
import { serve } from '../serve/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { waitFor } from '../test-support/waiting.js';
import type { ServerInterceptor } from './middleware.js';
import { McpServer } from './server.js';

type Era = 'legacy' | 'modern';

async function open(
  server: McpServer,
  era: Era,
  interceptors: ClientInterceptor[] = [],
): Promise<{ client: Client; seen: JsonRpcNotification[]; close(): Promise<void> }> {
  const client = new Client({ name: 'c', version: '1' }, { era, logger: () => undefined, interceptors });
  const seen: JsonRpcNotification[] = [];
  client.onnotification = (n) => void seen.push(n);
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return { client, seen, close: async () => (await client.close(), await server.close()) };
}

function chattyServer(logs: unknown[] = []): McpServer {
  const server = new McpServer({ name: 's', version: '1' }, { logger: (l, m) => void logs.push([l, m]) });
  server.tool({ name: 'chat' }, (_args, ctx) => {
    ctx.log('info', 'password=secret');
    ctx.log('info', 'all fine');
    for (let i = 1; i <= 50; i++) ctx.progress(i, 50);
    return 'done';
  });
  return server;
}

const dataOf = (seen: JsonRpcNotification[]): unknown[] =>
  seen.filter((n) => n.method === 'notifications/message').map((n) => n.params?.data);

for (const era of ['legacy', 'modern'] as const) {
  describe(`notification interceptors, ${era} over memory`, () => {
    test('a server validator keeps a log line with a secret from being sent', async () => {
      const logs: unknown[] = [];
      const server = chattyServer(logs);
      const noSecrets: ServerInterceptor = {
        type: 'validation',
        name: 'no-secrets',
        events: ['notifications/message'],
        phases: ['notification'],
        validate: (params) => !JSON.stringify(params).includes('secret'),
      };
      server.use(noSecrets);
      const { client, seen, close } = await open(server, era);
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'chat', arguments: {} });
      await waitFor(() => dataOf(seen).includes('all fine'), undefined, 'the harmless log line');
      assert.deepEqual(dataOf(seen), ['all fine']);
      assert.ok(logs.some((l) => String((l as unknown[])[1]).includes('not sent')));
      await close();
    });

    test('a client mutator changes inbound progress; an async one keeps 50 in order', async () => {
      const server = chattyServer();
      const seenByMutator: number[] = [];
      const halve: ClientInterceptor = {
        type: 'mutation',
        name: 'halve',
        events: ['notifications/*'],
        phases: ['notification'],
        mutate: async (params) => {
          const p = params as Params;
          if (typeof p.progress !== 'number') return undefined;
          seenByMutator.push(p.progress);
          // A later progress must not overtake an earlier one still in here.
          await new Promise<void>((resolve) => setImmediate(resolve));
          return { ...p, progress: p.progress / 2 };
        },
      };
      const { client, close } = await open(server, era, [halve]);
      const progress: number[] = [];
      await client.callTool(
        { name: 'chat', arguments: {} },
        { onprogress: (p) => void progress.push(p.progress) },
      );
      await waitFor(() => progress.length === 50, undefined, '50 progress notifications');
      assert.deepEqual(
        progress,
        Array.from({ length: 50 }, (_, i) => (i + 1) / 2),
      );
      assert.equal(seenByMutator.length, 50);
      await close();
    });

    test('no interceptors: notifications arrive unchanged', async () => {
      const server = chattyServer();
      const { client, seen, close } = await open(server, era);
      await client.setLoggingLevel('debug');
      const progress: number[] = [];
      await client.callTool(
        { name: 'chat', arguments: {} },
        { onprogress: (p) => void progress.push(p.progress) },
      );
      await waitFor(
        () => dataOf(seen).length === 2 && progress.length === 50,
        undefined,
        'all notifications',
      );
      assert.deepEqual(dataOf(seen), ['password=secret', 'all fine']);
      assert.deepEqual(
        progress,
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      await close();
    });
  });
}

test('over HTTP (modern): the secret log line is not sent, the rest is', async () => {
  const server = chattyServer();
  server.use({
    type: 'validation',
    name: 'no-secrets',
    events: ['notifications/message'],
    phases: ['notification'],
    validate: (params) => !JSON.stringify(params).includes('secret'),
  });
  const running = await serve(server, { port: 0 });
  const client = new Client({ name: 'c', version: '1' }, { era: 'modern', logger: () => undefined });
  const seen: JsonRpcNotification[] = [];
  client.onnotification = (n) => void seen.push(n);
  await client.connect(new StreamableHttpClientTransport({ url: running.url }));
  await client.setLoggingLevel('debug');
  await client.callTool({ name: 'chat', arguments: {} });
  await waitFor(() => dataOf(seen).includes('all fine'), undefined, 'the harmless log line');
  assert.deepEqual(dataOf(seen), ['all fine']);
  await client.close();
  await running.close();
});

test('the server drops an inbound notification its validator refuses (legacy session)', async () => {
  const logs: unknown[] = [];
  const server = new McpServer({ name: 's', version: '1' }, { logger: (l, m) => void logs.push([l, m]) });
  server.use({
    type: 'validation',
    name: 'no-shouting',
    events: ['notifications/*'],
    phases: ['notification'],
    validate: (params) => (params as { text?: string }).text !== 'LOUD',
  });
  const [a, b] = memoryPair();
  const serverSession = await server.connect(b);
  const heard: unknown[] = [];
  serverSession.setNotificationHandler('notifications/say', (p) => void heard.push(p.text));
  const session = new Session({ role: 'client', info: { name: 'c', version: '1' }, logger: false });
  await session.connect(a);
  await session.initialize();
  await session.notify('notifications/say', { text: 'LOUD' });
  await session.notify('notifications/say', { text: 'quiet' });
  await waitFor(() => heard.length === 1, undefined, 'the quiet notification');
  assert.deepEqual(heard, ['quiet']);
  assert.ok(logs.some((l) => String((l as unknown[])[1]).includes('dropped')));
  await session.close();
  await server.close();
});
