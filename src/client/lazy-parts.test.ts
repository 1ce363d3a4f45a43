// Parts of the client that importing `mcpkit` or `mcpkit/client` does not load: the
// subscription hub (it loads with the first connection, before anything is sent) and the
// receiver of task-augmented server requests (only for clients that set `taskRequests`).
// Module lists, in fresh processes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modulesLoadedBy } from '../test-support/loaded-modules.js';

const SUBSCRIPTIONS = 'client/subscriptions.js';
const RECEIVER = 'client/task-receiver.js';

const has = (modules: string[], file: string): boolean =>
  modules.some((m) => m.startsWith('file:') && m.endsWith(`/dist/${file}`));

const connectCode = (clientOptions: string, check: string): string => `
  const { McpServer, Client, memoryPair } = await import('./index.js');
  const server = new McpServer({ name: 's', version: '1' });
  server.resource({ uri: 'mem://a', name: 'a' }, () => [{ uri: 'mem://a', text: 'A' }]);
  const [a, b] = memoryPair();
  await server.connect(a);
  const client = new Client({ name: 'c', version: '1' }, ${clientOptions});
  await client.connect(b);
  ${check}
  await client.close();
  await server.close();`;

describe('client parts that load on first use', () => {
  test('importing mcpkit or mcpkit/client loads neither the subscription hub nor the task receiver', () => {
    for (const entry of ['./index.js', './client/index.js']) {
      const loaded = modulesLoadedBy(`await import('${entry}');`);
      assert.ok(!has(loaded, SUBSCRIPTIONS), `${entry} loaded ${SUBSCRIPTIONS}`);
      assert.ok(!has(loaded, RECEIVER), `${entry} loaded ${RECEIVER}`);
    }
  });

  test('a connection loads the hub, and subscribing works; without taskRequests no receiver', () => {
    const code = connectCode(
      '{}',
      `const sub = await client.subscribe({ resources: ['mem://a'] });
      const next = sub[Symbol.asyncIterator]().next();
      server.resourceUpdated('mem://a');
      const { value } = await next;
      if (value.kind !== 'resource' || value.uri !== 'mem://a') throw new Error('bad event ' + JSON.stringify(value));
      await sub.close();`,
    );
    const loaded = modulesLoadedBy(code);
    assert.ok(has(loaded, SUBSCRIPTIONS));
    assert.ok(!has(loaded, RECEIVER));
  });

  test('a client with taskRequests loads the receiver when it connects, and declares it', () => {
    const code = connectCode(
      `{ taskRequests: true, handlers: { elicitation: () => ({ action: 'decline' }) } }`,
      `const tasks = client.clientCapabilities.tasks;
      if (!tasks || !tasks.requests.elicitation.create) throw new Error('no tasks capability');`,
    );
    assert.ok(has(modulesLoadedBy(code), RECEIVER));
  });
});
