/**
 * Pre-serialized list pages: what a client gets when pages are spliced in as JSON text must
 * be what the object path (taken when an interceptor may read the result) gives, in every
 * revision and era, page by page; a change shows in the next list; and the page cache never
 * serves one caller's page to a caller who sees another subset.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { HOLDS_RAW_JSON, RawJson, serializeMessage } from '../jsonrpc/index.js';
import type { RequestContext } from '../session/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import { listPage } from './catalog-requests.js';
import { CatalogLists } from './catalog-view.js';
import type { ListKey } from './catalog-view.js';
import { McpServer } from './server.js';
import { buildTool } from './tools.js';
import type { ToolEntry } from './tools.js';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

function catalog(withInterceptor: boolean): McpServer {
  const server = new McpServer({ name: 'pages', version: '1.0.0' }, { pageSize: 3, logger: () => undefined });
  if (withInterceptor) server.use((_request, next) => next());
  for (let i = 0; i < 8; i++) {
    server.tool(
      {
        name: `t${i}`,
        description: `tool ${i} "quoted" \u2028 é`,
        inputJsonSchema: { type: 'object', properties: { n: { type: 'number', description: `n of ${i}` } } },
        ...(i % 3 === 0
          ? {
              title: `Tool ${i}`,
              annotations: { readOnlyHint: true },
              outputJsonSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
              execution: { taskSupport: 'forbidden' as const },
              _meta: { 'example.com/i': i },
            }
          : {}),
      },
      () => 'ok',
    );
  }
  server.prompt({ name: 'p', title: 'P' }, () => [{ role: 'user', content: { type: 'text', text: 'hi' } }]);
  server.resource({ uri: 'file:///r', name: 'r', title: 'R' }, (uri) => [{ uri, text: 'r' }]);
  return server;
}

async function open(server: McpServer, revision: string): Promise<TestClient> {
  const [a, b] = memoryPair();
  await server.connect(b);
  return openClient(a, revision);
}

/** Every page of a list, as results (cursors included). */
async function pages(client: TestClient, method: string): Promise<Obj[]> {
  const out: Obj[] = [];
  let cursor: unknown;
  do {
    const r = await client.request(method, cursor === undefined ? {} : { cursor });
    out.push(r);
    cursor = r.nextCursor;
  } while (cursor !== undefined);
  return out;
}

describe('pre-serialized list pages', () => {
  for (const revision of REVISIONS) {
    test(`${revision}: every page equals the object path's, and each is valid`, async () => {
      const raw = await open(catalog(false), revision);
      const objects = await open(catalog(true), revision);
      for (const method of ['tools/list', 'prompts/list', 'resources/list']) {
        for (let round = 0; round < 2; round++) {
          // The second round is served from the page cache.
          const a = await pages(raw, method);
          const b = await pages(objects, method);
          assert.deepEqual(a, b, `${method}, round ${round}`);
        }
      }
      const tools = (await pages(raw, 'tools/list')).flatMap((r) => r.tools as Obj[]);
      assert.deepEqual(
        tools.map((t) => t.name),
        ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7'],
      );
      raw.tap.assertValid();
      objects.tap.assertValid();
      await raw.close();
      await objects.close();
    });
  }

  test('a registration, a removal and a replacement show in the next list (the pages are dropped)', async () => {
    const server = catalog(false);
    const client = await open(server, '2025-11-25');
    const names = async () =>
      (await pages(client, 'tools/list')).flatMap((r) => (r.tools as Obj[]).map((t) => t.name));
    assert.equal((await names()).length, 8);
    const added = server.tool({ name: 'added' }, () => 'a');
    assert.deepEqual((await names()).slice(-1), ['added']);
    added.remove();
    assert.deepEqual((await names()).includes('added'), false);
    server.tool({ name: 't1', description: 'replaced' }, () => 'r');
    const t1 = (await pages(client, 'tools/list'))
      .flatMap((r) => r.tools as Obj[])
      .find((t) => t.name === 't1');
    assert.equal(t1?.description, 'replaced');
    client.tap.assertValid();
    await client.close();
  });

  test('tools declaring one schema share its text; a removal or replacement gives it back', async () => {
    const server = new McpServer({ name: 'shared', version: '1.0.0' }, { logger: () => undefined });
    const body = z.object({ id: z.string().describe('The id'), tags: z.array(z.string()).optional() });
    const regs = ['a', 'b', 'c'].map((name) => server.tool({ name, input: body }, () => name));
    const held = () =>
      (server as unknown as { schemaTexts: { texts: Map<string, unknown> } }).schemaTexts.texts;
    const client = await open(server, '2025-11-25');
    const listed = async () => (await pages(client, 'tools/list')).flatMap((r) => r.tools as Obj[]);
    const expected = z.toJSONSchema(body, { target: 'draft-2020-12', io: 'input' });
    const first = await listed();
    assert.deepEqual(
      first.map((t) => [t.name, t.inputSchema]),
      ['a', 'b', 'c'].map((n) => [n, expected]),
    );
    assert.equal(held().size, 1, 'one text for the three tools');
    regs[0]!.remove();
    server.tool({ name: 'b', input: z.object({ other: z.number() }) }, () => 'b2');
    const second = await listed();
    assert.deepEqual(
      second.map((t) => t.name),
      ['b', 'c'],
    );
    assert.deepEqual(second[1]!.inputSchema, expected);
    assert.deepEqual((second[0]!.inputSchema as { required: string[] }).required, ['other']);
    assert.equal(held().size, 2, 'the shared text is kept for c, the new one added');
    regs[2]!.remove();
    assert.equal(held().size, 1, 'the last tool declaring it gave the shared text back');
    client.tap.assertValid();
    await client.close();
  });

  test('a cursor at an offset no page starts at is served, and not kept', async () => {
    const server = catalog(false);
    const client = await open(server, '2025-11-25');
    const first = await client.request('tools/list');
    const next = first.nextCursor as string;
    // mk1. + base64 of "1": an offset our cursors never name.
    const odd = await client.request('tools/list', { cursor: 'mk1.' + btoa('1').replace(/=+$/, '') });
    assert.deepEqual(
      (odd.tools as Obj[]).map((t) => t.name),
      ['t1', 't2', 't3'],
    );
    assert.ok(next);
    await assert.rejects(client.request('tools/list', { cursor: 'mk1.' + btoa('99') }), { code: -32602 });
    await client.close();
  });
});

describe('serializeMessage with RawJson', () => {
  test('splices the text where the value would be, keeping key order and leaving out undefined', () => {
    const result = { tools: new RawJson('[{"name":"a"}]'), skipped: undefined, nextCursor: 'c' };
    (result as { [HOLDS_RAW_JSON]?: true })[HOLDS_RAW_JSON] = true;
    const message = { jsonrpc: '2.0' as const, id: 'x"y', result };
    const text = serializeMessage(message);
    assert.equal(text, '{"jsonrpc":"2.0","id":"x\\"y","result":{"tools":[{"name":"a"}],"nextCursor":"c"}}');
    // Any other serializer writes the same JSON, through toJSON.
    assert.equal(JSON.stringify(message), text);
  });
});

describe('the page cache and per-principal lists (attack)', () => {
  const auth = (scopes: string[]) => ({ subject: 's', issuer: 'https://as.test', scopes, claims: {} });
  const rc = (authInfo: unknown) =>
    ({ authInfo, protocolVersion: '2025-11-25' }) as unknown as RequestContext;
  const names = (r: Record<string, unknown>) =>
    (JSON.parse((r.tools as RawJson).text) as Obj[]).map((t) => t.name);

  test('a page made for an admin is never served to a caller without the scope, nor the reverse', () => {
    const tools = new Map<string, ToolEntry>();
    for (const [name, visibleTo] of [
      ['a', undefined],
      ['secret', ['admin']],
      ['b', undefined],
    ] as const) {
      tools.set(name, buildTool({ name, ...(visibleTo ? { visibleTo } : {}) }, (() => 'x') as never));
    }
    const lists = new CatalogLists({
      tools,
      resources: new Map(),
      resourceTemplates: new Map(),
      prompts: new Map(),
    } as Record<ListKey, ReadonlyMap<string, ToolEntry>>);
    const page = (authInfo: unknown) => listPage(lists, 'tools', {}, rc(authInfo), 10, new Map(), true);
    // The admin's page is made and kept first; every other caller must still get its own.
    assert.deepEqual(names(page(auth(['admin']))), ['a', 'secret', 'b']);
    assert.deepEqual(names(page(auth([]))), ['a', 'b']);
    assert.deepEqual(names(page(undefined)), ['a', 'b']);
    assert.deepEqual(names(page(auth(['admin', 'other']))), ['a', 'secret', 'b']);
    assert.deepEqual(names(page(auth(['other']))), ['a', 'b']);
  });
});
