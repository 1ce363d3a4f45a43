/**
 * Server interceptors (validators, mutators, wraps) through our Client, in the legacy era
 * over memory (a session) and in the modern era both over memory and stateless over real
 * HTTP (ExchangeServer, no session): order, refusals, all-or-nothing mutation, fail-open,
 * audit mode, early answers, and that an interceptor's own failure is -32603 without detail.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/client.js';
import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { serve } from '../serve/index.js';
import { answer } from '../session/interceptors.js';
import { memoryPair } from '../transports/memory/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import type { ServerInterceptor } from './middleware.js';
import { McpServer } from './server.js';

type Way = 'legacy over memory' | 'modern over memory' | 'modern over HTTP';
const WAYS: readonly Way[] = ['legacy over memory', 'modern over memory', 'modern over HTTP'];

async function open(server: McpServer, way: Way): Promise<{ client: Client; close(): Promise<void> }> {
  const client = new Client(
    { name: 'c', version: '1' },
    { era: way.startsWith('legacy') ? 'legacy' : 'modern', logger: () => undefined },
  );
  if (way === 'modern over HTTP') {
    const running = await serve(server, { port: 0 });
    await client.connect(new StreamableHttpClientTransport({ url: running.url }));
    return { client, close: async () => (await client.close(), await running.close()) };
  }
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return { client, close: async () => (await client.close(), await server.close()) };
}

function echoServer(logs: unknown[] = []): McpServer {
  const server = new McpServer({ name: 's', version: '1' }, { logger: (_l, m, d) => void logs.push([m, d]) });
  server.tool({ name: 'echo' }, (args) => JSON.stringify(args));
  return server;
}

const textOf = (r: { content: unknown }): string => (r.content as Array<{ text: string }>)[0]!.text;
const argsOf = (p: unknown): Record<string, unknown> =>
  ((p as Params).arguments ?? {}) as Record<string, unknown>;

for (const way of WAYS) {
  describe(`server interceptors, ${way}`, () => {
    test('receiving: validators see the raw request, then mutators in priority order; sending: mutators, then validators', async () => {
      const trace: string[] = [];
      const server = echoServer();
      const mutator = (name: string, priorityHint: number, tag: string): ServerInterceptor => ({
        type: 'mutation',
        name,
        events: ['tools/call'],
        phases: ['request'],
        priorityHint,
        mutate: (p) => {
          trace.push(`mutate ${name}`);
          const args = argsOf(p);
          return { ...(p as Params), arguments: { ...args, tags: `${String(args.tags ?? '')}${tag}` } };
        },
      });
      server.use(mutator('b-late', 10, 'L'));
      server.use(mutator('z-early', -5, 'E'));
      server.use(mutator('a-tie', 10, 'T'));
      server.use({
        type: 'validation',
        name: 'raw-check',
        events: ['tools/*'],
        validate: (payload, at) => {
          if (at.phase === 'request') trace.push(`validate request tags=${String(argsOf(payload).tags)}`);
          else if (at.request.method === 'tools/call')
            trace.push(`validate response ${textOf(payload as { content: unknown })}`);
          else trace.push(`validate response ${at.request.method}`);
        },
      });
      server.use({
        type: 'mutation',
        name: 'upper',
        events: ['tools/call'],
        phases: ['response'],
        mutate: (r) => {
          trace.push('mutate response');
          const text = textOf(r as { content: unknown });
          return { content: [{ type: 'text', text: text.toUpperCase() }] };
        },
      });
      const { client, close } = await open(server, way);
      const r = await client.callTool({ name: 'echo', arguments: { tags: '' } });
      assert.equal(textOf(r), '{"TAGS":"ETL"}');
      assert.deepEqual(trace, [
        'validate request tags=',
        'mutate z-early',
        'mutate a-tie',
        'mutate b-late',
        'mutate response',
        'validate response {"TAGS":"ETL"}',
      ]);
      // tools/list matched only the validator's `tools/*`.
      trace.length = 0;
      await client.listTools();
      assert.deepEqual(trace.length, 2);
      await close();
    });

    test('a failing validator refuses with -32602 and its messages; warnings and audit never block', async () => {
      let reached = 0;
      const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
      server.tool({ name: 'echo' }, () => (reached++, 'ok'));
      server.use({ type: 'validation', name: 'warns', validate: () => ({ valid: false, severity: 'warn' }) });
      server.use({ type: 'validation', name: 'audits', mode: 'audit', validate: () => false });
      server.use({
        type: 'validation',
        name: 'no-secrets',
        events: ['tools/call'],
        phases: ['request'],
        validate: (p) =>
          argsOf(p).secret === undefined || {
            valid: false,
            messages: [{ path: 'arguments.secret', message: 'No secrets', severity: 'error' }],
          },
      });
      const { client, close } = await open(server, way);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: {} })), 'ok');
      await assert.rejects(client.callTool({ name: 'echo', arguments: { secret: 1 } }), (e: unknown) => {
        assert.ok(e instanceof WireError);
        assert.equal(e.code, -32602);
        assert.deepEqual(e.data, {
          validationErrors: [{ interceptor: 'no-secrets', severity: 'error', message: 'No secrets' }],
        });
        return true;
      });
      assert.equal(reached, 1);
      await close();
    });

    test('mutations are all or nothing; a crash is -32603 without its detail (logged), or passes when failOpen', async () => {
      const logs: unknown[] = [];
      const server = echoServer(logs);
      let open_ = false;
      server.use({
        type: 'mutation',
        name: 'adds',
        events: ['tools/call'],
        phases: ['request'],
        mutate: (p) => ({ ...(p as Params), arguments: { added: true } }),
      });
      server.use({
        type: 'mutation',
        name: 'crashes',
        events: ['tools/call'],
        phases: ['request'],
        priorityHint: 1,
        get failOpen() {
          return open_;
        },
        mutate: () => {
          throw new Error('secret detail');
        },
      });
      const { client, close } = await open(server, way);
      await assert.rejects(client.callTool({ name: 'echo', arguments: { a: 1 } }), (e: unknown) => {
        assert.ok(e instanceof WireError);
        assert.equal(e.code, -32603);
        assert.ok(!JSON.stringify([e.message, e.data]).includes('secret'));
        return true;
      });
      assert.ok(
        logs.some(
          (l) =>
            JSON.stringify(l).includes('crashes') && String((l as unknown[])[1]).includes('secret detail'),
        ),
      );
      open_ = true;
      // Fail-open: the message goes on, and the first mutator's change is dropped with the rest.
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { a: 1 } })), '{"a":1}');
      await close();
    });

    test('a request mutator answers early; a WireError thrown is the refusal; wraps and middleware sit outermost', async () => {
      let reached = 0;
      const trace: string[] = [];
      const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
      server.tool({ name: 'echo' }, () => (reached++, 'handler'));
      server.use(async (r, next) => {
        trace.push(`middleware ${r.method}`);
        return next();
      });
      server.use({
        type: 'mutation',
        name: 'canned',
        events: ['tools/call'],
        phases: ['request'],
        mutate: (p) => {
          const name = (p as Params).name;
          if (name === 'forbidden') throw new WireError(-32001, 'Not allowed');
          return name === 'cached' ? answer({ content: [{ type: 'text', text: 'canned' }] }) : undefined;
        },
      });
      server.use({
        type: 'wrap',
        name: 'inner-wrap',
        events: ['tools/call'],
        wrap: (r, next) => (trace.push('wrap'), next()),
      });
      const { client, close } = await open(server, way);
      assert.equal(textOf(await client.callTool({ name: 'cached' })), 'canned');
      await assert.rejects(client.callTool({ name: 'forbidden' }), { code: -32001, message: 'Not allowed' });
      assert.equal(textOf(await client.callTool({ name: 'echo' })), 'handler');
      assert.equal(reached, 1);
      assert.deepEqual(trace, [
        'middleware tools/call',
        'wrap',
        'middleware tools/call',
        'wrap',
        'middleware tools/call',
        'wrap',
      ]);
      await close();
    });
  });
}
