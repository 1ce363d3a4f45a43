/**
 * One everything server shared by several connections must keep them apart
 * (CVE-2026-25536: a shared server leaked responses and progress to the wrong client),
 * and modern-era request state that travels through the client must not be forgeable.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, WireError } from '../jsonrpc/index.js';
import type { McpServer } from '../server/server.js';
import type { Progress } from '../session/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { openClient } from '../test-support/mcp-harness.js';
import type { Obj, TestClient } from '../test-support/mcp-harness.js';
import { createEverythingServer } from './everything-server.js';
import { waitFor } from '../test-support/waiting.js';

const MODERN = '2026-07-28';
const isInvalidParams = (e: unknown) => e instanceof WireError && e.code === ErrorCode.InvalidParams;
const text = (r: Obj) => String((r.content as Obj[])[0]?.text);

async function connect(server: McpServer, revision: string): Promise<TestClient> {
  const [clientSide, serverSide] = memoryPair();
  await server.connect(serverSide);
  return openClient(clientSide, revision);
}

for (const revision of ['2025-11-25', MODERN]) {
  describe(`two connections to one server, ${revision} (CVE-2026-25536)`, () => {
    let server: McpServer;
    before(() => {
      server = createEverythingServer({ stepMs: 5 });
    });
    after(() => server.close());

    test('each connection sees only its own responses and progress', async () => {
      const [a, b] = await Promise.all([connect(server, revision), connect(server, revision)]);
      assert.equal(server.connectionCount, 2);
      const progressA: Progress[] = [];
      const progressB: Progress[] = [];
      // Both sessions number their requests from the same start, so ids and progress
      // tokens collide on purpose: only per-connection routing keeps them apart.
      const [countA, countB, echoA, echoB, sampleA, sampleB] = await Promise.all([
        a.callTool('slow_count', { n: 3 }, { onprogress: (p) => progressA.push(p) }),
        b.callTool('slow_count', { n: 5 }, { onprogress: (p) => progressB.push(p) }),
        a.callTool('echo', { text: 'from A' }),
        b.callTool('echo', { text: 'from B' }),
        a.callTool('test_sampling', { prompt: 'question A' }),
        b.callTool('test_sampling', { prompt: 'question B' }),
      ]);
      assert.equal(text(countA), 'Counted to 3');
      assert.equal(text(countB), 'Counted to 5');
      assert.equal(text(echoA), 'from A');
      assert.equal(text(echoB), 'from B');
      assert.equal(text(sampleA), 'LLM response: Echo: question A');
      assert.equal(text(sampleB), 'LLM response: Echo: question B');
      assert.deepEqual(
        progressA.map((p) => [p.progress, p.total]),
        [
          [1, 3],
          [2, 3],
          [3, 3],
        ],
      );
      assert.deepEqual(
        progressB.map((p) => p.total),
        [5, 5, 5, 5, 5],
      );
      assert.deepEqual(
        a.script.questions('sampling/createMessage').map((q) => (q.messages as Obj[])[0]?.content),
        [{ type: 'text', text: 'question A' }],
      );
      assert.deepEqual(
        b.script.questions('sampling/createMessage').map((q) => (q.messages as Obj[])[0]?.content),
        [{ type: 'text', text: 'question B' }],
      );
      for (const [client, total] of [
        [a, 3],
        [b, 5],
      ] as const) {
        const tap = client.tap;
        // Every response answers a request this client made, exactly once.
        const sent = tap.requestsFrom('client').map((r) => r.id);
        const answered = tap.entries
          .filter((e) => e.from === 'server' && e.message.method === undefined)
          .map((e) => e.message.id);
        assert.deepEqual([...answered].sort(), [...sent].sort());
        const slowTotals = tap.notifications('notifications/progress').map((n) => (n.params as Obj).total);
        assert.ok(slowTotals.length > 0 && slowTotals.every((t) => t === total));
        tap.assertValid();
      }
      await Promise.all([a.close(), b.close()]);
    });
  });
}

describe('connection bookkeeping', () => {
  test('an application onclose on the session does not stop the server forgetting it', async () => {
    const server = createEverythingServer();
    const [clientSide, serverSide] = memoryPair();
    const session = await server.connect(serverSide);
    let told = false;
    session.onclose = () => (told = true); // as the McpServer.connect example does
    const client = await openClient(clientSide, '2025-11-25');
    assert.equal(server.connectionCount, 1);
    await client.close();
    await waitFor(() => told);
    assert.equal(server.connectionCount, 0);
    await server.close();
  });
});

describe('modern requestState integrity', () => {
  let server: McpServer;
  let client: TestClient;
  before(async () => {
    server = createEverythingServer();
    client = await connect(server, MODERN);
  });
  after(async () => {
    client.tap.assertValid();
    await client.close();
    await server.close();
  });

  const call = (args: Obj, extra: Obj = {}) =>
    client.session.request('tools/call', { name: 'test_elicitation', arguments: args, ...extra });

  async function firstRound(): Promise<{ state: string; responses: Obj }> {
    const first = await call({ message: 'Who?' });
    assert.equal(first.resultType, 'input_required');
    const requests = first.inputRequests as Record<string, Obj>;
    const responses: Obj = {};
    for (const [key, req] of Object.entries(requests)) {
      responses[key] = await client.script.answer(String(req.method), req.params as Obj);
    }
    return { state: String(first.requestState), responses };
  }

  test('the genuine state completes the call', async () => {
    const { state, responses } = await firstRound();
    const done = await call({ message: 'Who?' }, { inputResponses: responses, requestState: state });
    assert.equal(done.resultType, 'complete');
    assert.match(text(done), /^User response: action=accept/);
  });

  test('a forged payload (answers injected, signature kept) is -32602', async () => {
    const { state, responses } = await firstRound();
    const [body, signature] = state.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Obj;
    payload.a = { q0: { action: 'accept', content: { username: 'root', email: 'x@evil' } } };
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    await assert.rejects(
      call({ message: 'Who?' }, { inputResponses: responses, requestState: forged }),
      isInvalidParams,
    );
  });

  test('a damaged signature is -32602', async () => {
    const { state, responses } = await firstRound();
    const i = state.indexOf('.') + 5;
    const damaged = state.slice(0, i) + (state[i] === 'A' ? 'B' : 'A') + state.slice(i + 1);
    await assert.rejects(
      call({ message: 'Who?' }, { inputResponses: responses, requestState: damaged }),
      isInvalidParams,
    );
  });

  test('state moved to another request, or to another method, is -32602', async () => {
    const { state, responses } = await firstRound();
    await assert.rejects(
      call({ message: 'Someone else?' }, { inputResponses: responses, requestState: state }),
      isInvalidParams,
    );
    await assert.rejects(
      client.session.request('prompts/get', { name: 'test_simple_prompt', requestState: state }),
      isInvalidParams,
    );
  });

  test('an answer that does not fit the question is -32602', async () => {
    const { state } = await firstRound();
    await assert.rejects(
      call({ message: 'Who?' }, { inputResponses: { q0: { roots: [] } }, requestState: state }),
      isInvalidParams,
    );
  });
});
