import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import type { LocalErrorCode } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import {
  ELICIT_FORM,
  SAMPLE,
  connectedPair,
  createTestServer,
  rawLegacyServer,
  text,
} from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import { Client } from './client.js';
import { CLIENT_INFO } from '../test-support/client-harness.js';
import type { ClientOptions } from './types.js';
import { WAIT_MS, delay, settle, waitFor } from '../test-support/waiting.js';

function isLocal(code: LocalErrorCode, includes?: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof LocalError, `expected LocalError ${code}, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (includes) assert.ok(e.message.includes(includes), e.message);
    return true;
  };
}

const allHandlers: ClientOptions['handlers'] = {
  elicitation: { handler: async () => ({ action: 'accept', content: { name: 'Ada' } }), url: true },
  sampling: async () => ({ role: 'assistant', content: { type: 'text', text: '4' }, model: 'm' }),
  roots: [{ uri: 'file:///r' }],
};

/** A modern test server whose tools/call is `handler`, and the tools/call requests it saw. */
async function withTool(handler: (params: Obj, round: number) => unknown, options: ClientOptions = {}) {
  const server = createTestServer();
  const calls: Obj[] = [];
  server.handle('tools/call', (params) => {
    calls.push(params);
    return handler(params, calls.length);
  });
  const { client } = await connectedPair({ era: 'modern', handlers: allHandlers, ...options }, server);
  const ids = () => server.wire.filter((m) => m.method === 'tools/call').map((m) => m.id);
  return { client, server, calls, ids };
}

describe('MRTR (modern)', () => {
  test('several input requests in one round are answered, then the request is retried', async () => {
    const { client, calls, ids } = await withTool((params, round) => {
      if (round === 1) {
        return {
          resultType: 'input_required',
          inputRequests: {
            who: { method: 'elicitation/create', params: ELICIT_FORM },
            llm: { method: 'sampling/createMessage', params: SAMPLE },
            where: { method: 'roots/list' },
          },
          requestState: 'opaque+/=state',
        };
      }
      return text(JSON.stringify({ responses: params.inputResponses, state: params.requestState }));
    });
    const r = await client.callTool({ name: 'x', arguments: { a: 1 } });
    const out = JSON.parse((r.content[0] as { text: string }).text) as Obj;
    assert.equal(out.state, 'opaque+/=state');
    const responses = out.responses as Obj;
    assert.deepEqual(Object.keys(responses).sort(), ['llm', 'where', 'who']);
    assert.equal((responses.who as Obj).action, 'accept');
    assert.equal(((responses.who as Obj).content as Obj).age, 30, 'defaults applied');
    assert.equal((responses.llm as Obj).model, 'm');
    assert.deepEqual(responses.where, { roots: [{ uri: 'file:///r' }] });
    // The retry repeats the original params under a new id.
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[1]!.arguments, { a: 1 });
    assert.equal(calls[1]!.name, 'x');
    const [first, second] = ids();
    assert.notEqual(first, second);
    assert.equal((calls[1]!._meta as Obj)[MetaKey.ProtocolVersion], '2026-07-28');
    await client.close();
  });

  test('no requestState in the answer: none on the retry', async () => {
    const { client, calls } = await withTool((_p, round) =>
      round === 1
        ? {
            resultType: 'input_required',
            inputRequests: { r: { method: 'roots/list', params: {} } },
          }
        : text('ok'),
    );
    await client.callTool({ name: 'x' });
    assert.ok(!('requestState' in calls[1]!));
    assert.ok('inputResponses' in calls[1]!);
    await client.close();
  });

  test('requestState alone: retried at once with the state and no inputResponses', async () => {
    const { client, calls } = await withTool((_p, round) =>
      round === 1 ? { resultType: 'input_required', requestState: 's1' } : text('ok'),
    );
    await client.callTool({ name: 'x' });
    assert.equal(calls[1]!.requestState, 's1');
    assert.ok(!('inputResponses' in calls[1]!));
    await client.close();
  });

  test('prompts/get and resources/read follow input_required too', async () => {
    const server = createTestServer();
    server.handle('prompts/get', (params) =>
      params.requestState === 'p' ? { messages: [] } : { resultType: 'input_required', requestState: 'p' },
    );
    server.handle('resources/read', (params) =>
      params.inputResponses
        ? { contents: [{ uri: 'x', text: 'y' }], ttlMs: 60_000 }
        : { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } },
    );
    const { client } = await connectedPair({ era: 'modern', handlers: allHandlers }, server);
    assert.deepEqual((await client.getPrompt({ name: 'p' })).messages, []);
    await client.readResource({ uri: 'x' });
    await client.readResource({ uri: 'x' });
    // A result that needed input is never cached.
    assert.equal(server.requests.filter((r) => r.method === 'resources/read').length, 4);
    await client.close();
  });

  test('an endless input_required loop stops with TooManyRounds', async () => {
    const { client, calls } = await withTool(
      () => ({ resultType: 'input_required', requestState: 'again' }),
      { maxInputRounds: 3 },
    );
    await assert.rejects(client.callTool({ name: 'x' }), isLocal('TooManyRounds', 'after 3 rounds'));
    assert.equal(calls.length, 4);
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('the default round limit is 8', async () => {
    const { client, calls } = await withTool(() => ({
      resultType: 'input_required',
      requestState: 'again',
    }));
    await assert.rejects(client.callTool({ name: 'x' }), isLocal('TooManyRounds'));
    assert.equal(calls.length, 9);
    await client.close();
  });

  test('a missing handler fails with HandlerMissing, never a hang', async () => {
    const { client } = await withTool(
      () => ({
        resultType: 'input_required',
        inputRequests: { s: { method: 'sampling/createMessage', params: SAMPLE } },
      }),
      { handlers: {} },
    );
    await assert.rejects(client.callTool({ name: 'x' }), isLocal('HandlerMissing', 'handlers.sampling'));
    await client.close();
  });

  for (const [name, result, code] of [
    ['an unknown resultType', { resultType: 'partial', content: [] }, 'InvalidResult'],
    ['input_required with neither field', { resultType: 'input_required' }, 'InvalidResult'],
    [
      'inputRequests that is not an object',
      { resultType: 'input_required', inputRequests: [1] },
      'InvalidResult',
    ],
    ['a non-string requestState', { resultType: 'input_required', requestState: 5 }, 'InvalidResult'],
    [
      'an entry without a method',
      { resultType: 'input_required', inputRequests: { a: { params: {} } } },
      'InvalidResult',
    ],
    [
      'an entry with an unknown method',
      { resultType: 'input_required', inputRequests: { a: { method: 'tools/call', params: {} } } },
      'InvalidResult',
    ],
    ['a result without content', { resultType: 'complete' }, 'InvalidResult'],
  ] as const) {
    test(`${name}: InvalidResult, and the connection stays usable`, async () => {
      const { client } = await withTool((_p, round) => (round === 1 ? result : text('fine')));
      await assert.rejects(client.callTool({ name: 'x' }), isLocal(code));
      assert.equal(((await client.callTool({ name: 'x' })).content[0] as { text: string }).text, 'fine');
      await client.close();
    });
  }

  test('input_required on a method that cannot have it is InvalidResult', async () => {
    const server = createTestServer();
    server.handle('tools/list', () => ({ resultType: 'input_required', requestState: 'x' }));
    const { client } = await connectedPair({ era: 'modern' }, server);
    await assert.rejects(client.listTools(), isLocal('InvalidResult', 'only valid for tools/call'));
    await client.close();
  });

  test('aborting while a handler runs cancels the call and the handler signal', async () => {
    let handlerSignal: AbortSignal | undefined;
    const { client } = await withTool(
      () => ({
        resultType: 'input_required',
        inputRequests: { q: { method: 'elicitation/create', params: ELICIT_FORM } },
      }),
      {
        handlers: {
          elicitation: (_p, ctx) => {
            handlerSignal = ctx.signal;
            return new Promise(() => undefined); // the user never answers
          },
        },
      },
    );
    const ac = new AbortController();
    const p = client.callTool({ name: 'x' }, { signal: ac.signal });
    await waitFor(() => handlerSignal, WAIT_MS, 'the elicitation handler to run');
    assert.equal(handlerSignal?.aborted, false);
    ac.abort();
    await assert.rejects(p, isLocal('Cancelled'));
    assert.equal(handlerSignal?.aborted, true);
    await client.close();
  });

  test('closing the client while a handler runs rejects at once', async () => {
    const { client } = await withTool(
      () => ({
        resultType: 'input_required',
        inputRequests: { q: { method: 'elicitation/create', params: ELICIT_FORM } },
      }),
      { handlers: { elicitation: () => new Promise(() => undefined) } },
    );
    const p = client.callTool({ name: 'x' });
    await delay(10);
    await client.close();
    await assert.rejects(p, isLocal('ConnectionClosed'));
  });

  test('a handler that throws fails the call with its error', async () => {
    const { client } = await withTool(
      () => ({ resultType: 'input_required', inputRequests: { q: { method: 'roots/list' } } }),
      {
        handlers: {
          roots: () => {
            throw new Error('no roots for you');
          },
        },
      },
    );
    await assert.rejects(client.callTool({ name: 'x' }), /no roots for you/);
    await client.close();
  });
});

describe('URL-mode elicitation', () => {
  const urlRequest = (url: string) => ({
    resultType: 'input_required',
    inputRequests: {
      u: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url } },
    },
  });

  test('an https URL reaches the handler; the answer carries no content', async () => {
    const seen: string[] = [];
    const { client, calls } = await withTool(
      (p, round) =>
        round === 1 ? urlRequest('https://auth.example.com/x?y=1') : text(JSON.stringify(p.inputResponses)),
      {
        handlers: {
          elicitation: {
            handler: (params) => {
              seen.push((params as { url: string }).url);
              return { action: 'accept', content: { sneaky: 'x' } };
            },
            url: true,
          },
        },
      },
    );
    await client.callTool({ name: 'x' });
    assert.deepEqual(seen, ['https://auth.example.com/x?y=1']);
    assert.deepEqual((calls[1]!.inputResponses as Obj).u, { action: 'accept' });
    await client.close();
  });

  for (const url of [
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'file:///etc/passwd',
    'not a url',
    'ftp://x',
    'https://user:pw@example.com/',
  ]) {
    test(`${JSON.stringify(url)} is declined without reaching the handler`, async () => {
      let called = false;
      const { client, calls } = await withTool((_p, round) => (round === 1 ? urlRequest(url) : text('ok')), {
        handlers: {
          elicitation: {
            handler: () => {
              called = true;
              return { action: 'accept' };
            },
            url: true,
          },
        },
      });
      await client.callTool({ name: 'x' });
      assert.equal(called, false);
      assert.deepEqual((calls[1]!.inputResponses as Obj).u, { action: 'decline' });
      await client.close();
    });
  }

  test('URL mode not declared: declined', async () => {
    let called = false;
    const { client, calls } = await withTool(
      (_p, round) => (round === 1 ? urlRequest('https://example.com') : text('ok')),
      {
        handlers: {
          elicitation: () => {
            called = true;
            return { action: 'accept' };
          },
        },
      },
    );
    await client.callTool({ name: 'x' });
    assert.equal(called, false);
    assert.deepEqual((calls[1]!.inputResponses as Obj).u, { action: 'decline' });
    await client.close();
  });
});

describe('MRTR in the legacy era', () => {
  test('a legacy server answering input_required is InvalidResult', async () => {
    const transport = rawLegacyServer((msg, peer) => {
      peer.send({
        jsonrpc: '2.0',
        id: msg.id as number,
        result: { resultType: 'input_required', requestState: 'x' },
      });
    });
    const client = new Client(CLIENT_INFO, { era: 'legacy' });
    await client.connect(transport);
    await assert.rejects(client.callTool({ name: 'x' }), isLocal('InvalidResult'));
    await client.close();
    await settle();
  });
});
