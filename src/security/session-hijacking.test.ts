/**
 * Threat: an authenticated user takes over another user's connection, session, stream or
 * task by its id (learnt from a log, a proxy, a shared screen). Every attack here is made by
 * bob, a valid user of the same issuer, against alice's live state over real loopback HTTP
 * with bearer auth; each must get exactly what an unknown id gets, and leave alice's state
 * as it was. Handlers on every transport must see their own caller's authInfo.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { principalKey } from '../protocol/principal.js';
import { connectRedisStores } from '../stores/redis/connect-redis.js';
import type { RedisStores } from '../stores/redis/connect-redis.js';
import { startRedis } from '../test-support/cluster.js';
import type { RedisProcess } from '../test-support/cluster.js';
import { openStream, postJson, request, rpc } from '../test-support/http-server-harness.js';
import type { Fixture, Obj } from '../test-support/http-server-harness.js';
import {
  bearer,
  makeTenants,
  modernRequest,
  openSession,
  openSseConnection,
  sessionHeaders,
  sessionRequest,
  startTenantNode,
} from '../test-support/tenant-server.js';
import type { SseConnection, Tenants } from '../test-support/tenant-server.js';
import { waitFor } from '../test-support/waiting.js';

let tenants: Tenants;
let alice: string;
let bob: string;
let aliceKey: string;

before(async () => {
  tenants = await makeTenants();
  alice = await tenants.user(tenants.a, 'alice');
  bob = await tenants.user(tenants.a, 'bob');
  aliceKey = principalKey({ issuer: tenants.a.issuer, subject: 'alice', clientId: 'app' });
});

const call = (name: string): Obj => rpc('tools/call', { name, arguments: {} });
const textOf = (answer: Obj | undefined): unknown =>
  ((answer?.result as Obj | undefined)?.content as Obj[] | undefined)?.[0]?.text;
/** What a refusal looks like to the client, for comparing an attack with an unknown id. */
const seen = (r: { status: number; body: string }) => ({ status: r.status, body: r.body });

/** The status of a GET resuming `lastEventId` in session `sid` (a stream it opens is let go at once). */
async function resumeStatus(url: string, sid: string, token: string, lastEventId: string): Promise<number> {
  const headers = { ...sessionHeaders(sid, token), 'last-event-id': lastEventId };
  const get = await openStream(url, { method: 'GET', headers });
  get.abort();
  return get.response.status;
}

describe('HTTP+SSE (2024-11-05): a connection belongs to the user who opened it', () => {
  let node: Fixture;
  let conn: SseConnection;
  before(async () => {
    node = await startTenantNode(tenants);
    conn = await openSseConnection(node.origin, alice);
  });
  after(async () => {
    conn.close();
    await node.close();
  });

  test("handlers on the /sse transport see the owner's authInfo", async () => {
    const whoami = call('whoami');
    assert.equal((await conn.post(whoami)).status, 202);
    assert.equal(textOf(await conn.sse.response(whoami.id)), aliceKey);
  });

  test("bob's tool call into alice's connection gets the 404 of an unknown id, and never reaches it", async () => {
    const forged = call('whoami');
    const unknown = await postJson(`${node.origin}/messages?sessionId=${randomUUID()}`, forged, bearer(bob));
    const hijack = await conn.post(forged, bob);
    assert.equal(hijack.status, 404);
    assert.deepEqual(seen(hijack), seen(unknown), 'no oracle: the same answer as an unknown id');
    // Alice's next call is answered in order after anything bob could have slipped in.
    const mine = call('whoami');
    await conn.post(mine);
    assert.equal(textOf(await conn.sse.response(mine.id)), aliceKey);
    assert.equal(conn.sse.messages().filter((m) => m.id === forged.id).length, 0);
  });

  test("bob cannot answer the elicitation alice's connection is waiting on", async () => {
    const ask = call('ask');
    await conn.post(ask);
    const question = await conn.sse.next((m) => m.method === 'elicitation/create');
    const consent = { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { ok: true } } };
    assert.equal((await conn.post(consent, bob)).status, 404);
    await conn.post({ jsonrpc: '2.0', id: question.id, result: { action: 'decline' } });
    assert.equal(textOf(await conn.sse.response(ask.id)), 'answer decline null', "alice's own answer");
  });
});

describe('Streamable HTTP: a session belongs to the user who opened it', () => {
  let node: Fixture;
  let sid: string;
  const unknownSid = 'f'.repeat(32);
  before(async () => {
    node = await startTenantNode(tenants);
    sid = await openSession(node.url, alice);
  });
  after(() => node.close());

  test("bob's POST, GET and DELETE with alice's Mcp-Session-Id get the 404 of an unknown id", async () => {
    const hijack = await sessionRequest(node.url, sid, bob, 'tools/call', { name: 'whoami', arguments: {} });
    const unknown = await sessionRequest(node.url, unknownSid, bob, 'tools/call', {
      name: 'whoami',
      arguments: {},
    });
    assert.equal(hijack.status, 404);
    assert.deepEqual(seen(hijack), seen(unknown));

    // A GET that got in would hold alice's stream open: read its status, then let go.
    for (const id of [sid, unknownSid]) {
      const get = await openStream(node.url, { method: 'GET', headers: sessionHeaders(id, bob) });
      get.abort();
      assert.equal(get.response.status, 404, id === sid ? "alice's session" : 'an unknown one');
    }

    const del = await request(node.url, { method: 'DELETE', headers: sessionHeaders(sid, bob) });
    const delUnknown = await request(node.url, {
      method: 'DELETE',
      headers: sessionHeaders(unknownSid, bob),
    });
    assert.equal(del.status, 404);
    assert.deepEqual(seen(del), seen(delUnknown));

    const mine = await sessionRequest(node.url, sid, alice, 'tools/call', { name: 'whoami', arguments: {} });
    assert.equal(mine.status, 200, "alice's session lives on");
    assert.equal(textOf(mine.answer), aliceKey);
  });

  test("bob cannot answer the elicitation alice's session is waiting on", async () => {
    const ask = call('ask');
    const stream = await openStream(node.url, { headers: sessionHeaders(sid, alice), body: ask });
    try {
      const question = await stream.sse.next((m) => m.method === 'elicitation/create');
      const consent = {
        jsonrpc: '2.0',
        id: question.id,
        result: { action: 'accept', content: { ok: true } },
      };
      assert.equal((await postJson(node.url, consent, sessionHeaders(sid, bob))).status, 404);
      const decline = { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } };
      assert.equal((await postJson(node.url, decline, sessionHeaders(sid, alice))).status, 202);
      assert.equal(textOf(await stream.sse.response(ask.id)), 'answer decline null');
    } finally {
      stream.abort();
    }
  });

  test("bob cannot resume alice's stream with Last-Event-ID", async () => {
    const ask = call('ask');
    const stream = await openStream(node.url, { headers: sessionHeaders(sid, alice), body: ask });
    const question = await stream.sse.next((m) => m.method === 'elicitation/create');
    const primed = stream.sse.events.find((e) => e.id !== undefined)!.id!;
    stream.abort(); // Alice's connection drops: the stream waits for her to resume.
    try {
      assert.equal(await resumeStatus(node.url, sid, bob, primed), 404, "alice's session id");
      const own = await openSession(node.url, bob);
      assert.equal(await resumeStatus(node.url, own, bob, primed), 400, "his own session, alice's event id");
    } finally {
      const decline = { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } };
      await postJson(node.url, decline, sessionHeaders(sid, alice));
    }
  });
});

describe('tasks: only their owner reaches them, on every HTTP path', () => {
  let node: Fixture;
  before(async () => {
    node = await startTenantNode(tenants);
  });
  after(() => node.close());

  test("modern (stateless): bob cannot get or cancel alice's task", async () => {
    const created = await modernRequest(node.url, alice, 'tools/call', { name: 'hang', arguments: {} });
    const task = created.answer?.result as Obj;
    assert.equal(task.resultType, 'task');
    const taskId = task.taskId;
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const r = await modernRequest(node.url, bob, method, { taskId });
      assert.equal((r.answer?.error as Obj | undefined)?.code, -32602, method);
      assert.match(String((r.answer?.error as Obj).message), /Task not found/, method);
    }
    const mine = await modernRequest(node.url, alice, 'tasks/get', { taskId });
    assert.equal((mine.answer?.result as Obj).status, 'working', "alice's task runs on");
    await modernRequest(node.url, alice, 'tasks/cancel', { taskId });
  });

  test("legacy sessions: bob cannot get, read, cancel or list alice's task from his own session", async () => {
    const sidA = await openSession(node.url, alice);
    const sidB = await openSession(node.url, bob);
    const created = await sessionRequest(node.url, sidA, alice, 'tools/call', {
      name: 'hang',
      arguments: {},
      task: {},
    });
    const taskId = ((created.answer?.result as Obj).task as Obj).taskId;
    assert.equal(typeof taskId, 'string');
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const r = await sessionRequest(node.url, sidB, bob, method, { taskId });
      assert.equal((r.answer?.error as Obj | undefined)?.code, -32602, method);
    }
    const list = await sessionRequest(node.url, sidB, bob, 'tasks/list');
    assert.deepEqual((list.answer?.result as Obj).tasks, []);
    const mine = await sessionRequest(node.url, sidA, alice, 'tasks/get', { taskId });
    assert.equal((mine.answer?.result as Obj).status, 'working', "alice's task runs on");
    await sessionRequest(node.url, sidA, alice, 'tasks/cancel', { taskId });
  });
});

describe('across nodes (Redis): the node holding the state checks the principal', () => {
  let redis: RedisProcess;
  const stores: RedisStores[] = [];
  let one: Fixture;
  let two: Fixture;
  before(async () => {
    redis = await startRedis();
    const keyPrefix = `hijack${process.pid}:`;
    for (let i = 0; i < 2; i++) stores.push(await connectRedisStores({ url: redis.url, keyPrefix }));
    one = await startTenantNode(tenants, { stores: stores[0]! });
    two = await startTenantNode(tenants, { stores: stores[1]! });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    for (const s of stores) await s.close();
    await redis?.stop();
  });

  test("bob's POST for alice's /sse connection, landing on the other node, gets 404; alice's reaches it as hers", async () => {
    const conn = await openSseConnection(one.origin, alice);
    try {
      const there = new URL(conn.endpoint);
      const elsewhere = `${two.origin}${there.pathname}${there.search}`;
      const forged = call('whoami');
      const hijack = await postJson(elsewhere, forged, bearer(bob));
      const unknownId = `${stores[0]!.nodeId}.${randomUUID()}`;
      const unknown = await postJson(`${two.origin}/messages?sessionId=${unknownId}`, forged, bearer(bob));
      assert.equal(hijack.status, 404);
      assert.deepEqual(seen(hijack), seen(unknown));
      const mine = call('whoami');
      assert.equal((await postJson(elsewhere, mine, bearer(alice))).status, 202);
      assert.equal(textOf(await conn.sse.response(mine.id)), aliceKey, "forwarded with alice's authInfo");
      assert.equal(conn.sse.messages().filter((m) => m.id === forged.id).length, 0);
    } finally {
      conn.close();
    }
  });

  test("bob cannot use alice's session on another node, nor resume her stream there from his own", async () => {
    const sid = await openSession(one.url, alice);
    const hijack = await sessionRequest(two.url, sid, bob, 'tools/call', { name: 'whoami', arguments: {} });
    assert.equal(hijack.status, 404);
    const mine = await sessionRequest(two.url, sid, alice, 'tools/call', { name: 'whoami', arguments: {} });
    assert.equal(textOf(mine.answer), aliceKey, "alice's session serves her on the other node");

    const ask = call('ask');
    const stream = await openStream(one.url, { headers: sessionHeaders(sid, alice), body: ask });
    const question = await stream.sse.next((m) => m.method === 'elicitation/create');
    const primed = stream.sse.events.find((e) => e.id !== undefined)!.id!;
    stream.abort(); // Her events go to the shared store, for any node to replay to her.
    try {
      const own = await openSession(two.url, bob);
      // Wait until the store has her events (she could resume there), so that bob's refusal
      // is not merely "not stored yet".
      await waitFor(async () => (await resumeStatus(two.url, sid, alice, primed)) === 200);
      assert.equal(await resumeStatus(two.url, own, bob, primed), 400, "his own session, alice's event id");
    } finally {
      const decline = { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } };
      await postJson(one.url, decline, sessionHeaders(sid, alice));
    }
  });
});
