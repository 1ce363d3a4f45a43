import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, LocalError } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { assertWireMessage } from '../test-support/wire-schema.js';
import type { RequestContext } from './request-context.js';
import {
  CLIENT_INFO,
  MODERN,
  SERVER_INFO,
  initializedClient,
  modernMeta,
  quiet,
  sessionPair,
  withRawPeer,
} from '../test-support/session-peers.js';
import type { Msg, Obj } from '../test-support/session-peers.js';
import { settle } from '../test-support/waiting.js';

function assertError(m: Msg, id: unknown, code: number): void {
  assert.equal(m.id, id, `wrong id in ${JSON.stringify(m)}`);
  assert.equal(m.result, undefined, `expected an error, got ${JSON.stringify(m)}`);
  assert.equal(m.error?.code, code, `wrong code in ${JSON.stringify(m)}`);
}

function isLocal(code: string) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof LocalError, `expected LocalError ${code}, got ${String(e)}`);
    assert.equal(e.code, code);
    return true;
  };
}

const SERVER_INFO_KEY = MetaKey.ServerInfo;

describe('Modern era (server): serving requests without initialize', () => {
  test('a request with version and capabilities in _meta is served; the context is modern', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    let ctx: RequestContext | undefined;
    session.setRequestHandler('tools/call', (_p, c) => {
      ctx = c;
      return { content: [{ type: 'text', text: 'hi' }] };
    });
    const meta = modernMeta({
      [MetaKey.ClientCapabilities]: { elicitation: {} },
      [MetaKey.ClientInfo]: { name: 'mc', version: '0.1' },
    });
    const res = await peer.call(1, 'tools/call', { name: 'greet', arguments: {}, _meta: meta });
    assert.equal(res.error, undefined, JSON.stringify(res));
    assert.ok(ctx);
    assert.equal(ctx.era, 'modern');
    assert.equal(ctx.protocolVersion, MODERN);
    assert.deepEqual(ctx.peerCapabilities, { elicitation: {} });
    assert.deepEqual(ctx.peerInfo, { name: 'mc', version: '0.1' });
    assert.deepEqual(ctx.meta, meta);
    // Stateless: nothing about the connection changed.
    assert.equal(session.legacyState, 'new');
    assert.equal(session.era, undefined);
    assert.equal(session.protocolVersion, undefined);
    assert.equal(session.peerCapabilities, undefined);
  });

  test('results carry resultType complete and serverInfo in _meta; the handler object is untouched', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    const returned = Object.freeze({
      content: Object.freeze([]),
      _meta: Object.freeze({ 'vendor/trace': 'abc' }),
    });
    session.setRequestHandler('tools/call', () => returned);
    const res = await peer.call('m', 'tools/call', { name: 'x', _meta: modernMeta() });
    assert.deepEqual(res.result, {
      content: [],
      _meta: { 'vendor/trace': 'abc', [SERVER_INFO_KEY]: SERVER_INFO },
      resultType: 'complete',
    });
    assert.deepEqual(returned, { content: [], _meta: { 'vendor/trace': 'abc' } });
    assertWireMessage(MODERN, res, { respondingTo: 'tools/call', sender: 'server' });
  });

  test('a handler returning undefined still gets the modern decoration', async () => {
    const { session, peer } = await withRawPeer('server');
    session.setRequestHandler('x/custom', () => undefined);
    const res = await peer.call(1, 'x/custom', { _meta: modernMeta() });
    assert.deepEqual(res.result, {
      _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
      resultType: 'complete',
    });
  });

  test('a resultType the handler set is kept, and only complete results get cache hints', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    session.setRequestHandler('tools/list', () => ({
      resultType: 'input_required',
      inputRequests: {},
    }));
    const res = await peer.call(1, 'tools/list', { _meta: modernMeta() });
    assert.equal(res.result?.resultType, 'input_required');
    assert.equal(Object.hasOwn(res.result ?? {}, 'ttlMs'), false);
    assert.equal(Object.hasOwn(res.result ?? {}, 'cacheScope'), false);
  });

  for (const [method, caps, result] of [
    ['tools/list', { tools: {} }, { tools: [] }],
    ['prompts/list', { prompts: {} }, { prompts: [] }],
    ['resources/list', { resources: {} }, { resources: [] }],
    ['resources/templates/list', { resources: {} }, { resourceTemplates: [] }],
    ['resources/read', { resources: {} }, { contents: [] }],
  ] as Array<[string, Obj, Obj]>) {
    test(`${method} (cacheable) gets ttlMs 0 and cacheScope private by default`, async () => {
      const { session, peer } = await withRawPeer('server', { capabilities: caps });
      session.setRequestHandler(method, () => result);
      const params: Obj = { _meta: modernMeta() };
      if (method === 'resources/read') params.uri = 'file:///a';
      const res = await peer.call(1, method, params);
      assert.equal(res.result?.ttlMs, 0);
      assert.equal(res.result?.cacheScope, 'private');
      assert.equal(res.result?.resultType, 'complete');
      assertWireMessage(MODERN, res, { respondingTo: method, sender: 'server' });
    });
  }

  test('cache hints the handler gave are kept; an invalid cacheScope becomes private', async () => {
    const { session, peer } = await withRawPeer('server', {
      capabilities: { tools: {}, prompts: {} },
    });
    session.setRequestHandler('tools/list', () => ({
      tools: [],
      ttlMs: 5000,
      cacheScope: 'public',
    }));
    session.setRequestHandler('prompts/list', () => ({
      prompts: [],
      ttlMs: 'soon',
      cacheScope: 'shared',
    }));
    const a = await peer.call(1, 'tools/list', { _meta: modernMeta() });
    assert.equal(a.result?.ttlMs, 5000);
    assert.equal(a.result?.cacheScope, 'public');
    const b = await peer.call(2, 'prompts/list', { _meta: modernMeta() });
    assert.equal(b.result?.ttlMs, 0);
    assert.equal(b.result?.cacheScope, 'private');
  });

  test('non-cacheable results get no cache hints', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    session.setRequestHandler('tools/call', () => ({ content: [] }));
    const res = await peer.call(1, 'tools/call', { name: 'x', _meta: modernMeta() });
    assert.equal(Object.hasOwn(res.result ?? {}, 'ttlMs'), false);
    assert.equal(Object.hasOwn(res.result ?? {}, 'cacheScope'), false);
  });

  test('errors in the modern era are plain errors, with no decoration', async () => {
    const { session, peer } = await withRawPeer('server');
    session.setRequestHandler('x/boom', () => {
      throw new Error('secret');
    });
    const res = await peer.call(1, 'x/boom', { _meta: modernMeta() });
    assert.deepEqual(res, {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
  });

  for (const requested of ['1900-01-01', '2025-06-18', '2099-12-31']) {
    test(`an unsupported version (${requested}) -> -32022 with data.supported and data.requested`, async () => {
      const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
      let called = 0;
      session.setRequestHandler('tools/list', () => {
        called++;
        return { tools: [] };
      });
      const res = await peer.call(1, 'tools/list', {
        _meta: modernMeta({ [MetaKey.ProtocolVersion]: requested }),
      });
      assertError(res, 1, ErrorCode.UnsupportedProtocolVersion);
      const data = res.error?.data as { supported: unknown; requested: unknown };
      assert.ok(Array.isArray(data.supported));
      assert.ok(data.supported.includes(MODERN), JSON.stringify(data));
      assert.equal(data.requested, requested);
      assert.equal(called, 0);
      assertWireMessage(MODERN, res, { sender: 'server' });
    });
  }

  test(
    'a non-string version gets an error that still matches the schema (requested is a string)',
    {},
    async () => {
      const { peer } = await withRawPeer('server');
      const res = await peer.call(1, 'x/a', {
        _meta: modernMeta({ [MetaKey.ProtocolVersion]: 20260728 }),
      });
      assert.equal(res.result, undefined);
      assertWireMessage(MODERN, res, { sender: 'server' });
    },
  );

  test('missing clientCapabilities -> -32602', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    session.setRequestHandler('tools/list', () => ({ tools: [] }));
    const res = await peer.call(1, 'tools/list', { _meta: { [MetaKey.ProtocolVersion]: MODERN } });
    assertError(res, 1, ErrorCode.InvalidParams);
  });

  for (const method of ['ping', 'logging/setLevel', 'initialize', 'resources/subscribe', 'tasks/list']) {
    test(`${method} in a modern request -> -32601`, async () => {
      const { session, peer } = await withRawPeer('server', {
        capabilities: { logging: {}, resources: { subscribe: true }, tools: {} },
      });
      session.setRequestHandler(method, () => ({}));
      const params: Obj = { _meta: modernMeta() };
      if (method === 'logging/setLevel') params.level = 'info';
      const res = await peer.call(1, method, params);
      assertError(res, 1, ErrorCode.MethodNotFound);
      assert.equal(session.legacyLogLevel, undefined);
      assert.equal(session.legacyState, 'new');
    });
  }

  test('a modern server without tools answers tools/list with -32601', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { prompts: {} } });
    session.setRequestHandler('tools/list', () => ({ tools: [] }));
    assertError(await peer.call(1, 'tools/list', { _meta: modernMeta() }), 1, ErrorCode.MethodNotFound);
  });

  test('a server with no modern version refuses a modern request with -32022', async () => {
    const { session, peer } = await withRawPeer('server', {
      versions: ['2025-06-18', '2025-11-25'],
    });
    session.setRequestHandler('x/a', () => ({}));
    const res = await peer.call(1, 'x/a', { _meta: modernMeta() });
    assertError(res, 1, ErrorCode.UnsupportedProtocolVersion);
    assert.equal((res.error?.data as { requested: unknown }).requested, MODERN);
  });

  test('legacy and modern requests can share one connection without mixing', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    const eras: string[] = [];
    session.setRequestHandler('tools/list', (_p, ctx) => {
      eras.push(`${ctx.era}@${ctx.protocolVersion}`);
      return { tools: [] };
    });
    await peer.call('m1', 'tools/list', { _meta: modernMeta() });
    await peer.call('i', 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { ...CLIENT_INFO },
    });
    const legacy = await peer.call('l1', 'tools/list');
    await peer.call('m2', 'tools/list', { _meta: modernMeta() });
    assert.deepEqual(eras, ['modern@2026-07-28', 'legacy@2025-06-18', 'modern@2026-07-28']);
    assert.equal(Object.hasOwn(legacy.result ?? {}, 'resultType'), false, 'a legacy result was decorated');
  });
});

describe('Modern era (server): server/discover', () => {
  test('returns supportedVersions, capabilities and instructions', async () => {
    const caps = { tools: { listChanged: true }, resources: {} };
    const { peer } = await withRawPeer('server', {
      capabilities: caps,
      instructions: 'Read the docs.',
    });
    const res = await peer.call('d', 'server/discover', { _meta: modernMeta() });
    assert.equal(res.error, undefined, JSON.stringify(res));
    assert.deepEqual(res.result?.supportedVersions, [MODERN]);
    assert.deepEqual(res.result?.capabilities, caps);
    assert.equal(res.result?.instructions, 'Read the docs.');
    assert.equal(res.result?.resultType, 'complete');
    assert.deepEqual((res.result?._meta as Obj)[SERVER_INFO_KEY], SERVER_INFO);
    assertWireMessage(MODERN, res, { respondingTo: 'server/discover', sender: 'server' });
  });

  test('leaves instructions out when the server has none', async () => {
    const { peer } = await withRawPeer('server');
    const res = await peer.call('d', 'server/discover', { _meta: modernMeta() });
    assert.equal(Object.hasOwn(res.result ?? {}, 'instructions'), false);
    assert.deepEqual(res.result?.capabilities, {});
  });

  test('without _meta -> -32602', async () => {
    const { peer } = await withRawPeer('server');
    assertError(await peer.call(1, 'server/discover'), 1, ErrorCode.InvalidParams);
    assertError(await peer.call(2, 'server/discover', {}), 2, ErrorCode.InvalidParams);
  });

  test('is not answered by a client', async () => {
    const { peer } = await withRawPeer('client');
    assertError(await peer.call(1, 'server/discover', { _meta: modernMeta() }), 1, ErrorCode.MethodNotFound);
  });
});

describe('Modern era (server): ctx.log, ctx.progress and ctx.request', () => {
  async function logServer() {
    // Only a server that declared logging sends log messages.
    const r = await withRawPeer('server', { capabilities: { logging: {} } });
    r.session.setRequestHandler('x/log', (p, ctx) => {
      for (const [level, data] of p.entries as Array<[never, string]>) ctx.log(level, data);
      return {};
    });
    return r;
  }
  const entries = [
    ['debug', 'd'],
    ['info', 'i'],
    ['warning', 'w'],
    ['critical', 'c'],
  ];

  test('ctx.log sends nothing unless the request set a log level', async () => {
    const { peer } = await logServer();
    await peer.call(1, 'x/log', { entries, _meta: modernMeta() });
    await settle();
    assert.deepEqual(peer.notifications('notifications/message'), []);
  });

  test('ctx.log sends messages at or above the request log level', async () => {
    const { peer } = await logServer();
    await peer.call(1, 'x/log', { entries, _meta: modernMeta({ [MetaKey.LogLevel]: 'warning' }) });
    assert.deepEqual(
      peer.notifications('notifications/message').map((m) => m.params),
      [
        { level: 'warning', data: 'w' },
        { level: 'critical', data: 'c' },
      ],
    );
  });

  test('an invalid log level in _meta means no logs', async () => {
    const { peer } = await logServer();
    await peer.call(1, 'x/log', { entries, _meta: modernMeta({ [MetaKey.LogLevel]: 'loud' }) });
    await settle();
    assert.deepEqual(peer.notifications('notifications/message'), []);
  });

  test('the log level of one request does not leak into the next', async () => {
    const { session, peer } = await logServer();
    await peer.call(1, 'x/log', {
      entries: [],
      _meta: modernMeta({ [MetaKey.LogLevel]: 'debug' }),
    });
    await peer.call(2, 'x/log', { entries, _meta: modernMeta() });
    await settle();
    assert.deepEqual(peer.notifications('notifications/message'), []);
    assert.equal(session.legacyLogLevel, undefined);
  });

  test('ctx.progress works with a token in a modern request', async () => {
    const { session, peer } = await withRawPeer('server');
    session.setRequestHandler('x/p', (_p, ctx) => {
      ctx.progress(1, 2);
      return {};
    });
    await peer.call(1, 'x/p', { _meta: modernMeta({ progressToken: 'mt' }) });
    assert.deepEqual(peer.notifications('notifications/progress')[0]?.params, {
      progressToken: 'mt',
      progress: 1,
      total: 2,
    });
  });

  test('ctx.request rejects with CapabilityNotSupported and sends nothing', async () => {
    const { session, peer } = await withRawPeer('server');
    const outcome: unknown[] = [];
    session.setRequestHandler('x/ask', async (_p, ctx) => {
      try {
        await ctx.request('sampling/createMessage', { messages: [], maxTokens: 1 });
        outcome.push('sent');
      } catch (e) {
        outcome.push(e);
      }
      return {};
    });
    await peer.call(1, 'x/ask', {
      _meta: modernMeta({ [MetaKey.ClientCapabilities]: { sampling: {} } }),
    });
    assert.equal(outcome.length, 1);
    isLocal('CapabilityNotSupported')(outcome[0]);
    assert.deepEqual(peer.requests('sampling/createMessage'), []);
    assert.equal(session.pendingCount, 0);
  });
});

describe('Modern era (client)', () => {
  test('useModern pins the version and era', async () => {
    const { session } = await withRawPeer('client');
    session.useModern(MODERN);
    assert.equal(session.protocolVersion, MODERN);
    assert.equal(session.era, 'modern');
  });

  test('every request carries version, capabilities and client info in _meta; caller params untouched', async () => {
    const { session, peer } = await withRawPeer('client', { capabilities: { elicitation: {} } });
    session.useModern(MODERN);
    const params = Object.freeze({ name: 'x', _meta: Object.freeze({ 'vendor/k': 1 }) });
    quiet(session.request('tools/call', params));
    quiet(session.request('tools/list'));
    quiet(session.request('x/custom', {}, { onprogress: () => undefined }));
    await settle();
    const [call, list, custom] = peer.requests();
    const expected = {
      [MetaKey.ProtocolVersion]: MODERN,
      [MetaKey.ClientCapabilities]: { elicitation: {} },
      [MetaKey.ClientInfo]: CLIENT_INFO,
    };
    assert.deepEqual(call?.params, { name: 'x', _meta: { 'vendor/k': 1, ...expected } });
    assert.deepEqual(list?.params, { _meta: expected });
    assert.deepEqual(custom?.params, { _meta: { ...expected, progressToken: custom?.id } });
    assert.deepEqual(params, { name: 'x', _meta: { 'vendor/k': 1 } });
    assertWireMessage(MODERN, call, { sender: 'client' });
    assertWireMessage(MODERN, list, { sender: 'client' });
    await session.close();
  });

  test('methods that do not exist in the modern era are refused locally', async () => {
    const { session, peer } = await withRawPeer('client');
    session.useModern(MODERN);
    await assert.rejects(session.request('ping'), isLocal('CapabilityNotSupported'));
    await assert.rejects(
      session.request('logging/setLevel', { level: 'info' }),
      isLocal('CapabilityNotSupported'),
    );
    await assert.rejects(
      session.request('resources/subscribe', { uri: 'a:b' }),
      isLocal('CapabilityNotSupported'),
    );
    await settle();
    assert.deepEqual(peer.received, []);
  });

  test('a modern client refuses requests from the server with -32600', async () => {
    const { session, peer } = await withRawPeer('client', { capabilities: { sampling: {} } });
    session.useModern(MODERN);
    session.setRequestHandler('sampling/createMessage', () => ({ model: 'm' }));
    assertError(await peer.call('s', 'sampling/createMessage', {}), 's', ErrorCode.InvalidRequest);
    assertError(await peer.call('p', 'ping'), 'p', ErrorCode.InvalidRequest);
  });

  test('applyDiscover records capabilities, serverInfo and instructions', async () => {
    const { session } = await withRawPeer('client');
    session.useModern(MODERN);
    session.applyDiscover({
      supportedVersions: [MODERN],
      capabilities: { tools: {} },
      instructions: 'inst',
      _meta: { [SERVER_INFO_KEY]: { name: 's', version: '1' } },
    });
    assert.deepEqual(session.peerCapabilities, { tools: {} });
    assert.deepEqual(session.peerInfo, { name: 's', version: '1' });
    assert.equal(session.peerInstructions, 'inst');
    session.applyDiscover({ capabilities: [], _meta: 'x', instructions: 1 });
    assert.deepEqual(session.peerCapabilities, {});
    assert.equal(session.peerInfo, undefined);
    assert.equal(session.peerInstructions, undefined);
  });

  test('end to end: discover, then gated calls against a real server', async () => {
    const { server, client } = await sessionPair(
      { capabilities: { prompts: {} }, instructions: 'hello' },
      { capabilities: {} },
    );
    server.setRequestHandler('prompts/list', (_p, ctx) => ({ prompts: [], era: ctx.era }));
    client.useModern(MODERN);
    const discovered = await client.request('server/discover', {});
    client.applyDiscover(discovered);
    assert.deepEqual(client.peerCapabilities, { prompts: {} });
    assert.deepEqual(client.peerInfo, SERVER_INFO);
    assert.equal(client.peerInstructions, 'hello');
    const prompts = await client.request('prompts/list');
    assert.equal(prompts.era, 'modern');
    assert.equal(prompts.resultType, 'complete');
    await assert.rejects(client.request('tools/call', { name: 'x' }), isLocal('CapabilityNotSupported'));
    assert.equal(server.legacyState, 'new');
  });

  test('a legacy-initialized client does not add modern _meta', async () => {
    const { session, peer } = await initializedClient();
    quiet(session.request('x/plain', { a: 1 }));
    const req = await peer.request('x/plain');
    assert.deepEqual(req.params, { a: 1 });
  });
});
