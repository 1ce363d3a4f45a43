// A client that answers a server's question with an error: the handler sees a rejection it
// can catch (QuestionRefused, the client's WireError in `cause`); uncaught, the tool's result
// is a tool error naming it, and the call itself succeeds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '../client/client.js';
import { LocalError, WireError } from '../jsonrpc/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { McpServer } from './server.js';

const ASK = {
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
} as const;

async function pair(): Promise<Client> {
  const server = new McpServer({ name: 'asker', version: '1' });
  server.tool({ name: 'uncaught', input: { type: 'object' } }, async (_args, ctx) => {
    const answer = await ctx.elicit(ASK);
    return `Hello ${String(answer.content?.name)}`;
  });
  server.tool({ name: 'caught', input: { type: 'object' } }, async (_args, ctx) => {
    try {
      await ctx.elicit(ASK);
      return 'answered';
    } catch (e) {
      const code = e instanceof LocalError && e.cause instanceof WireError ? e.cause.code : undefined;
      return `refused: ${e instanceof LocalError ? e.code : 'other'} ${String(code)}`;
    }
  });
  const [a, b] = memoryPair();
  await server.connect(b);
  const client = new Client(
    { name: 'refuser', version: '1' },
    {
      era: 'legacy',
      handlers: {
        elicitation: () => {
          throw new WireError(-1, 'The user closed the dialog');
        },
      },
    },
  );
  await client.connect(a);
  return client;
}

describe('a question the client answers with an error', () => {
  test('uncaught, it is a tool error result naming the refusal, not an error of the call', async () => {
    const client = await pair();
    const result = await client.callTool({ name: 'uncaught', arguments: {} });
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [
      {
        type: 'text',
        text: 'The client answered elicitation/create with an error: The user closed the dialog (code -1)',
      },
    ]);
    await client.close();
  });

  test('the handler can catch it and read the client’s code', async () => {
    const client = await pair();
    const result = await client.callTool({ name: 'caught', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'refused: QuestionRefused -1' }]);
    await client.close();
  });
});
