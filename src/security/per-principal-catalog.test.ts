/**
 * Per-principal catalogs, attacked over real HTTP with real bearer tokens from two issuers:
 * Bob (tenant B, no `admin` scope) tries to list, call, read, get and complete what only
 * Alice (tenant A, `admin`, `tenant: acme`) may see, in the legacy era (a Streamable HTTP
 * session) and the modern one (stateless POSTs), and tries to hear its list changes. Every
 * attempt must find nothing: no name in any answer, and the very bytes a name nobody
 * registered gets.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerAuth } from '../auth/server/bearer-auth.js';
import { McpServer } from '../server/server.js';
import type { Registration } from '../server/server.js';
import { serve } from '../serve/index.js';
import {
  LEGACY,
  MODERN,
  assertServerMessage,
  fixtureOf,
  modern,
  openStream,
  postJson,
  rpc,
} from '../test-support/http-server-harness.js';
import type { Fixture, Obj, RawResponse } from '../test-support/http-server-harness.js';
import {
  TENANT_RESOURCE,
  bearer,
  makeTenants,
  openSession,
  sessionHeaders,
} from '../test-support/tenant-server.js';
import type { Tenants } from '../test-support/tenant-server.js';
import { waitFor } from '../test-support/waiting.js';

/** Every name only Alice may see: none of them may appear in anything Bob receives. */
const HIDDEN = [
  'admin_reset',
  'alice_only',
  'acme_report',
  'secret://ledger',
  'secret://docs/{id}',
  'hidden_',
];

let tenants: Tenants;
let f: Fixture;
let alice: string;
let bob: string;
let adminTool: Registration;

function catalogServer(aliceIssuer: string): McpServer {
  const server = new McpServer({ name: 'catalogs', version: '1.0.0' }, { pageSize: 2 });
  // Public and hidden tools interleaved, so Bob's pages must be cut from his own subset.
  server.tool({ name: 'p1' }, () => 'p1');
  server.tool({ name: 'hidden_1', visibleTo: ['admin'] }, () => 'h1');
  server.tool({ name: 'p2' }, () => 'p2');
  server.tool({ name: 'hidden_2', visibleTo: ['admin'] }, () => 'h2');
  server.tool({ name: 'hidden_3', visibleTo: ['admin'] }, () => 'h3');
  server.tool({ name: 'p3' }, () => 'p3');
  server.tool(
    {
      name: 'alice_only',
      visibleTo: (c) => c.principal?.issuer === aliceIssuer && c.principal.subject === 'alice',
    },
    () => 'for alice',
  );
  server.prompt(
    {
      name: 'acme_report',
      visibleTo: { claims: { tenant: 'acme' } },
      arguments: [{ name: 'quarter', complete: () => ['q1', 'q2'] }],
    },
    (args) => [{ role: 'user', content: { type: 'text', text: `report ${args.quarter}` } }],
  );
  server.prompt({ name: 'hello' }, () => [{ role: 'user', content: { type: 'text', text: 'hi' } }]);
  server.resource({ uri: 'public://readme', name: 'readme' }, (uri) => [{ uri, text: 'readme' }]);
  server.resource({ uri: 'secret://ledger', name: 'ledger', visibleTo: ['admin'] }, (uri) => [
    { uri, text: 'ledger' },
  ]);
  server.resourceTemplate(
    {
      uriTemplate: 'secret://docs/{id}',
      name: 'docs',
      visibleTo: ['admin'],
      complete: { id: () => ['1', '2'] },
    },
    (uri) => [{ uri, text: 'doc' }],
  );
  return server;
}

/** `admin_reset`: hidden from Bob, with a scope (the HTTP authorizer's 403) and an `x-mcp-header` (-32020). */
function registerAdmin(server: McpServer): Registration {
  return server.tool(
    {
      name: 'admin_reset',
      visibleTo: ['admin'],
      scopes: ['admin'],
      input: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      },
    },
    () => 'reset',
  );
}

before(async () => {
  tenants = await makeTenants();
  const server = catalogServer(tenants.a.issuer);
  adminTool = registerAdmin(server);
  const auth = bearerAuth({
    resource: TENANT_RESOURCE,
    authorizationServers: [tenants.a.issuer, tenants.b.issuer],
    verifier: tenants.verifier,
  });
  f = fixtureOf(server, await serve(server, { authenticate: auth.node }));
  alice = await tenants.a.sign({
    sub: 'alice',
    client_id: 'app',
    aud: TENANT_RESOURCE,
    scope: 'admin',
    tenant: 'acme',
  });
  bob = await tenants.b.sign({
    sub: 'bob',
    client_id: 'app',
    aud: TENANT_RESOURCE,
    scope: 'user',
    tenant: 'other',
  });
});
after(async () => {
  await f.close();
});

/** A modern request as `token`, with a fixed id (so two answers can be compared byte for byte). */
function modernAs(token: string, method: string, params: Obj, id = 7): Promise<RawResponse> {
  const m = modern(method, params);
  return postJson(f.url, { ...m.body, id }, { ...m.headers, ...bearer(token) });
}

function legacyAs(token: string, sid: string, method: string, params: Obj, id = 7): Promise<RawResponse> {
  return postJson(f.url, rpc(method, params, id), sessionHeaders(sid, token));
}

function assertNoHidden(body: string, what: string): void {
  for (const name of HIDDEN) assert.ok(!body.includes(name), `${what} leaks ${name}: ${body}`);
}

/** The JSON-RPC answer of a response, as sent: the JSON body, or the SSE event that carries it. */
function answerText(r: RawResponse): string {
  if (r.json) return r.body;
  const line = r.body.split('\n').find((l) => l.startsWith('data:') && l.includes('"jsonrpc"'));
  return line!.slice(5).trim();
}

function answer(r: RawResponse): Obj {
  return JSON.parse(answerText(r)) as Obj;
}

/** Pages through a list to its end as one caller: the names, every page checked for leaks. */
async function listAll(
  send: (method: string, params: Obj) => Promise<RawResponse>,
  method: string,
  key: string,
  field: string,
  leaks = true,
): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const r = await send(method, cursor === undefined ? {} : { cursor });
    if (leaks) assertNoHidden(r.body, method);
    const result = answer(r).result as Obj;
    names.push(...(result[key] as Obj[]).map((x) => String(x[field])));
    cursor = result.nextCursor as string | undefined;
    if (cursor === undefined) return names;
  }
  throw new Error('too many pages');
}

const ERAS = ['legacy', 'modern'] as const;

describe('per-principal catalogs: what Bob may not see does not exist for him', () => {
  for (const era of ERAS) {
    const senderFor = async (token: string) => {
      if (era === 'modern')
        return (method: string, params: Obj, id?: number) => modernAs(token, method, params, id);
      const sid = await openSession(f.url, token);
      return (method: string, params: Obj, id?: number) => legacyAs(token, sid, method, params, id);
    };

    test(`${era}: every list, paged, shows Bob only his items; Alice sees hers`, async () => {
      const asBob = await senderFor(bob);
      assert.deepEqual(await listAll(asBob, 'tools/list', 'tools', 'name'), ['p1', 'p2', 'p3']);
      assert.deepEqual(await listAll(asBob, 'prompts/list', 'prompts', 'name'), ['hello']);
      assert.deepEqual(await listAll(asBob, 'resources/list', 'resources', 'uri'), ['public://readme']);
      assert.deepEqual(
        await listAll(asBob, 'resources/templates/list', 'resourceTemplates', 'uriTemplate'),
        [],
      );
      const asAlice = await senderFor(alice);
      const hers = await listAll(asAlice, 'tools/list', 'tools', 'name', false);
      assert.deepEqual(hers, [
        'p1',
        'hidden_1',
        'p2',
        'hidden_2',
        'hidden_3',
        'p3',
        'alice_only',
        'admin_reset',
      ]);
    });

    test(`${era}: calling, getting, reading, completing a hidden item answers as for one nobody registered`, async () => {
      const asBob = await senderFor(bob);
      const probes: Array<[string, Obj]> = [
        ['tools/call', { name: 'hidden_1', arguments: {} }],
        ['tools/call', { name: 'alice_only', arguments: {} }],
        ['prompts/get', { name: 'acme_report', arguments: { quarter: 'q1' } }],
        ['resources/read', { uri: 'secret://ledger' }],
        ['resources/read', { uri: 'secret://docs/1' }],
        [
          'completion/complete',
          { ref: { type: 'ref/prompt', name: 'acme_report' }, argument: { name: 'quarter', value: '' } },
        ],
        [
          'completion/complete',
          { ref: { type: 'ref/resource', uri: 'secret://docs/{id}' }, argument: { name: 'id', value: '' } },
        ],
      ];
      for (const [method, params] of probes) {
        const r = await asBob(method, params);
        const a = answer(r);
        assert.ok(a.error, `${method} ${JSON.stringify(params)} was served to Bob: ${r.body}`);
        const code = (a.error as Obj).code;
        assert.equal(code, method === 'resources/read' && era === 'legacy' ? -32002 : -32602, r.body);
        assertServerMessage(era === 'legacy' ? LEGACY : MODERN, a, method);
      }
      // Alice is served all of it.
      const asAlice = await senderFor(alice);
      for (const [method, params] of probes) {
        const a = answer(await asAlice(method, params));
        assert.ok(a.result, `${method} ${JSON.stringify(params)} refused to Alice: ${JSON.stringify(a)}`);
      }
    });

    test(`${era}: the error for a hidden item is byte-identical to the one for a missing item`, async () => {
      const asBob = await senderFor(bob);
      // An argument its x-mcp-header names, sent without the Mcp-Param-Region header: a tool
      // whose schema were checked would answer -32020 and so give itself away.
      const call = { name: 'admin_reset', arguments: { region: 'eu' } };
      const hidden = await asBob('tools/call', call, 99);
      assertNoHidden(hidden.body.replace(/admin_reset/g, ''), 'the hidden tool error');
      adminTool.remove();
      try {
        const missing = await asBob('tools/call', call, 99);
        assert.equal(hidden.status, missing.status);
        assert.equal(hidden.headers['content-type'], missing.headers['content-type']);
        // The whole JSON-RPC answer, byte for byte (an SSE body's event ids differ per stream).
        assert.equal(answerText(hidden), answerText(missing));
        // Not a 403 scope challenge, not a -32020 header mismatch: unknown, as if never registered.
        assert.equal((answer(hidden).error as Obj).code, -32602);
        assert.equal(hidden.headers['www-authenticate'], undefined);
      } finally {
        adminTool = registerAdmin(f.server);
      }
    });
  }
});

describe('per-principal catalogs: list changes reach only those who can see them', () => {
  test('legacy sessions: a change to an admin-only tool notifies Alice, not Bob; a public change both', async () => {
    const streams = [];
    for (const token of [alice, bob]) {
      const sid = await openSession(f.url, token);
      // Listing tells the server who the session's caller is.
      await legacyAs(token, sid, 'tools/list', {});
      const get = await openStream(f.url, { method: 'GET', headers: sessionHeaders(sid, token) });
      assert.equal(get.response.status, 200);
      streams.push(get);
    }
    const [a, b] = streams as [
      Awaited<ReturnType<typeof openStream>>,
      Awaited<ReturnType<typeof openStream>>,
    ];
    const changes = (s: typeof a) =>
      s.sse.messages().filter((m) => m.method === 'notifications/tools/list_changed').length;
    try {
      const secret = f.server.tool({ name: 'hidden_new', visibleTo: ['admin'] }, () => 'x');
      await a.sse.next((m) => m.method === 'notifications/tools/list_changed');
      secret.remove();
      await waitForCount(() => changes(a), 2);
      const pub = f.server.tool({ name: 'p_new' }, () => 'x');
      await b.sse.next((m) => m.method === 'notifications/tools/list_changed');
      await waitForCount(() => changes(a), 3);
      pub.remove();
      await waitForCount(() => changes(b), 2);
      await waitForCount(() => changes(a), 4);
      // Bob heard the two public changes and neither admin one.
      assert.equal(changes(b), 2);
      for (const m of b.sse.messages()) assertNoHidden(JSON.stringify(m), 'a notification');
    } finally {
      a.abort();
      b.abort();
    }
  });

  test('modern listen streams: the same, and resources/updated of a hidden resource is not sent', async () => {
    const open = async (token: string) => {
      const m = modern('subscriptions/listen', {
        notifications: {
          toolsListChanged: true,
          resourceSubscriptions: ['secret://ledger', 'public://readme'],
        },
      });
      const s = await openStream(f.url, { headers: { ...m.headers, ...bearer(token) }, body: m.body });
      assert.equal(s.response.status, 200);
      await s.sse.next((x) => x.method === 'notifications/subscriptions/acknowledged');
      return s;
    };
    const a = await open(alice);
    const b = await open(bob);
    const count = (s: typeof a, method: string) => s.sse.messages().filter((m) => m.method === method).length;
    try {
      const secret = f.server.tool({ name: 'hidden_new', visibleTo: ['admin'] }, () => 'x');
      await a.sse.next((m) => m.method === 'notifications/tools/list_changed');
      secret.remove();
      f.server.resourceUpdated('secret://ledger');
      await waitForCount(() => count(a, 'notifications/resources/updated'), 1);
      f.server.resourceUpdated('public://readme');
      await waitForCount(() => count(b, 'notifications/resources/updated'), 1);
      await waitForCount(() => count(a, 'notifications/resources/updated'), 2);
      const pub = f.server.tool({ name: 'p_new' }, () => 'x');
      await b.sse.next((m) => m.method === 'notifications/tools/list_changed');
      pub.remove();
      await waitForCount(() => count(b, 'notifications/tools/list_changed'), 2);
      await waitForCount(() => count(a, 'notifications/tools/list_changed'), 4);
      assert.equal(count(b, 'notifications/tools/list_changed'), 2);
      assert.equal(count(b, 'notifications/resources/updated'), 1);
      // The acknowledgement echoes Bob's own filter (a URI nobody registered is echoed alike).
      for (const m of b.sse.messages())
        if (m.method !== 'notifications/subscriptions/acknowledged')
          assertNoHidden(JSON.stringify(m), 'a notification');
    } finally {
      a.abort();
      b.abort();
    }
  });
});

/** Waits until `read()` reaches `n`. */
async function waitForCount(read: () => number, n: number): Promise<void> {
  await waitFor(() => read() >= n, undefined, `${n} notifications`);
}

describe('scope-filtered discovery (SEP-1881): listed to whoever holds the scopes, callable to step up', () => {
  test('Bob does not see the scoped tool listed; his call earns the insufficient_scope challenge', async () => {
    const server = new McpServer({ name: 'sep1881', version: '1.0.0' }, { scopeFilteredDiscovery: true });
    server.tool({ name: 'read' }, () => 'r');
    server.tool({ name: 'write', scopes: ['admin'] }, () => 'w');
    const auth = bearerAuth({
      resource: TENANT_RESOURCE,
      authorizationServers: [tenants.a.issuer, tenants.b.issuer],
      verifier: tenants.verifier,
    });
    const g = fixtureOf(server, await serve(server, { authenticate: auth.node }));
    try {
      const names = async (token: string) => {
        const m = modern('tools/list', {});
        const r = await postJson(g.url, m.body, { ...m.headers, ...bearer(token) });
        return ((answer(r).result as Obj).tools as Obj[]).map((t) => t.name);
      };
      assert.deepEqual(await names(bob), ['read']);
      assert.deepEqual(await names(alice), ['read', 'write']);
      const m = modern('tools/call', { name: 'write', arguments: {} });
      const refused = await postJson(g.url, m.body, { ...m.headers, ...bearer(bob) });
      assert.equal(refused.status, 403);
      assert.match(String(refused.headers['www-authenticate']), /scope="admin", error="insufficient_scope"/);
    } finally {
      await g.close();
    }
  });
});
