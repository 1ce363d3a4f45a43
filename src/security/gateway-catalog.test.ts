/**
 * Per-caller catalogs at the gateway: its `visibility` rules show `vault__delete_all` only to
 * tokens with the `vault:admin` scope and `vault__read_secret` only to tokens whose `team`
 * claim is `sec`. Bob (neither) tries to list and call them over real HTTP with a real JWT, in
 * both eras: he must find nothing, get the error a missing tool gets, and reach no upstream.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { freePort } from '../test-support/cluster.js';
import { startGateway, startUpstream, token } from '../test-support/gateway-harness.js';
import type { RunningGateway, Upstream } from '../test-support/gateway-harness.js';
import { modern, postJson, rpc } from '../test-support/http-server-harness.js';
import type { Obj, RawResponse } from '../test-support/http-server-harness.js';
import { bearer, openSession, sessionHeaders } from '../test-support/tenant-server.js';

const UPSTREAM = token();

let upstream: Upstream;
let as: TestAuthServer;
let gw: RunningGateway;
let admin: string;
let bob: string;

before(async () => {
  upstream = await startUpstream(UPSTREAM);
  as = await TestAuthServer.start({});
  const port = await freePort();
  gw = await startGateway({
    upstreamUrl: upstream.url,
    upstreamToken: UPSTREAM,
    port,
    gateway: {
      auth: {
        tokens: {},
        jwt: { issuer: as.issuer, audience: `http://127.0.0.1:${port}/mcp`, jwksUrl: `${as.issuer}/jwks` },
      },
      visibility: [
        { server: 'vault', tools: ['delete_all'], scopes: ['vault:admin'] },
        { server: 'vault', tools: ['read_secret'], claims: { team: ['sec', 'ops'] } },
      ],
    },
  });
  admin = await as.sign({ sub: 'root', aud: gw.url, client_id: 'app', scope: 'vault:admin', team: 'sec' });
  bob = await as.sign({ sub: 'bob', aud: gw.url, client_id: 'app', scope: 'vault:read', team: 'sales' });
});
after(async () => {
  await gw.close();
  await upstream.close();
  await as.close();
});

/** The JSON-RPC answer of a response, as sent: the JSON body, or the SSE event carrying it. */
function answerText(r: RawResponse): string {
  if (r.json) return r.body;
  const line = r.body.split('\n').find((l) => l.startsWith('data:') && l.includes('"jsonrpc"'));
  return line!.slice(5).trim();
}

const upstreamCalls = (): number => [...upstream.calls.values()].reduce((a, b) => a + b, 0);

describe('gateway: per-caller catalogs by scope and claim', () => {
  for (const era of ['legacy', 'modern'] as const) {
    const senderFor = async (jwt: string) => {
      if (era === 'modern') {
        return (method: string, params: Obj, id = 5) => {
          const m = modern(method, params);
          return postJson(gw.url, { ...m.body, id }, { ...m.headers, ...bearer(jwt) });
        };
      }
      const sid = await openSession(gw.url, jwt);
      return (method: string, params: Obj, id = 5) =>
        postJson(gw.url, rpc(method, params, id), sessionHeaders(sid, jwt));
    };

    test(`${era}: Bob sees neither hidden tool, and calling one is calling a tool that does not exist`, async () => {
      const asBob = await senderFor(bob);
      const listed = await asBob('tools/list', {});
      assert.ok(!/delete_all|read_secret/.test(listed.body), listed.body);
      const tools = ((JSON.parse(answerText(listed)) as Obj).result as { tools: Obj[] }).tools;
      assert.deepEqual(
        tools.map((t) => t.name),
        ['vault__echo'],
      );
      const before = upstreamCalls();
      for (const name of ['vault__delete_all', 'vault__read_secret']) {
        const hidden = await asBob('tools/call', { name, arguments: {} }, 9);
        const missing = await asBob('tools/call', { name: 'vault__nothing_here', arguments: {} }, 9);
        assert.equal(hidden.status, missing.status);
        assert.equal(
          answerText(hidden).replace(name, 'NAME'),
          answerText(missing).replace('vault__nothing_here', 'NAME'),
        );
        assert.equal(((JSON.parse(answerText(hidden)) as Obj).error as Obj).code, -32602);
      }
      assert.equal(upstreamCalls(), before, 'a hidden tool reached the upstream server');
    });

    test(`${era}: a caller with the scope and the claim sees and calls both`, async () => {
      const asAdmin = await senderFor(admin);
      const tools = (
        (JSON.parse(answerText(await asAdmin('tools/list', {}))) as Obj).result as { tools: Obj[] }
      ).tools;
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'vault__delete_all',
        'vault__echo',
        'vault__read_secret',
      ]);
      const r = JSON.parse(
        answerText(await asAdmin('tools/call', { name: 'vault__read_secret', arguments: {} })),
      );
      assert.match(JSON.stringify(r.result), /vault-contents/);
    });
  }
});
