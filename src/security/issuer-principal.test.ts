/**
 * Threat: a subject name is only unique within its issuer. A server that trusts two
 * authorization servers (tenants), or that serves both users and clients acting for
 * themselves, must not let tenant B's "alice", or an OAuth client named "alice", into what
 * tenant A's user alice opened: her sessions, connections, tasks and MRTR request state.
 * Over real loopback HTTP with bearer tokens from two issuers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rpc } from '../test-support/http-server-harness.js';
import type { Fixture, Obj } from '../test-support/http-server-harness.js';
import {
  makeTenants,
  modernRequest,
  openSession,
  openSseConnection,
  sessionRequest,
  startTenantNode,
} from '../test-support/tenant-server.js';
import type { Tenants } from '../test-support/tenant-server.js';

let tenants: Tenants;
let node: Fixture;
/** Tenant A's user alice: the owner of everything below. */
let alice: string;
/** The impostors: tenant B's user alice, and tenant A's client whose client_id is "alice". */
const others: { who: string; token: string }[] = [];

before(async () => {
  tenants = await makeTenants();
  node = await startTenantNode(tenants);
  alice = await tenants.user(tenants.a, 'alice');
  others.push(
    { who: "tenant B's user alice", token: await tenants.user(tenants.b, 'alice') },
    { who: 'the client "alice"', token: await tenants.client(tenants.a, 'alice') },
  );
});
after(() => node?.close());

const textOf = (answer: Obj | undefined): unknown =>
  ((answer?.result as Obj | undefined)?.content as Obj[] | undefined)?.[0]?.text;
const whoami = { name: 'whoami', arguments: {} };

describe('one subject name, two principals', () => {
  test('the server sees three different principals', async () => {
    const keys = new Set<unknown>();
    for (const token of [alice, ...others.map((o) => o.token)]) {
      const r = await modernRequest(node.url, token, 'tools/call', whoami);
      keys.add(textOf(r.answer));
    }
    assert.equal(keys.size, 3, [...keys].join(' '));
  });

  test("they cannot use alice's Streamable HTTP session", async () => {
    const sid = await openSession(node.url, alice);
    for (const { who, token } of others) {
      const r = await sessionRequest(node.url, sid, token, 'tools/call', whoami);
      assert.equal(r.status, 404, who);
    }
    const mine = await sessionRequest(node.url, sid, alice, 'tools/call', whoami);
    assert.equal(mine.status, 200);
  });

  test("they cannot post into alice's HTTP+SSE connection", async () => {
    const conn = await openSseConnection(node.origin, alice);
    try {
      for (const { who, token } of others) {
        assert.equal((await conn.post(rpc('tools/call', whoami), token)).status, 404, who);
      }
      const mine = rpc('tools/call', whoami);
      assert.equal((await conn.post(mine)).status, 202);
      await conn.sse.response(mine.id);
    } finally {
      conn.close();
    }
  });

  test("they cannot list, get or cancel alice's tasks, from a session of their own or statelessly", async () => {
    const sidA = await openSession(node.url, alice);
    const created = await sessionRequest(node.url, sidA, alice, 'tools/call', {
      name: 'hang',
      arguments: {},
      task: {},
    });
    const legacyTask = ((created.answer?.result as Obj).task as Obj).taskId;
    const modern = await modernRequest(node.url, alice, 'tools/call', { name: 'hang', arguments: {} });
    const modernTask = (modern.answer?.result as Obj).taskId;
    for (const { who, token } of others) {
      const sid = await openSession(node.url, token);
      const list = await sessionRequest(node.url, sid, token, 'tasks/list');
      assert.deepEqual((list.answer?.result as Obj).tasks, [], `${who}: tasks/list`);
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const legacy = await sessionRequest(node.url, sid, token, method, { taskId: legacyTask });
        assert.equal((legacy.answer?.error as Obj | undefined)?.code, -32602, `${who}: ${method}`);
        const stateless = await modernRequest(node.url, token, method, { taskId: modernTask });
        assert.equal((stateless.answer?.error as Obj | undefined)?.code, -32602, `${who}: modern ${method}`);
      }
    }
    // Alice reaches both, from a new session too, and they still run.
    const fresh = await openSession(node.url, alice);
    const list = await sessionRequest(node.url, fresh, alice, 'tasks/list');
    assert.ok(((list.answer?.result as Obj).tasks as Obj[]).some((t) => t.taskId === legacyTask));
    const mine = await modernRequest(node.url, alice, 'tasks/get', { taskId: modernTask });
    assert.equal((mine.answer?.result as Obj).status, 'working');
    await sessionRequest(node.url, fresh, alice, 'tasks/cancel', { taskId: legacyTask });
    await modernRequest(node.url, alice, 'tasks/cancel', { taskId: modernTask });
  });

  test("they cannot replay alice's MRTR request state with answers of their own", async () => {
    const first = await modernRequest(node.url, alice, 'tools/call', { name: 'ask', arguments: {} });
    const asked = first.answer?.result as Obj;
    assert.equal(asked.resultType, 'input_required');
    const [key] = Object.keys(asked.inputRequests as Obj);
    const retry = (content: Obj): Obj => ({
      name: 'ask',
      arguments: {},
      requestState: asked.requestState,
      inputResponses: { [key!]: { action: 'accept', content } },
    });
    for (const { who, token } of others) {
      const r = await modernRequest(node.url, token, 'tools/call', retry({ ok: true }));
      const error = r.answer?.error as Obj | undefined;
      assert.equal(error?.code, -32602, who);
      assert.match(String(error?.message), /another principal/, who);
    }
    const mine = await modernRequest(node.url, alice, 'tools/call', retry({ ok: false }));
    assert.equal(textOf(mine.answer), 'answer accept {"ok":false}');
  });
});
