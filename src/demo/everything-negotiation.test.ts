/**
 * Version negotiation with the everything server: every legacy revision is negotiated and
 * served (each with what it has: no elicitation before 2025-06-18), an unknown offer gets
 * the latest legacy revision, and a modern client discovers the same capabilities.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServer } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, OpenClientOptions, TestClient } from '../test-support/mcp-harness.js';
import { createEverythingServer } from './everything-server.js';
import { DEMO_EXTENSIONS } from '../test-support/demo-cases.js';

const MODERN = '2026-07-28';

async function connect(
  server: McpServer,
  revision: string,
  options?: OpenClientOptions,
): Promise<TestClient> {
  const [clientSide, serverSide] = memoryPair();
  await server.connect(serverSide);
  return openClient(clientSide, revision, options);
}

const firstText = (r: Obj) => String((r.content as Obj[])[0]?.text);

describe('everything server: legacy version negotiation', () => {
  let server: McpServer;
  before(() => {
    server = createEverythingServer({ stepMs: 5 });
  });
  after(() => server.close());

  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
    test(`negotiates ${version} and serves it`, async () => {
      const client = await connect(server, version);
      const init = client.session;
      assert.equal(init.protocolVersion, version);
      assert.deepEqual(init.peerCapabilities, {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        // 2024-11-05 has no completions capability: completion/complete needs none there.
        ...(version === '2024-11-05' ? {} : { completions: {} }),
        // The task tools: the tasks capability exists from 2025-11-25 on.
        ...(version >= '2025-11-25'
          ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
          : {}),
        // The skills extension: the extensions capability exists from 2025-11-25 on.
        ...(version >= '2025-11-25' ? DEMO_EXTENSIONS : {}),
      });
      assert.equal(init.peerInfo?.name, 'mcpkit-everything');
      assert.deepEqual(await client.request('ping'), {});
      assert.equal(
        firstText(await client.callTool('test_simple_text')),
        'This is a simple text response for testing.',
      );
      assert.match(firstText(await client.callTool('test_sampling', { prompt: 'hi' })), /Echo: hi/);
      const elicited = await client.callTool('test_elicitation', { message: 'Name?' });
      // elicitation/create exists from 2025-06-18 on: earlier, the tool reports why it cannot ask.
      assert.equal(elicited.isError, version < '2025-06-18' ? true : undefined);
      const prompt = await client.request('prompts/get', { name: 'test_simple_prompt' });
      assert.equal((prompt.messages as Obj[]).length, 1);
      const values = (
        (
          await client.request('completion/complete', {
            ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
            argument: { name: 'arg1', value: 'te' },
          })
        ).completion as Obj
      ).values;
      assert.deepEqual(values, ['test', 'testing', 'tester']);
      assert.deepEqual(await client.request('logging/setLevel', { level: 'warning' }), {});
      client.tap.assertValid();
      await client.close();
    });
  }

  test('answers an unknown version with its latest legacy version', async () => {
    const client = await connect(server, '2025-11-25', { offer: '2099-01-01' });
    assert.equal(client.session.protocolVersion, '2025-11-25');
    client.tap.assertValid();
    await client.close();
  });

  test('a modern client discovers the same capabilities with server/discover', async () => {
    const client = await connect(server, MODERN);
    const found = await client.request('server/discover');
    assert.deepEqual(found.supportedVersions, [MODERN]);
    assert.deepEqual(Object.keys(found.capabilities as Obj).sort(), [
      'completions',
      'extensions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
    client.tap.assertValid();
    await client.close();
  });
});
