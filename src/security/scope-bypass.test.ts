/**
 * Threat: a caller with a user's token runs an admin tool by lying in the `Mcp-Method` and
 * `Mcp-Name` headers that a per-request scope rule reads: a header encoded as
 * `=?base64?…?=` that the rule does not decode, a legacy request (2025-11-25 and older)
 * whose headers nobody checks against the body, or a batch whose one header speaks for many
 * messages. Defence: scope decisions are taken after the body is parsed, on the method and
 * name of every message in it, with headers decoded and checked against the body first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '../jsonrpc/index.js';
import type { BearerRequest } from '../auth/server/bearer-auth.js';
import {
  errorCode,
  modern,
  notification,
  postJson,
  rpc,
  sseMessages,
} from '../test-support/http-server-harness.js';
import type { RawResponse } from '../test-support/http-server-harness.js';
import { bearerOf, challengeOf, openSession, startScopedMcp } from '../test-support/security-fixtures.js';
import type { ScopedMcp } from '../test-support/security-fixtures.js';

const b64 = (s: string): string => `=?base64?${Buffer.from(s).toString('base64')}?=`;
const callAdmin = () => rpc('tools/call', { name: 'admin_reset', arguments: {} });
const callWhoami = () => rpc('tools/call', { name: 'whoami', arguments: {} });

/** Refused before anything ran: 403 insufficient_scope, or 400 header mismatch. */
function assertRefused(r: RawResponse, mcp: ScopedMcp, how: 403 | 400): void {
  assert.equal(r.status, how, r.body);
  if (how === 403) assert.match(challengeOf(r), /error="insufficient_scope"/);
  else assert.equal(errorCode(r), ErrorCode.HeaderMismatch);
  assert.deepEqual(mcp.ran, [], 'no tool handler ran');
}

describe('a scope rule on the tool name, as the docs show it', () => {
  let mcp: ScopedMcp;
  let user: Record<string, string>;
  const rule = (r: BearerRequest) =>
    r.header('mcp-name') === 'admin_reset' ? ['mcp:user', 'mcp:admin'] : ['mcp:user'];
  before(async () => {
    mcp = await startScopedMcp({ bearer: { requiredScopes: rule } });
    user = bearerOf(await mcp.token('mcp:user'));
  });
  after(() => mcp.close());

  it('modern era: an encoded Mcp-Name does not slip past the rule', async () => {
    mcp.ran.length = 0;
    const m = modern('tools/call', { name: 'admin_reset', arguments: {} });
    const r = await postJson(mcp.url, m.body, { ...user, ...m.headers, 'mcp-name': b64('admin_reset') });
    assertRefused(r, mcp, 403);
    assert.match(challengeOf(r), /scope="mcp:user mcp:admin"/);
  });

  it('modern era: a forged Mcp-Name is refused, and the admin tool does not run', async () => {
    mcp.ran.length = 0;
    const m = modern('tools/call', { name: 'admin_reset', arguments: {} });
    const r = await postJson(mcp.url, m.body, { ...user, ...m.headers, 'mcp-name': 'whoami' });
    assert.notEqual(r.status, 200);
    assert.deepEqual(mcp.ran, []);
  });

  it('legacy era: a request without Mcp-* headers is decided on its body', async () => {
    const sid = await openSession(mcp.url, user);
    mcp.ran.length = 0;
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    assertRefused(await postJson(mcp.url, callAdmin(), h), mcp, 403);
  });

  it('legacy era: a forged Mcp-Name is refused as in the modern era', async () => {
    const sid = await openSession(mcp.url, user);
    mcp.ran.length = 0;
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    assertRefused(await postJson(mcp.url, callAdmin(), { ...h, 'mcp-name': 'whoami' }), mcp, 400);
  });

  it('legacy era: an encoded Mcp-Name that matches the body is decoded, then decided on', async () => {
    const sid = await openSession(mcp.url, user);
    mcp.ran.length = 0;
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    assertRefused(await postJson(mcp.url, callAdmin(), { ...h, 'mcp-name': b64('admin_reset') }), mcp, 403);
  });

  it('a batch (2025-03-26) is decided on every message in it, all or nothing', async () => {
    const sid = await openSession(mcp.url, user, '2025-03-26');
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' };
    mcp.ran.length = 0;
    assertRefused(await postJson(mcp.url, [callWhoami(), callAdmin()], h), mcp, 403);
    const forged = { ...h, 'mcp-method': 'tools/call', 'mcp-name': 'whoami' };
    assertRefused(await postJson(mcp.url, [callWhoami(), callAdmin()], forged), mcp, 400);
  });

  it('the rule still lets the user do what the user may, and the admin what the admin may', async () => {
    const sid = await openSession(mcp.url, user);
    mcp.ran.length = 0;
    const h = { ...user, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const mine = await postJson(mcp.url, callWhoami(), h);
    assert.equal(mine.status, 200);
    assert.equal(sseMessages(mine.body).length, 1);
    const admin = bearerOf(await mcp.token('mcp:user mcp:admin'));
    const m = modern('tools/call', { name: 'admin_reset', arguments: {} });
    const r = await postJson(mcp.url, m.body, { ...admin, ...m.headers, 'mcp-name': b64('admin_reset') });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(mcp.ran, ['whoami', 'admin_reset']);
  });
});

describe('a scope rule on the method', () => {
  let mcp: ScopedMcp;
  let reader: Record<string, string>;
  before(async () => {
    mcp = await startScopedMcp({
      bearer: {
        requiredScopes: (r) =>
          r.header('mcp-method') === 'tools/call' ? ['mcp:read', 'mcp:call'] : ['mcp:read'],
      },
    });
    reader = bearerOf(await mcp.token('mcp:read'));
  });
  after(() => mcp.close());

  it('legacy era: Mcp-Method: tools/list on a tools/call is refused, and nothing runs', async () => {
    const sid = await openSession(mcp.url, reader);
    mcp.ran.length = 0;
    const h = { ...reader, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    assertRefused(await postJson(mcp.url, callWhoami(), { ...h, 'mcp-method': 'tools/list' }), mcp, 400);
    assertRefused(await postJson(mcp.url, callWhoami(), h), mcp, 403);
    const listed = await postJson(mcp.url, rpc('tools/list'), h);
    assert.equal(listed.status, 200);
  });

  it('modern era: the body decides, whatever the headers say', async () => {
    mcp.ran.length = 0;
    const m = modern('tools/call', { name: 'whoami', arguments: {} });
    assertRefused(await postJson(mcp.url, m.body, { ...reader, ...m.headers }), mcp, 403);
    const lie = { ...reader, ...m.headers, 'mcp-method': 'tools/list' };
    assert.notEqual((await postJson(mcp.url, m.body, lie)).status, 200);
    assert.deepEqual(mcp.ran, []);
  });
});

describe('the deprecated HTTP+SSE transport (2024-11-05)', () => {
  let mcp: ScopedMcp;
  before(async () => {
    mcp = await startScopedMcp({
      legacySse: true,
      bearer: {
        requiredScopes: (r) =>
          r.header('mcp-name') === 'admin_reset' ? ['mcp:user', 'mcp:admin'] : ['mcp:user'],
      },
    });
  });
  after(() => mcp.close());

  it('a POST to /messages is decided on its body too', async () => {
    const user = bearerOf(await mcp.token('mcp:user'));
    const origin = new URL(mcp.url).origin;
    const ac = new AbortController();
    const stream = await fetch(`${origin}/sse`, {
      headers: { ...user, accept: 'text/event-stream' },
      signal: ac.signal,
    });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    /** Reads the stream until `pattern` appears in it. */
    const until = async (pattern: RegExp): Promise<RegExpExecArray> => {
      for (;;) {
        const m = pattern.exec(text);
        if (m) return m;
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${String(pattern)}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    try {
      const endpoint = (await until(/event: endpoint\ndata: (\S+)\n/))[1]!;
      const post = (body: unknown) => postJson(new URL(endpoint, origin).href, body, user);
      assert.equal(
        (
          await post(
            rpc(
              'initialize',
              {
                protocolVersion: '2024-11-05',
                capabilities: {},
                clientInfo: { name: 't', version: '1' },
              },
              'init',
            ),
          )
        ).status,
        202,
      );
      await until(/"id":"init"/);
      assert.equal((await post(notification('notifications/initialized'))).status, 202);
      mcp.ran.length = 0;
      const refused = await post(callAdmin());
      assert.equal(refused.status, 403, refused.body);
      assert.match(challengeOf(refused), /error="insufficient_scope"/);
      // A call the user may make, answered on the stream: the admin call never ran before it.
      assert.equal((await post(rpc('tools/call', { name: 'whoami', arguments: {} }, 'me'))).status, 202);
      await until(/"id":"me"/);
      assert.deepEqual(mcp.ran, ['whoami']);
    } finally {
      ac.abort();
    }
  });
});
