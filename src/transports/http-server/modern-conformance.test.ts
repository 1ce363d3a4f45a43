/**
 * 2026-07-28 behaviours the official conformance suite checks, over a real socket against
 * the everything server: errors for a version header without `_meta`, the -32022 list,
 * MissingRequiredClientCapability (-32021), strict base64 in `Mcp-Param-*` headers, and
 * `input_required` rounds with several questions under keys the handler chose.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MetaKey } from '../../protocol/meta-keys.js';
import {
  MODERN,
  assertServerMessage,
  errorCode,
  modern,
  postJson,
  startEverything,
} from '../../test-support/http-server-harness.js';
import type { Fixture, Obj, RawResponse } from '../../test-support/http-server-harness.js';

let f: Fixture;
before(async () => {
  f = await startEverything({}, 1);
});
after(() => f.close());

const ALL_CAPS = { sampling: {}, elicitation: {}, roots: {} };

/** A modern request with these client capabilities; the answer is checked against the schema. */
async function send(method: string, params: Obj, caps: Obj = ALL_CAPS, headers: Record<string, string> = {}) {
  const m = modern(method, params, { meta: { [MetaKey.ClientCapabilities]: caps } });
  const r = await postJson(f.url, m.body, { ...m.headers, ...headers });
  if (r.json) assertServerMessage(MODERN, r.json, method);
  return r;
}

const result = (r: RawResponse): Obj => {
  assert.equal(r.status, 200, r.body);
  return r.json?.result as Obj;
};
const text = (res: Obj): string => String(((res.content as Obj[])[0] as Obj).text);
const accept = (content: Obj): Obj => ({ action: 'accept', content });

describe('modern request errors', () => {
  test('the 2026-07-28 header without _meta → 400 -32602 with the request id, not a session error', async () => {
    for (const params of [{}, { _meta: { [MetaKey.ClientCapabilities]: {} } }]) {
      const r = await postJson(
        f.url,
        { jsonrpc: '2.0', id: 77, method: 'tools/list', params },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
      assert.equal(r.status, 400, r.body);
      assert.equal(errorCode(r), -32602);
      assert.equal(r.json?.id, 77);
    }
  });

  test('-32022 lists exactly what server/discover lists', async () => {
    const discover = result(await send('server/discover', {}));
    const m = modern('tools/list', {}, { version: '2099-01-01' });
    const r = await postJson(f.url, m.body, m.headers);
    assert.equal(errorCode(r), -32022);
    assert.deepEqual(((r.json?.error as Obj).data as Obj).supported, discover.supportedVersions);
  });

  test('a question the client cannot answer → 400 -32021 naming the capability', async () => {
    const r = await send(
      'tools/call',
      { name: 'test_missing_capability', arguments: {} },
      { elicitation: {} },
    );
    assert.equal(r.status, 400, r.body);
    assert.equal(errorCode(r), -32021);
    assert.deepEqual(((r.json?.error as Obj).data as Obj).requiredCapabilities, { sampling: {} });
    for (const [name, caps] of [
      ['test_input_required_result_elicitation', { sampling: {} }],
      ['test_input_required_result_list_roots', { sampling: {} }],
    ] as const) {
      assert.equal(errorCode(await send('tools/call', { name, arguments: {} }, caps)), -32021, name);
    }
  });

  test('Mcp-Param-* values must be padded, canonical base64', async () => {
    const call = (header: string) =>
      send('tools/call', { name: 'lookup_account', arguments: { tenant: 'Hello' } }, ALL_CAPS, {
        'mcp-param-tenant': header,
      });
    assert.equal((await call('=?base64?SGVsbG8=?=')).status, 200);
    for (const bad of [
      '=?base64?SGVsbG8?=',
      '=?base64?SGVs!!!bG8=?=',
      '=?base64?SGVsbG9=?=',
      '=?base64?SGVsbG8==?=',
    ]) {
      const r = await call(bad);
      assert.equal(r.status, 400, bad);
      assert.equal(errorCode(r), -32020, bad);
    }
    // Without the full sentinel the value is literal.
    const literal = await send(
      'tools/call',
      { name: 'lookup_account', arguments: { tenant: '=?base64?SGVsbG8=' } },
      ALL_CAPS,
      { 'mcp-param-tenant': '=?base64?SGVsbG8=' },
    );
    assert.equal(literal.status, 200, literal.body);
  });
});

describe('input_required rounds', () => {
  test('several questions in one round, under the keys the handler chose', async () => {
    const name = 'test_input_required_result_multiple_inputs';
    const first = result(await send('tools/call', { name, arguments: {} }));
    assert.equal(first.resultType, 'input_required');
    const asked = first.inputRequests as Record<string, Obj>;
    assert.deepEqual(Object.keys(asked), ['user_name', 'greeting', 'client_roots']);
    assert.deepEqual(
      Object.values(asked).map((q) => q.method),
      ['elicitation/create', 'sampling/createMessage', 'roots/list'],
    );
    // One answer missing: that question alone is asked again, the others are kept.
    const partial = result(
      await send('tools/call', {
        name,
        arguments: {},
        requestState: first.requestState,
        inputResponses: {
          user_name: accept({ name: 'Ada' }),
          greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' },
        },
      }),
    );
    assert.equal(partial.resultType, 'input_required');
    assert.deepEqual(Object.keys(partial.inputRequests as Obj), ['client_roots']);
    const done = result(
      await send('tools/call', {
        name,
        arguments: {},
        requestState: partial.requestState,
        inputResponses: { client_roots: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] } },
      }),
    );
    assert.equal(done.resultType, 'complete');
    assert.equal(text(done), 'Hi, Ada! You have 2 root(s).');
  });

  test('a wrong or missing response is asked again; a malformed one is -32602', async () => {
    const name = 'test_input_required_result_elicitation';
    const again = result(
      await send('tools/call', { name, arguments: {}, inputResponses: { wrong_key: accept({ name: 'x' }) } }),
    );
    assert.equal(again.resultType, 'input_required');
    assert.deepEqual(Object.keys(again.inputRequests as Obj), ['user_name']);
    for (const inputResponses of [{ user_name: 12345 }, null, 'yes']) {
      const r = await send('tools/call', { name, arguments: {}, inputResponses });
      assert.equal(r.status, 400, JSON.stringify(inputResponses));
      assert.equal(errorCode(r), -32602);
    }
  });

  test('rounds follow one another, each with a new requestState; a tampered one is refused', async () => {
    const name = 'test_input_required_result_multi_round';
    const r1 = result(await send('tools/call', { name, arguments: {} }));
    assert.deepEqual(Object.keys(r1.inputRequests as Obj), ['step1']);
    const r2 = result(
      await send('tools/call', {
        name,
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { step1: accept({ name: 'Ada' }) },
      }),
    );
    assert.deepEqual(Object.keys(r2.inputRequests as Obj), ['step2']);
    assert.notEqual(r2.requestState, r1.requestState);
    const tampered = await send('tools/call', {
      name,
      arguments: {},
      requestState: `${String(r2.requestState)}-TAMPERED`,
      inputResponses: { step2: accept({ color: 'blue' }) },
    });
    assert.equal(errorCode(tampered), -32602);
    const r3 = result(
      await send('tools/call', {
        name,
        arguments: {},
        requestState: r2.requestState,
        inputResponses: { step2: accept({ color: 'blue' }) },
      }),
    );
    assert.equal(text(r3), 'Ada likes blue');
  });

  test('the handler knows when an answer came back with verified state (ctx.inputRound)', async () => {
    const name = 'test_input_required_result_request_state';
    const r1 = result(await send('tools/call', { name, arguments: {} }));
    const done = result(
      await send('tools/call', {
        name,
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { confirm: accept({ ok: true }) },
      }),
    );
    assert.equal(text(done), 'Confirmed (state-ok)');
  });

  test('only questions the client can answer are asked', async () => {
    const r = result(
      await send(
        'tools/call',
        { name: 'test_input_required_result_capabilities', arguments: {} },
        { sampling: {} },
      ),
    );
    assert.deepEqual(Object.keys(r.inputRequests as Obj), ['greeting']);
  });

  test('prompts/get asks too', async () => {
    const name = 'test_input_required_result_prompt';
    const r1 = result(await send('prompts/get', { name }));
    assert.deepEqual(Object.keys(r1.inputRequests as Obj), ['user_context']);
    const done = result(
      await send('prompts/get', {
        name,
        requestState: r1.requestState,
        inputResponses: { user_context: accept({ context: 'billing' }) },
      }),
    );
    assert.match(JSON.stringify(done.messages), /billing/);
  });
});
