/**
 * `ServerOptions.timeoutMs` bounds the server's own requests to the client in the legacy era:
 * the questions a handler asks through its context (elicitation, sampling, roots) time out
 * after it, not after the 5-minute default, and `AskOptions.timeoutMs` still wins per question.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/client.js';
import type { HandlerContext } from '../client/index.js';
import { LocalError } from '../jsonrpc/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { McpServer } from './server.js';
import type { ServerContext } from './server-context.js';
import { within } from '../test-support/waiting.js';

const TIMEOUT_MS = 1000;

async function setup(serverTimeoutMs: number | undefined) {
  const cancelled: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const allCancelled = (count: number) =>
    new Promise<void>((resolve) => {
      if (cancelled.length >= count) resolve();
      else waiters.push({ count, resolve });
    });
  /** A client handler that never answers; it settles only when the server cancels it. */
  const silent =
    (what: string) =>
    (_params: unknown, ctx: HandlerContext): Promise<never> =>
      new Promise((_, reject) => {
        ctx.signal.addEventListener('abort', () => {
          cancelled.push(what);
          for (const w of waiters) if (cancelled.length >= w.count) w.resolve();
          reject(new Error('cancelled'));
        });
      });
  const server = new McpServer(
    { name: 's', version: '1' },
    { logger: () => undefined, ...(serverTimeoutMs !== undefined ? { timeoutMs: serverTimeoutMs } : {}) },
  );
  const ask: Record<string, (ctx: ServerContext) => Promise<unknown>> = {
    elicit: (ctx) =>
      ctx.elicit({
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
      }),
    sample: (ctx) =>
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
    roots: (ctx) => ctx.listRoots(),
    elicitPerQuestion: (ctx) =>
      ctx.elicit(
        { message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } },
        { timeoutMs: TIMEOUT_MS },
      ),
  };
  for (const [name, run] of Object.entries(ask)) {
    server.tool({ name }, async (_args, ctx) => {
      try {
        await run(ctx);
        return 'answered';
      } catch (e) {
        return e instanceof LocalError ? e.code : String(e);
      }
    });
  }
  const client = new Client(
    { name: 'c', version: '1' },
    {
      era: 'legacy',
      logger: () => undefined,
      handlers: {
        elicitation: silent('elicit'),
        sampling: silent('sample'),
        roots: silent('roots'),
      },
    },
  );
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  const call = async (name: string): Promise<string> => {
    const result = await within(client.callTool({ name }, { timeoutMs: 60_000 }), 30_000, name);
    const first = result.content[0] as { text?: string };
    return first.text ?? '';
  };
  return { server, client, cancelled, allCancelled, call };
}

describe('ServerOptions.timeoutMs (legacy era)', () => {
  test('applies to elicitation, sampling and roots asked through the handler context', async () => {
    const { server, client, cancelled, allCancelled, call } = await setup(TIMEOUT_MS);
    const outcomes = await Promise.all([call('elicit'), call('sample'), call('roots')]);
    assert.deepEqual(outcomes, ['RequestTimeout', 'RequestTimeout', 'RequestTimeout']);
    // The client is told: each handler that was left waiting is cancelled.
    await within(allCancelled(3), 10_000, 'the cancellations');
    assert.deepEqual([...cancelled].sort(), ['elicit', 'roots', 'sample']);
    await client.close();
    await server.close();
  });

  test('AskOptions.timeoutMs applies per question when the server sets none', async () => {
    const { server, client, call } = await setup(undefined);
    assert.equal(await call('elicitPerQuestion'), 'RequestTimeout');
    await client.close();
    await server.close();
  });
});
