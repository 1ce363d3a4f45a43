/**
 * Client interceptors against a real McpServer, over memory and over real HTTP (a small
 * front on 127.0.0.1 that can answer 429/503 before passing a POST on): the phase order
 * when sending and receiving, refusals, early answers, and the ready-made retry, logging
 * and headers interceptors in both eras.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { LocalError, WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { McpServer } from '../server/server.js';
import { answer } from '../session/interceptors.js';
import { memoryPair } from '../transports/memory/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { Client } from './client.js';
import { headers } from './headers-interceptor.js';
import type { ClientInterceptor } from './interceptors.js';
import { logging } from './logging-interceptor.js';
import type { RequestLogEntry } from './logging-interceptor.js';
import { retry } from './retry-interceptor.js';

const textOf = (r: { content: unknown }): string => (r.content as Array<{ text: string }>)[0]!.text;

function makeServer(calls: string[]): McpServer {
  const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
  server.tool({ name: 'echo' }, (args) => (calls.push('echo'), JSON.stringify(args)));
  server.tool(
    { name: 'idempotent', annotations: { idempotentHint: true } },
    () => (calls.push('idempotent'), 'same'),
  );
  server.tool({ name: 'fail' }, () => {
    calls.push('fail');
    throw new WireError(-32000, 'busy');
  });
  return server;
}

/** What the front does with one POST: pass it on, or answer with a status of its own. */
type Policy = (method: string) => { status: number; retryAfter?: string } | undefined;

interface Front {
  url: string;
  policy: Policy;
  seen: Array<{ method: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A pass-through HTTP front to a served McpServer that answers what its policy says first. */
async function startFront(running: RunningServer): Promise<Front> {
  const front: Front = { url: '', policy: () => undefined, seen: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let method = '';
      try {
        method = String((JSON.parse(body.toString()) as { method?: unknown }).method ?? '');
      } catch {
        // GET and DELETE carry no body.
      }
      if (req.method === 'POST') front.seen.push({ method, headers: req.headers });
      const refusal = req.method === 'POST' ? front.policy(method) : undefined;
      if (refusal) {
        res.writeHead(refusal.status, refusal.retryAfter ? { 'retry-after': refusal.retryAfter } : {});
        res.end('try later');
        return;
      }
      const upstream = http.request(
        { host: '127.0.0.1', port: running.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  front.url = `http://127.0.0.1:${port}/mcp`;
  front.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return front;
}

async function memoryClient(
  server: McpServer,
  era: 'legacy' | 'modern',
  interceptors: ClientInterceptor[],
): Promise<Client> {
  const client = new Client(
    { name: 'c', version: '1' },
    { era, interceptors, cache: false, logger: () => undefined },
  );
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return client;
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`client interceptors over memory, ${era} era`, () => {
    test('sending: mutators then validators; receiving: validators then mutators; refusals never reach the server', async () => {
      const calls: string[] = [];
      const trace: string[] = [];
      const server = makeServer(calls);
      const client = await memoryClient(server, era, [
        {
          type: 'validation',
          name: 'check',
          events: ['tools/call'],
          validate: (p, at) => {
            trace.push(`validate ${at.phase}`);
            if (at.phase === 'request' && ((p as Params).arguments as { n?: number }).n === 13)
              return { valid: false, messages: [{ message: 'unlucky', severity: 'error' }] };
          },
        },
        {
          type: 'mutation',
          name: 'double',
          events: ['tools/call'],
          mutate: (p, at) => {
            trace.push(`mutate ${at.phase}`);
            if (at.phase === 'response')
              return { content: [{ type: 'text', text: `<${textOf(p as { content: unknown })}>` }] };
            const params = p as Params;
            if (params.name === 'short')
              return answer({ content: [{ type: 'text', text: 'short-circuited' }] });
            const n = (params.arguments as { n: number }).n;
            return { ...params, arguments: { n: n * 2 } };
          },
        },
      ]);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { n: 2 } })), '<{"n":4}>');
      assert.deepEqual(trace, ['mutate request', 'validate request', 'validate response', 'mutate response']);
      // 13 is refused after mutation: the validator sees what would be sent (6.5 * 2).
      await assert.rejects(client.callTool({ name: 'echo', arguments: { n: 6.5 } }), { code: -32602 });
      assert.equal(textOf(await client.callTool({ name: 'short' })), '<short-circuited>');
      assert.deepEqual(calls, ['echo']);
      await client.close();
      await server.close();
    });

    test('retry: safe methods and idempotent tools are retried on a retryable failure, other tool calls never', async () => {
      const calls: string[] = [];
      const server = makeServer(calls);
      const retries: string[] = [];
      // Treat the server's -32000 as retryable, so the rule under test is which methods.
      const client = await memoryClient(server, era, [
        retry({
          attempts: 3,
          baseDelayMs: 1,
          retryable: (e) => e instanceof WireError && e.code === -32000,
          onRetry: (r) => void retries.push(`${r.method}#${r.attempt}`),
        }),
      ]);
      await client.listTools();
      await assert.rejects(client.callTool({ name: 'fail' }), { code: -32000 });
      assert.deepEqual(calls, ['fail'], 'a tool without idempotentHint is called once');
      server.use({
        type: 'mutation',
        name: 'flaky',
        events: ['tools/call'],
        phases: ['request'],
        mutate: () => {
          if (calls.filter((c) => c === 'flaky').length < 2) {
            calls.push('flaky');
            throw new WireError(-32000, 'busy');
          }
        },
      });
      assert.equal(textOf(await client.callTool({ name: 'idempotent' })), 'same');
      assert.deepEqual(retries, ['tools/call#1', 'tools/call#2']);
      await client.close();
      await server.close();
    });

    test('logging reports method, target, duration and outcome; a throwing sink changes nothing', async () => {
      const server = makeServer([]);
      const entries: RequestLogEntry[] = [];
      const client = await memoryClient(server, era, [
        logging((e) => void entries.push(e)),
        logging(() => {
          throw new Error('sink broke');
        }),
      ]);
      await client.callTool({ name: 'echo', arguments: {} });
      await assert.rejects(client.callTool({ name: 'fail' }));
      assert.deepEqual(
        entries.map((e) => [e.method, e.target, e.outcome, e.code]),
        [
          ['tools/call', 'echo', 'ok', undefined],
          ['tools/call', 'fail', 'error', -32000],
        ],
      );
      assert.ok(entries.every((e) => e.durationMs >= 0));
      await client.close();
      await server.close();
    });
  });
}

for (const era of ['legacy', 'modern'] as const) {
  describe(`client interceptors over HTTP, ${era} era`, () => {
    const calls: string[] = [];
    let running: RunningServer;
    let front: Front;
    before(async () => {
      running = await serve(makeServer(calls), { port: 0 });
      front = await startFront(running);
    });
    after(async () => {
      await front.close();
      await running.close();
    });

    async function connect(interceptors: ClientInterceptor[]): Promise<Client> {
      const client = new Client(
        { name: 'c', version: '1' },
        { era, interceptors, cache: false, logger: () => undefined },
      );
      await client.connect(new StreamableHttpClientTransport({ url: front.url }));
      return client;
    }

    test('retry honours Retry-After on 503 and backs off on 429; a plain tool call is not retried', async () => {
      const delays: number[] = [];
      const client = await connect([retry({ baseDelayMs: 1, onRetry: (r) => void delays.push(r.delayMs) })]);
      let refuse = 2;
      front.policy = (m) =>
        m === 'tools/list' && refuse > 0
          ? refuse-- === 2
            ? { status: 503, retryAfter: '1' }
            : { status: 429 }
          : undefined;
      const started = Date.now();
      const listed = await client.listTools();
      assert.ok(listed.tools.some((t) => t.name === 'echo'));
      assert.equal(delays[0], 1000, 'Retry-After: 1 is a one-second wait');
      assert.ok(Date.now() - started >= 990);
      assert.equal(delays.length, 2);
      calls.length = 0;
      front.policy = (m) => (m === 'tools/call' ? { status: 503, retryAfter: '0' } : undefined);
      await assert.rejects(client.callTool({ name: 'echo' }), (e: unknown) => e instanceof LocalError);
      assert.equal(delays.length, 2, 'no retry of a non-idempotent tool call');
      // An idempotent tool is retried until the attempts run out.
      await assert.rejects(client.callTool({ name: 'idempotent' }), (e: unknown) => e instanceof LocalError);
      assert.equal(delays.length, 4);
      assert.deepEqual(calls, []);
      // The caller's signal ends the wait.
      front.policy = (m) => (m === 'tools/list' ? { status: 503, retryAfter: '5' } : undefined);
      const controller = new AbortController();
      const pending = client.listTools(undefined, { signal: controller.signal });
      const aborted = assert.rejects(
        pending,
        (e: unknown) => e instanceof LocalError && e.code === 'Cancelled',
      );
      while (delays.length < 5) await new Promise((r) => setImmediate(r));
      controller.abort();
      await aborted;
      front.policy = () => undefined;
      await client.close();
    });

    test('headers: per-request headers reach the POST; the protocol headers cannot be overridden', async () => {
      const client = await connect([
        headers((r) => ({
          'X-Request-Tag': `tag-${r.method}`,
          'mcp-method': 'forged',
          Accept: 'text/plain',
        })),
      ]);
      front.seen.length = 0;
      await client.callTool({ name: 'echo' }, { headers: { 'x-caller': 'yes' } });
      const post = front.seen.find((s) => s.method === 'tools/call')!;
      assert.equal(post.headers['x-request-tag'], 'tag-tools/call');
      assert.equal(post.headers['x-caller'], 'yes');
      assert.equal(post.headers.accept, 'application/json, text/event-stream');
      assert.notEqual(post.headers['mcp-method'], 'forged');
      await client.close();
    });
  });
}
