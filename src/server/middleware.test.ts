/**
 * Server middleware through our Client over the memory transport, in both eras: the
 * onion order, answering without `next()`, errors, and `params` narrowed by `method`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/client.js';
import { WireError } from '../jsonrpc/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { McpServer } from './server.js';
import { toolError } from './tools.js';
import type { Middleware } from './middleware.js';

async function pair(server: McpServer, era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' }, { era, logger: () => undefined });
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return client;
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`middleware, ${era} era`, () => {
    test('runs as an onion, first added outermost, around lists, calls and reads', async () => {
      const trace: string[] = [];
      const layer =
        (name: string): Middleware =>
        async ({ method }, next) => {
          trace.push(`${name}>${method}`);
          const r = await next();
          trace.push(`${name}<${method}`);
          return r;
        };
      const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
      server.use(layer('outer')).use(layer('inner'));
      server.tool({ name: 'echo' }, (args) => {
        trace.push('handler');
        return JSON.stringify(args);
      });
      server.resource({ uri: 'mem://a', name: 'a' }, (uri) => [{ uri, text: 'A' }]);
      const client = await pair(server, era);
      await client.listTools();
      await client.callTool({ name: 'echo', arguments: { x: 1 } });
      await client.readResource({ uri: 'mem://a' });
      assert.deepEqual(trace, [
        'outer>tools/list',
        'inner>tools/list',
        'inner<tools/list',
        'outer<tools/list',
        'outer>tools/call',
        'inner>tools/call',
        'handler',
        'inner<tools/call',
        'outer<tools/call',
        'outer>resources/read',
        'inner>resources/read',
        'inner<resources/read',
        'outer<resources/read',
      ]);
      await client.close();
      await server.close();
    });

    test('narrows params by method, answers without next(), and its errors reach the client', async () => {
      const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
      let reached = 0;
      server.use((request, next) => {
        if (request.method === 'tools/call') {
          // Typed: `name` is the tool name (string | undefined: params are as sent).
          const name: string | undefined = request.params.name;
          if (name === 'blocked') return toolError('blocked by policy');
          if (name === 'forbidden') throw new WireError(-32001, 'Not allowed');
          if (name === 'broken') throw new Error('secret detail');
          if (name === 'twice') return next().then(() => next());
        }
        return next();
      });
      server.tool({ name: 'ok' }, () => (reached++, 'fine'));
      for (const name of ['blocked', 'forbidden', 'broken', 'twice'])
        server.tool({ name }, () => (reached++, 'x'));
      const client = await pair(server, era);
      const blocked = await client.callTool({ name: 'blocked' });
      assert.deepEqual(
        { content: blocked.content, isError: blocked.isError },
        toolError('blocked by policy'),
      );
      await assert.rejects(client.callTool({ name: 'forbidden' }), { code: -32001, message: 'Not allowed' });
      await assert.rejects(
        client.callTool({ name: 'broken' }),
        (e: unknown) => e instanceof WireError && e.code === -32603 && !e.message.includes('secret'),
      );
      await assert.rejects(client.callTool({ name: 'twice' }), { code: -32603 });
      assert.equal(reached, 1, 'only twice reached its handler, once');
      assert.equal((await client.callTool({ name: 'ok' })).isError, undefined);
      await client.close();
      await server.close();
    });
  });
}
