import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import { assertWireMessage } from '../test-support/wire-schema.js';
import type { RequestContext } from './request-context.js';
import {
  CLIENT_INFO,
  SERVER_INFO,
  initializedServer,
  sessionPair,
  withRawPeer,
} from '../test-support/session-peers.js';
import type { Msg, Obj } from '../test-support/session-peers.js';
import { settle } from '../test-support/waiting.js';

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

function assertError(m: Msg, id: unknown, code: number): void {
  assert.equal(m.id, id, `wrong id in ${JSON.stringify(m)}`);
  assert.equal(m.result, undefined, `expected an error, got ${JSON.stringify(m)}`);
  assert.equal(m.error?.code, code, `wrong code in ${JSON.stringify(m)}`);
}

function initParams(overrides: Obj = {}): Obj {
  return {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { ...CLIENT_INFO },
    ...overrides,
  };
}

describe('Legacy lifecycle (server): before initialize', () => {
  test('requests other than ping are refused with -32600 echoing the id; handlers are not called', async () => {
    let called = 0;
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    session.setRequestHandler('tools/list', () => {
      called++;
      return { tools: [] };
    });
    session.setRequestHandler('x/custom', () => {
      called++;
      return {};
    });
    assertError(await peer.call(1, 'tools/list'), 1, ErrorCode.InvalidRequest);
    assertError(await peer.call('c', 'x/custom'), 'c', ErrorCode.InvalidRequest);
    assertError(await peer.call(2, 'x/not-registered'), 2, ErrorCode.InvalidRequest);
    assert.equal(called, 0);
    assert.equal(session.legacyState, 'new');
  });

  test('ping works before initialize', async () => {
    const { session, peer } = await withRawPeer('server');
    assert.deepEqual(await peer.call('p', 'ping'), { jsonrpc: '2.0', id: 'p', result: {} });
    assert.equal(session.legacyState, 'new');
    assert.equal(session.protocolVersion, undefined);
  });

  test('notifications/initialized before initialize changes nothing', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    session.setRequestHandler('tools/list', () => ({ tools: [] }));
    await peer.notify('notifications/initialized');
    await settle();
    assert.equal(session.legacyState, 'new');
    assertError(await peer.call(1, 'tools/list'), 1, ErrorCode.InvalidRequest);
  });
});

describe('Legacy lifecycle (server): initialize', () => {
  for (const v of LEGACY) {
    test(`a client offering ${v} gets ${v}`, async () => {
      const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
      const res = await peer.call(1, 'initialize', initParams({ protocolVersion: v }));
      assert.deepEqual(res, {
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: v, capabilities: { tools: {} }, serverInfo: SERVER_INFO },
      });
      assertWireMessage(v, res, { respondingTo: 'initialize', sender: 'server' });
      assert.equal(session.protocolVersion, v);
      assert.equal(session.era, 'legacy');
      assert.equal(session.legacyState, 'initializing');
    });
  }

  for (const offered of ['2099-01-01', '2024-01-01', '2026-07-28']) {
    test(`an offer of ${offered} is answered with the server's latest legacy version`, async () => {
      const { session, peer } = await withRawPeer('server');
      const res = await peer.call(1, 'initialize', initParams({ protocolVersion: offered }));
      assert.equal(res.result?.protocolVersion, '2025-11-25');
      assert.equal(session.protocolVersion, '2025-11-25');
    });
  }

  test('the fallback is the newest legacy version the server was configured with', async () => {
    const { peer } = await withRawPeer('server', { versions: ['2024-11-05', '2025-03-26'] });
    const res = await peer.call(1, 'initialize', initParams({ protocolVersion: '2025-11-25' }));
    assert.equal(res.result?.protocolVersion, '2025-03-26');
  });

  test('the answer carries instructions when the server has them', async () => {
    const { peer } = await withRawPeer('server', { instructions: 'Use the search tool first.' });
    const res = await peer.call(1, 'initialize', initParams());
    assert.equal(res.result?.instructions, 'Use the search tool first.');
    const plain = await withRawPeer('server');
    const res2 = await plain.peer.call(1, 'initialize', initParams());
    assert.equal(Object.hasOwn(res2.result ?? {}, 'instructions'), false);
  });

  test('the server records the client info and capabilities', async () => {
    const { session, peer } = await withRawPeer('server');
    await peer.call(
      1,
      'initialize',
      initParams({ capabilities: { sampling: {}, roots: { listChanged: true } } }),
    );
    assert.deepEqual(session.peerInfo, CLIENT_INFO);
    assert.deepEqual(session.peerCapabilities, { sampling: {}, roots: { listChanged: true } });
  });

  test('a second initialize is refused with -32600 and changes nothing', async () => {
    const { session, peer } = await withRawPeer('server');
    await peer.call(1, 'initialize', initParams({ protocolVersion: '2025-06-18' }));
    assertError(
      await peer.call(2, 'initialize', initParams({ protocolVersion: '2024-11-05' })),
      2,
      ErrorCode.InvalidRequest,
    );
    assert.equal(session.protocolVersion, '2025-06-18');
    assert.equal(session.legacyState, 'initializing');
    await peer.notify('notifications/initialized');
    await settle();
    assertError(await peer.call(3, 'initialize', initParams()), 3, ErrorCode.InvalidRequest);
    assert.equal(session.protocolVersion, '2025-06-18');
    assert.equal(session.legacyState, 'ready');
  });

  const missing: Array<[string, Obj]> = [
    ['clientInfo', { protocolVersion: '2025-06-18', capabilities: {} }],
    ['capabilities', { protocolVersion: '2025-06-18', clientInfo: { ...CLIENT_INFO } }],
    ['protocolVersion', { capabilities: {}, clientInfo: { ...CLIENT_INFO } }],
    ['clientInfo.version', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c' } }],
  ];
  for (const [name, params] of missing) {
    test(`initialize without ${name} -> -32602, and a correct initialize still works afterwards`, async () => {
      const { session, peer } = await withRawPeer('server');
      assertError(await peer.call('bad', 'initialize', params), 'bad', ErrorCode.InvalidParams);
      assert.equal(session.legacyState, 'new');
      assert.equal(session.protocolVersion, undefined);
      const ok = await peer.call('good', 'initialize', initParams());
      assert.equal(ok.result?.protocolVersion, '2025-06-18');
    });
  }

  test('initialize with no params at all -> -32602', async () => {
    const { peer } = await withRawPeer('server');
    assertError(await peer.call(1, 'initialize'), 1, ErrorCode.InvalidParams);
  });

  test('a modern-only server answers initialize with -32022 naming its versions', async () => {
    const { session, peer } = await withRawPeer('server', { versions: ['2026-07-28'] });
    const res = await peer.call(1, 'initialize', initParams({ protocolVersion: '2025-06-18' }));
    assertError(res, 1, ErrorCode.UnsupportedProtocolVersion);
    assert.match(res.error?.message ?? '', /2026-07-28/);
    assert.deepEqual(res.error?.data, { supported: ['2026-07-28'], requested: '2025-06-18' });
    assert.equal(session.legacyState, 'new');
  });

  test('notifications/initialized moves the server to ready; requests work in both states', async () => {
    const { session, peer } = await withRawPeer('server', { capabilities: { tools: {} } });
    session.setRequestHandler('tools/list', () => ({ tools: [] }));
    await peer.call(1, 'initialize', initParams());
    assert.equal(session.legacyState, 'initializing');
    assert.deepEqual((await peer.call(2, 'tools/list')).result, { tools: [] });
    await peer.notify('notifications/initialized');
    await settle();
    assert.equal(session.legacyState, 'ready');
    assert.deepEqual((await peer.call(3, 'tools/list')).result, { tools: [] });
  });

  test('the bare `initialized` notification is accepted like notifications/initialized', async () => {
    const { session, peer } = await withRawPeer('server');
    const heard: unknown[] = [];
    session.setNotificationHandler('notifications/initialized', (p) => void heard.push(p));
    await peer.call(1, 'initialize', initParams());
    await peer.notify('initialized', { x: 1 });
    await settle();
    assert.equal(session.legacyState, 'ready');
    assert.deepEqual(heard, [{ x: 1 }]);
  });

  test('ping keeps working after initialize', async () => {
    const { peer } = await initializedServer();
    assert.deepEqual((await peer.call(9, 'ping')).result, {});
  });
});

describe('Legacy lifecycle (client): session.initialize()', () => {
  test('sends initialize, then notifications/initialized, and records what the server said', async () => {
    const { session, peer } = await withRawPeer('client', { capabilities: { sampling: {} } });
    const done = session.initialize();
    const req = await peer.request('initialize');
    assert.deepEqual(req.params, {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {} },
      clientInfo: CLIENT_INFO,
    });
    assertWireMessage('2025-11-25', req, { sender: 'client' });
    await settle();
    assert.deepEqual(
      peer.notifications('notifications/initialized'),
      [],
      'initialized sent before the answer',
    );
    const result = {
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'srv', version: '3.1.4', title: 'Server' },
      instructions: 'hello',
    };
    await peer.reply(req.id, result);
    assert.deepEqual(await done, result);
    const n = await peer.notification('notifications/initialized');
    assert.deepEqual(n, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(session.protocolVersion, '2025-11-25');
    assert.equal(session.era, 'legacy');
    assert.equal(session.legacyState, 'ready');
    assert.deepEqual(session.peerInfo, { name: 'srv', version: '3.1.4', title: 'Server' });
    assert.deepEqual(session.peerCapabilities, { tools: { listChanged: true } });
    assert.equal(session.peerInstructions, 'hello');
  });

  test('a result without capabilities, serverInfo or instructions leaves safe defaults', async () => {
    const { session, peer } = await withRawPeer('client');
    const done = session.initialize();
    const req = await peer.request('initialize');
    await peer.reply(req.id, { protocolVersion: '2025-06-18', serverInfo: 'x', instructions: 7 });
    await done;
    assert.deepEqual(session.peerCapabilities, {});
    assert.equal(session.peerInfo, undefined);
    assert.equal(session.peerInstructions, undefined);
  });

  test('offers the version asked for, or the newest legacy version it speaks', async () => {
    const a = await withRawPeer('client');
    void a.session.initialize({ protocolVersion: '2024-11-05' }).catch(() => undefined);
    assert.equal((await a.peer.request('initialize')).params?.protocolVersion, '2024-11-05');
    const b = await withRawPeer('client', { versions: ['2024-11-05', '2025-03-26', '2026-07-28'] });
    void b.session.initialize().catch(() => undefined);
    assert.equal((await b.peer.request('initialize')).params?.protocolVersion, '2025-03-26');
    await a.session.close();
    await b.session.close();
  });

  for (const answered of ['2025-06-18', '2026-07-28', '2099-01-01', 20250618, undefined]) {
    test(`a server answering ${JSON.stringify(answered)} to a 2024-11-05 client -> VersionMismatch and the connection closes`, async () => {
      const { session, peer } = await withRawPeer('client', { versions: ['2024-11-05'] });
      const done = session.initialize();
      const req = await peer.request('initialize');
      const result: Obj = { capabilities: {}, serverInfo: { ...SERVER_INFO } };
      if (answered !== undefined) result.protocolVersion = answered;
      await peer.reply(req.id, result);
      await assert.rejects(done, (e: unknown) => {
        assert.ok(e instanceof LocalError);
        assert.equal(e.code, 'VersionMismatch');
        return true;
      });
      assert.equal(session.isOpen, false);
      assert.equal(session.protocolVersion, undefined);
      assert.equal(session.legacyState, 'new');
      await settle();
      assert.equal(peer.closed, 1);
      assert.deepEqual(peer.notifications('notifications/initialized'), []);
    });
  }

  test('an error answer rejects initialize with the WireError and leaves the state alone', async () => {
    const { session, peer } = await withRawPeer('client');
    const done = session.initialize();
    const req = await peer.request('initialize');
    await peer.send({ jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'nope' } });
    await assert.rejects(done, (e: unknown) => e instanceof WireError && e.code === -32602);
    assert.equal(session.legacyState, 'new');
    assert.equal(session.isOpen, true);
  });
});

describe('Legacy lifecycle: two sessions', () => {
  test('client and server agree on the newest legacy version', async () => {
    const { server, client } = await sessionPair(
      { capabilities: { tools: {} }, instructions: 'hi' },
      { capabilities: { roots: {} } },
    );
    await client.initialize();
    await settle();
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(server.protocolVersion, '2025-11-25');
    assert.equal(server.legacyState, 'ready');
    assert.equal(client.legacyState, 'ready');
    assert.deepEqual(client.peerCapabilities, { tools: {} });
    assert.deepEqual(client.peerInfo, SERVER_INFO);
    assert.equal(client.peerInstructions, 'hi');
    assert.deepEqual(server.peerCapabilities, { roots: {} });
    assert.deepEqual(server.peerInfo, CLIENT_INFO);
  });

  test('an older client gets its own version', async () => {
    const { server, client } = await sessionPair({}, { versions: ['2024-11-05'] });
    await client.initialize();
    assert.equal(client.protocolVersion, '2024-11-05');
    assert.equal(server.protocolVersion, '2024-11-05');
  });

  test('a server on an older version makes a newer client step down', async () => {
    const { server, client } = await sessionPair({ versions: ['2024-11-05', '2025-03-26'] });
    await client.initialize();
    assert.equal(client.protocolVersion, '2025-03-26');
    assert.equal(server.protocolVersion, '2025-03-26');
  });

  test('no common version: VersionMismatch and both ends close', async () => {
    const { server, client } = await sessionPair({ versions: ['2025-06-18'] }, { versions: ['2024-11-05'] });
    await assert.rejects(
      client.initialize(),
      (e: unknown) => e instanceof LocalError && e.code === 'VersionMismatch',
    );
    await settle();
    assert.equal(client.isOpen, false);
    assert.equal(server.isOpen, false);
  });
});

describe('Legacy logging', () => {
  async function loggingServer(capabilities: Obj = { logging: {} }) {
    const r = await initializedServer({ capabilities });
    let ctx: RequestContext | undefined;
    r.session.setRequestHandler('x/log', (p, c) => {
      ctx = c;
      for (const [level, data] of p.entries as Array<[never, string]>) c.log(level, data, 'test');
      return {};
    });
    return { ...r, ctx: () => ctx };
  }

  test('logging/setLevel sets the level; ctx.log below it sends nothing', async () => {
    const { session, peer } = await loggingServer();
    const res = await peer.call(1, 'logging/setLevel', { level: 'warning' });
    assert.deepEqual(res, { jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(session.legacyLogLevel, 'warning');
    await peer.call(2, 'x/log', {
      entries: [
        ['debug', 'd'],
        ['info', 'i'],
        ['notice', 'n'],
        ['warning', 'w'],
        ['error', 'e'],
        ['emergency', 'em'],
      ],
    });
    const sent = peer.notifications('notifications/message').map((m) => m.params);
    assert.deepEqual(sent, [
      { level: 'warning', data: 'w', logger: 'test' },
      { level: 'error', data: 'e', logger: 'test' },
      { level: 'emergency', data: 'em', logger: 'test' },
    ]);
  });

  test('the level can be changed again', async () => {
    const { session, peer } = await loggingServer();
    await peer.call(1, 'logging/setLevel', { level: 'emergency' });
    await peer.call(2, 'logging/setLevel', { level: 'debug' });
    assert.equal(session.legacyLogLevel, 'debug');
    await peer.call(3, 'x/log', { entries: [['debug', 'd']] });
    assert.equal(peer.notifications('notifications/message').length, 1);
  });

  for (const level of ['verbose', 'WARNING', '', 3, null, undefined]) {
    test(`logging/setLevel with level ${JSON.stringify(level)} -> -32602, level unchanged`, async () => {
      const { session, peer } = await loggingServer();
      await peer.call(1, 'logging/setLevel', { level: 'error' });
      const params: Obj = level === undefined ? {} : { level };
      assertError(await peer.call(2, 'logging/setLevel', params), 2, ErrorCode.InvalidParams);
      assert.equal(session.legacyLogLevel, 'error');
    });
  }

  test('logging/setLevel on a server that did not declare logging -> -32601', async () => {
    const { session, peer } = await initializedServer({ capabilities: { tools: {} } });
    assertError(await peer.call(1, 'logging/setLevel', { level: 'info' }), 1, ErrorCode.MethodNotFound);
    assert.equal(session.legacyLogLevel, undefined);
  });

  test('without logging/setLevel every level is sent', async () => {
    const { peer, ctx } = await loggingServer();
    await peer.call(1, 'x/log', { entries: [['debug', 'd']] });
    assert.equal(ctx()?.logLevel, 'debug');
    assert.deepEqual(peer.notifications('notifications/message')[0]?.params, {
      level: 'debug',
      data: 'd',
      logger: 'test',
    });
  });

  test('ctx.log without a logger name leaves logger out', async () => {
    const { session, peer } = await initializedServer({ capabilities: { logging: {} } });
    session.setRequestHandler('x/plain', (_p, ctx) => {
      ctx.log('info', { structured: true });
      return {};
    });
    await peer.call(1, 'x/plain');
    assert.deepEqual(peer.notifications('notifications/message')[0]?.params, {
      level: 'info',
      data: { structured: true },
    });
  });

  test('a server that did not declare logging sends no notifications/message from ctx.log', {}, async () => {
    const { peer } = await loggingServer({ tools: {} });
    await peer.call(1, 'x/log', { entries: [['error', 'e']] });
    await settle();
    assert.deepEqual(peer.notifications('notifications/message'), []);
  });

  test('log notifications from a request come before its answer', async () => {
    const { peer } = await loggingServer();
    await peer.call(1, 'x/log', { entries: [['error', 'e']] });
    const iLog = peer.messages.findIndex((m) => m.method === 'notifications/message');
    const iAnswer = peer.messages.findIndex((m) => m.id === 1);
    assert.ok(iLog >= 0 && iLog < iAnswer);
  });
});
