/**
 * SEP-2624's interceptors extension: off by default; when on, declared with its
 * supportedEvents, and `interceptors/list` / `interceptor/invoke` answer as the SEP says,
 * in the legacy era over memory and the modern era over real HTTP. The SEP is a draft and
 * its messages are not in the vendored schemas, so their shape is checked here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/client.js';
import { invokeInterceptor, listInterceptors } from '../client/interceptor-calls.js';
import { WireError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { INTERCEPTORS_EXTENSION } from '../protocol/meta-keys.js';
import { serve } from '../serve/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { StreamableHttpClientTransport } from '../transports/http-client/index.js';
import { McpServer } from './server.js';

type Obj = Record<string, unknown>;
const PHASE = new Set(['request', 'response']);
const SEVERITY = new Set(['info', 'warn', 'error']);

/** The SEP's Interceptor descriptor, as far as we fill it. */
function checkDescriptor(d: Obj): void {
  assert.equal(typeof d.name, 'string');
  assert.ok(d.type === 'validation' || d.type === 'mutation');
  assert.ok(Array.isArray(d.hooks) && d.hooks.length > 0);
  for (const h of d.hooks as Obj[]) {
    assert.ok(PHASE.has(h.phase as string));
    assert.ok(Array.isArray(h.events) && (h.events as unknown[]).every((e) => typeof e === 'string'));
  }
  if ('mode' in d) assert.ok(d.mode === 'active' || d.mode === 'audit');
  if ('failOpen' in d) assert.equal(typeof d.failOpen, 'boolean');
  if ('priorityHint' in d)
    assert.ok(typeof d.priorityHint === 'number' || typeof d.priorityHint === 'object');
}

/** The SEP's ValidationResult or MutationResult. */
function checkResult(r: Obj): void {
  assert.equal(typeof r.interceptor, 'string');
  assert.ok(PHASE.has(r.phase as string));
  assert.equal(typeof r.durationMs, 'number');
  if (r.type === 'validation') {
    assert.equal(typeof r.valid, 'boolean');
    if ('severity' in r) assert.ok(SEVERITY.has(r.severity as string));
    for (const m of (r.messages as Obj[] | undefined) ?? []) {
      assert.equal(typeof m.message, 'string');
      assert.ok(SEVERITY.has(m.severity as string));
    }
  } else {
    assert.equal(r.type, 'mutation');
    assert.equal(typeof r.modified, 'boolean');
    assert.ok('payload' in r);
  }
}

function makeServer(extension: boolean, logs: unknown[] = []): McpServer {
  const server = new McpServer(
    { name: 's', version: '1' },
    { interceptorsExtension: extension, logger: (_l, m, d) => void logs.push([m, d]) },
  );
  server.tool({ name: 'echo' }, (args) => JSON.stringify(args));
  server.use({
    type: 'validation',
    name: 'no-secrets',
    description: 'Refuses arguments named secret',
    events: ['tools/call'],
    phases: ['request'],
    validate: (p) =>
      ((p as Params).arguments as Obj | undefined)?.secret === undefined || {
        valid: false,
        messages: [{ path: 'arguments.secret', message: 'No secrets', severity: 'error' }],
      },
  });
  server.use({
    type: 'mutation',
    name: 'redact',
    events: ['tools/*'],
    priorityHint: { request: -1000, response: 1000 },
    mutate: (p) => JSON.parse(JSON.stringify(p).replaceAll('a@example.com', '[EMAIL]')) as unknown,
  });
  server.use({
    type: 'validation',
    name: 'slow',
    events: ['custom/slow'],
    failOpen: true,
    validate: (p) =>
      (p as Obj).crash
        ? Promise.reject(new Error('secret detail'))
        : new Promise<boolean>((r) => setTimeout(() => r(true), 200)),
  });
  server.use(async (_r, next) => next());
  return server;
}

for (const way of ['legacy over memory', 'modern over HTTP'] as const) {
  describe(`interceptors extension, ${way}`, () => {
    async function open(server: McpServer): Promise<{ client: Client; close(): Promise<void> }> {
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

    test('off by default: not declared, and its methods are not found', async () => {
      const { client, close } = await open(makeServer(false));
      const extensions = client.serverCapabilities?.extensions as Obj | undefined;
      assert.equal(extensions?.[INTERCEPTORS_EXTENSION], undefined);
      await assert.rejects(listInterceptors(client), { code: -32601 });
      await close();
    });

    test('on: declared with supportedEvents; listed as SEP descriptors, filtered by event', async () => {
      const { client, close } = await open(makeServer(true));
      const extensions = client.serverCapabilities?.extensions as Obj;
      assert.deepEqual(extensions[INTERCEPTORS_EXTENSION], {
        supportedEvents: ['tools/call', 'tools/*', 'custom/slow'],
      });
      const { interceptors } = await listInterceptors(client);
      for (const d of interceptors) checkDescriptor(d as unknown as Obj);
      assert.deepEqual(
        interceptors.map((d) => d.name),
        ['no-secrets', 'redact', 'slow'],
        'the middleware (a wrap) is not listed',
      );
      assert.deepEqual(interceptors[0], {
        name: 'no-secrets',
        description: 'Refuses arguments named secret',
        type: 'validation',
        hooks: [{ events: ['tools/call'], phase: 'request' }],
      });
      assert.deepEqual(interceptors[1]!.priorityHint, { request: -1000, response: 1000 });
      const forList = await listInterceptors(client, { event: 'tools/list' });
      assert.deepEqual(
        forList.interceptors.map((d) => d.name),
        ['redact'],
      );
      await close();
    });

    test('invoke: a validator decides, a mutator transforms; errors as the SEP says', async () => {
      const logs: unknown[] = [];
      const { client, close } = await open(makeServer(true, logs));
      const refused = await invokeInterceptor(client, {
        name: 'no-secrets',
        event: 'tools/call',
        phase: 'request',
        payload: { name: 'echo', arguments: { secret: 1 } },
      });
      checkResult(refused);
      assert.equal(refused.valid, false);
      assert.equal(refused.severity, 'error');
      assert.deepEqual(refused.messages, [
        { path: 'arguments.secret', message: 'No secrets', severity: 'error' },
      ]);
      const mutated = await invokeInterceptor(client, {
        name: 'redact',
        event: 'tools/call',
        phase: 'response',
        payload: { content: [{ type: 'text', text: 'mail a@example.com' }] },
      });
      checkResult(mutated);
      assert.equal(mutated.modified, true);
      assert.deepEqual(mutated.payload, { content: [{ type: 'text', text: 'mail [EMAIL]' }] });
      await assert.rejects(
        invokeInterceptor(client, { name: 'nope', event: 'tools/call', phase: 'request', payload: {} }),
        { code: -32602 },
      );
      await assert.rejects(
        invokeInterceptor(client, {
          name: 'no-secrets',
          event: 'tools/call',
          phase: 'response',
          payload: {},
        }),
        { code: -32602 },
      );
      await assert.rejects(
        invokeInterceptor(client, {
          name: 'slow',
          event: 'custom/slow',
          phase: 'request',
          payload: {},
          timeoutMs: 20,
        }),
        (e: unknown) =>
          e instanceof WireError &&
          e.code === -32000 &&
          JSON.stringify(e.data) === JSON.stringify({ interceptor: 'slow', timeoutMs: 20, phase: 'request' }),
      );
      await assert.rejects(
        invokeInterceptor(client, {
          name: 'slow',
          event: 'custom/slow',
          phase: 'request',
          payload: { crash: true },
        }),
        (e: unknown) =>
          e instanceof WireError &&
          e.code === -32603 &&
          !JSON.stringify([e.message, e.data]).includes('secret'),
      );
      assert.ok(logs.some((l) => String((l as unknown[])[1]).includes('secret detail')));
      await close();
    });
  });
}
