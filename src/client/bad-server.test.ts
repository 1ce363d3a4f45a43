import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import type { LocalErrorCode } from '../jsonrpc/index.js';
import { Client } from './client.js';
import { CLIENT_INFO, collect, keepAlive, rawLegacyServer } from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import { settle } from '../test-support/waiting.js';

function isLocal(code: LocalErrorCode, includes?: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof LocalError, `expected LocalError ${code}, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (includes) assert.ok(e.message.includes(includes), e.message);
    return true;
  };
}

type Reply = (msg: Obj, send: (m: Obj | string) => void) => void;

async function clientFor(reply: Reply, logged: string[] = []): Promise<Client> {
  const transport = rawLegacyServer((msg, peer) => reply(msg, (m) => peer.send(m)));
  const client = new Client(CLIENT_INFO, {
    era: 'legacy',
    logger: (_l, m) => logged.push(m),
    timeoutMs: 200,
  });
  await client.connect(transport);
  return client;
}

const ok = (msg: Obj, result: Obj): Obj => ({ jsonrpc: '2.0', id: msg.id, result });

describe('a misbehaving server', () => {
  let release: () => void;
  before(() => (release = keepAlive()));
  after(() => release());

  test('garbage lines and answers to unknown ids are logged and ignored', async () => {
    const logged: string[] = [];
    const client = await clientFor((msg, send) => {
      send('this is not json');
      send('{"jsonrpc":"2.0","id":9999,"result":{}}');
      send({ jsonrpc: '2.0', id: 'nobody', error: { code: 1, message: 'stray' } });
      send(ok(msg, { tools: [{ name: 't', inputSchema: { type: 'object' } }] }));
    }, logged);
    assert.equal((await client.listTools()).tools.length, 1);
    assert.ok(logged.some((m) => m.includes('Invalid message')));
    assert.ok(logged.some((m) => m.includes('unknown request id')));
    assert.ok(logged.some((m) => m.includes('without a matching request')));
    await client.close();
  });

  test('a malformed response to a pending request fails that request only', async () => {
    let n = 0;
    const client = await clientFor((msg, send) => {
      if (n++ === 0) send(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":5}`);
      else send(ok(msg, { tools: [] }));
    });
    await assert.rejects(client.listTools(), isLocal('InvalidMessage'));
    assert.deepEqual((await client.listTools()).tools, []);
    await client.close();
  });

  for (const [method, call, result, field] of [
    ['tools/list', (c: Client) => c.listTools(), { tools: 'nope' }, 'tools'],
    ['tools/call', (c: Client) => c.callTool({ name: 'x' }), { content: 'text' }, 'content'],
    ['resources/list', (c: Client) => c.listResources(), {}, 'resources'],
    [
      'resources/templates/list',
      (c: Client) => c.listResourceTemplates(),
      { resourceTemplates: {} },
      'resourceTemplates',
    ],
    ['resources/read', (c: Client) => c.readResource({ uri: 'x' }), { contents: null }, 'contents'],
    ['prompts/list', (c: Client) => c.listPrompts(), { prompts: 1 }, 'prompts'],
    ['prompts/get', (c: Client) => c.getPrompt({ name: 'p' }), {}, 'messages'],
    [
      'completion/complete',
      (c: Client) =>
        c.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
      { completion: [] },
      'completion',
    ],
  ] as const) {
    test(`a ${method} result without ${field} is InvalidResult; the connection stays usable`, async () => {
      const client = await clientFor((msg, send) => {
        if (msg.method === 'ping') send(ok(msg, {}));
        else send(ok(msg, result as Obj));
      });
      await assert.rejects(call(client) as Promise<unknown>, isLocal('InvalidResult', field));
      await client.ping();
      await client.close();
    });
  }

  test('a non-string nextCursor is InvalidResult', async () => {
    const client = await clientFor((msg, send) => send(ok(msg, { tools: [], nextCursor: 42 })));
    await assert.rejects(client.listTools(), isLocal('InvalidResult', 'nextCursor'));
    await client.close();
  });

  test('a server that repeats its cursor forever: the iterator stops with a clear error', async () => {
    let pages = 0;
    const client = await clientFor((msg, send) => {
      pages++;
      send(
        ok(msg, {
          tools: [{ name: `t${pages}`, inputSchema: { type: 'object' } }],
          nextCursor: 'same',
        }),
      );
    });
    await assert.rejects(collect(client.tools()), isLocal('InvalidResult', 'twice'));
    assert.equal(pages, 2);
    await client.close();
  });

  test('a server that stops answering: the call times out and nothing stays pending', async () => {
    const client = await clientFor(() => undefined);
    await assert.rejects(client.listTools(), isLocal('RequestTimeout'));
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('an outputSchema that cannot be compiled is a readable InvalidResult', async () => {
    const client = await clientFor((msg, send) => {
      if (msg.method === 'tools/list') {
        send(
          ok(msg, {
            tools: [
              {
                name: 'w',
                inputSchema: { type: 'object' },
                outputSchema: { $ref: 'https://nowhere.example/s.json' },
              },
            ],
          }),
        );
      } else {
        send(ok(msg, { content: [], structuredContent: {} }));
      }
    });
    await client.listTools();
    await assert.rejects(client.callTool({ name: 'w' }), isLocal('InvalidResult', 'cannot be compiled'));
    await client.close();
  });

  test('a tool with an outputSchema but no structuredContent is InvalidResult', async () => {
    const client = await clientFor((msg, send) => {
      if (msg.method === 'tools/list') {
        send(
          ok(msg, {
            tools: [{ name: 'w', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }],
          }),
        );
      } else {
        send(ok(msg, { content: [] }));
      }
    });
    await client.listTools();
    await assert.rejects(client.callTool({ name: 'w' }), isLocal('InvalidResult', 'no structuredContent'));
    await client.close();
  });

  test('draft-07 and 2020-12 output schemas are both understood; a list change forgets old schemas', async () => {
    let version = 1;
    const client = await clientFor((msg, send) => {
      if (msg.method === 'tools/list') {
        send(
          ok(msg, {
            tools: [
              {
                name: 'd7',
                inputSchema: { type: 'object' },
                outputSchema: {
                  $schema: 'http://json-schema.org/draft-07/schema#',
                  type: 'object',
                  definitions: { n: { type: 'number' } },
                  properties: { v: { $ref: '#/definitions/n' } },
                },
              },
              {
                name: 'd2020',
                inputSchema: { type: 'object' },
                outputSchema: {
                  $schema: 'https://json-schema.org/draft/2020-12/schema',
                  type: 'object',
                  $defs: { n: { type: 'number' } },
                  properties: { v: { $ref: '#/$defs/n' } },
                  additionalProperties: false,
                },
              },
            ],
          }),
        );
      } else {
        send(ok(msg, { content: [], structuredContent: { v: version === 1 ? 1 : 'x' } }));
      }
    });
    await client.listTools();
    await client.callTool({ name: 'd7' });
    await client.callTool({ name: 'd2020' });
    version = 2;
    await assert.rejects(client.callTool({ name: 'd7' }), isLocal('InvalidResult', 'must be number'));
    await assert.rejects(client.callTool({ name: 'd2020' }), isLocal('InvalidResult'));
    await client.close();
    await settle();
  });
});
