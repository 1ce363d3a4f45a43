import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { ALL_VERSIONS, LEGACY_VERSIONS } from '../protocol/versions.js';
import { Client } from './client.js';
import { newestMutual } from './era-selection.js';
import {
  CLIENT_INFO,
  MODERN,
  SERVER_INFO,
  connectedPair,
  createTestServer,
  rawServer,
} from '../test-support/client-harness.js';
import type { Obj } from '../test-support/client-harness.js';
import { settle } from '../test-support/waiting.js';

/** A raw server that records what it got and answers `initialize` like a legacy server. */
function legacyPeer(onDiscover: (msg: Obj, send: (m: Obj | string) => void) => void) {
  const got: Obj[] = [];
  const transport = rawServer((msg, peer) => {
    got.push(msg);
    if (msg.method === 'server/discover') onDiscover(msg, (m) => peer.send(m));
    else if (msg.method === 'initialize') {
      peer.send({
        jsonrpc: '2.0',
        id: msg.id,
        result: {
          protocolVersion: (msg.params as Obj).protocolVersion,
          capabilities: { tools: {} },
          serverInfo: SERVER_INFO,
        },
      });
    } else if (msg.method === 'tools/list') {
      peer.send({ jsonrpc: '2.0', id: msg.id, result: { tools: [] } });
    }
  });
  return { transport, got };
}

describe('era selection: auto', () => {
  test('a modern server answers the probe: modern, with no initialize', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({}, server);
    assert.equal(client.era, 'modern');
    assert.equal(client.protocolVersion, MODERN);
    assert.deepEqual(
      server.wire.map((m) => m.method),
      ['server/discover'],
    );
    const meta = (server.wire[0]!.params as Obj)._meta as Obj;
    assert.equal(meta[MetaKey.ProtocolVersion], MODERN);
    assert.deepEqual(meta[MetaKey.ClientInfo], CLIENT_INFO);
    assert.deepEqual(client.serverInfo, SERVER_INFO);
    // Later requests carry the pinned version.
    await client.listTools();
    assert.equal(((server.wire.at(-1)!.params as Obj)._meta as Obj)[MetaKey.ProtocolVersion], MODERN);
    await client.close();
  });

  test('a dual-era mcpkit server is served in the modern era; a legacy-only one falls back', async () => {
    const legacyOnly = createTestServer({ versions: LEGACY_VERSIONS });
    const { client } = await connectedPair({}, legacyOnly);
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(
      legacyOnly.wire.map((m) => m.method),
      ['server/discover', 'initialize', 'notifications/initialized'],
    );
    await client.close();
  });

  for (const [name, reply] of [
    ['-32601 method not found', { code: -32601, message: 'Method not found' }],
    ['-32602 invalid params', { code: -32602, message: 'Bad params' }],
    ['-32600 not initialized', { code: -32600, message: 'Server not initialized' }],
    ['a custom code', { code: -1, message: 'nope' }],
    ['-32022 without a supported list', { code: -32022, message: 'hm' }],
  ] as const) {
    test(`any other error (${name}) falls back to initialize`, async () => {
      const { transport, got } = legacyPeer((msg, send) =>
        send({ jsonrpc: '2.0', id: msg.id, error: reply }),
      );
      const client = new Client(CLIENT_INFO);
      await client.connect(transport);
      assert.equal(client.era, 'legacy');
      assert.deepEqual(
        got.map((m) => m.method),
        ['server/discover', 'initialize', 'notifications/initialized'],
      );
      // initialize carries no modern _meta.
      assert.equal((got[1]!.params as Obj)._meta, undefined);
      await client.close();
    });
  }

  test('a result that is not a DiscoverResult falls back to initialize', async () => {
    const { transport } = legacyPeer((msg, send) => send({ jsonrpc: '2.0', id: msg.id, result: {} }));
    const client = new Client(CLIENT_INFO);
    await client.connect(transport);
    assert.equal(client.era, 'legacy');
    await client.close();
  });

  test('a silent server: the probe times out, is cancelled, and a late answer is ignored', async () => {
    let probeId: unknown;
    let late: ((m: Obj) => void) | undefined;
    const { transport, got } = legacyPeer((msg, send) => {
      probeId = msg.id;
      late = send;
    });
    const logged: string[] = [];
    const client = new Client(CLIENT_INFO, {
      probeTimeoutMs: 50,
      logger: (_l, m) => logged.push(m),
    });
    const t0 = Date.now();
    // Pending-request timers are unref'd; in-memory, nothing else keeps the loop alive.
    const keepAlive = setTimeout(() => undefined, 5000);
    await client.connect(transport);
    clearTimeout(keepAlive);
    assert.ok(Date.now() - t0 >= 45);
    assert.equal(client.era, 'legacy');
    const cancel = got.find((m) => m.method === 'notifications/cancelled');
    assert.equal((cancel?.params as Obj).requestId, probeId);
    // The server answers the probe after all: nothing breaks.
    late!({ jsonrpc: '2.0', id: probeId as number, error: { code: -32601, message: 'late' } });
    await settle();
    assert.ok(logged.some((m) => m.includes('without a matching request')));
    assert.deepEqual((await client.listTools()).tools, []);
    assert.equal(client.pendingCount, 0);
    await client.close();
  });

  test('UnsupportedProtocolVersion with a supported list: retry discover with a version from it', async () => {
    // The client prefers a newer (fictional) modern version the server does not speak.
    const server = createTestServer();
    const { client } = await connectedPair({ versions: [...ALL_VERSIONS, '2027-01-01'] }, server);
    assert.equal(client.era, 'modern');
    assert.equal(client.protocolVersion, MODERN);
    const versions = server.wire.map((m) => ((m.params as Obj)._meta as Obj)[MetaKey.ProtocolVersion]);
    assert.deepEqual(versions, ['2027-01-01', MODERN]);
    assert.ok(!server.wire.some((m) => m.method === 'initialize'));
    await client.close();
  });

  test('UnsupportedProtocolVersion naming only a legacy version we speak: initialize with it', async () => {
    const { transport, got } = legacyPeer((msg, send) =>
      send({
        jsonrpc: '2.0',
        id: msg.id,
        error: {
          code: -32022,
          message: 'no',
          data: { supported: ['2025-06-18'], requested: MODERN },
        },
      }),
    );
    const client = new Client(CLIENT_INFO);
    await client.connect(transport);
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-06-18');
    assert.equal((got[1]!.params as Obj).protocolVersion, '2025-06-18');
    await client.close();
  });

  test('UnsupportedProtocolVersion with nothing in common: VersionMismatch', async () => {
    const { transport } = legacyPeer((msg, send) =>
      send({
        jsonrpc: '2.0',
        id: msg.id,
        error: {
          code: -32022,
          message: 'no',
          data: { supported: ['2099-01-01'], requested: MODERN },
        },
      }),
    );
    const client = new Client(CLIENT_INFO);
    await assert.rejects(
      client.connect(transport),
      (e: unknown) => e instanceof LocalError && e.code === 'VersionMismatch',
    );
    assert.equal(client.isConnected, false);
  });

  test('the connection closing during the probe rejects connect', async () => {
    const [a, b] = (await import('../transports/memory/index.js')).memoryPair();
    b.start({ frame: () => void b.close(), closed: () => undefined });
    const client = new Client(CLIENT_INFO);
    await assert.rejects(
      client.connect(a),
      (e: unknown) => e instanceof LocalError && e.code === 'ConnectionClosed',
    );
  });

  test('a client with only legacy versions does not probe', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ versions: LEGACY_VERSIONS }, server);
    assert.equal(client.era, 'legacy');
    assert.equal(server.wire[0]!.method, 'initialize');
    await client.close();
  });
});

describe('era selection: pinned', () => {
  test('legacy: initialize only', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'legacy' }, server);
    assert.deepEqual(
      server.wire.map((m) => m.method),
      ['initialize', 'notifications/initialized'],
    );
    await client.close();
  });

  test('modern: server/discover only; against a legacy server it fails with a clear error', async () => {
    const { transport } = legacyPeer((msg, send) =>
      send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } }),
    );
    const client = new Client(CLIENT_INFO, { era: 'modern' });
    await assert.rejects(client.connect(transport), (e: unknown) => {
      assert.ok(e instanceof LocalError);
      assert.equal(e.code, 'VersionMismatch');
      assert.match(e.message, /-32601/);
      assert.match(e.message, /era "auto" or "legacy"/);
      return true;
    });
  });

  test('modern: an UnsupportedProtocolVersion answer is followed', async () => {
    const server = createTestServer();
    const { client } = await connectedPair({ era: 'modern', versions: [MODERN, '2027-01-01'] }, server);
    assert.equal(client.protocolVersion, MODERN);
    assert.equal(server.wire.length, 2);
    await client.close();
  });

  test('modern: a version the server lists but rejects is retried once, then given up', async () => {
    const refuse = (msg: Obj, send: (m: Obj | string) => void) =>
      send({
        jsonrpc: '2.0',
        id: msg.id,
        error: {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported: [MODERN], requested: MODERN },
        },
      });
    // Refused once (a node mid-rollout), then served.
    let refusals = 0;
    const flaky = rawServer((msg, peer) => {
      if (msg.method !== 'server/discover') return;
      if (refusals++ === 0) return refuse(msg, (m) => peer.send(m));
      peer.send({
        jsonrpc: '2.0',
        id: msg.id,
        result: { supportedVersions: [MODERN], capabilities: {}, resultType: 'complete' },
      });
    });
    const client = new Client(CLIENT_INFO, { era: 'modern' });
    await client.connect(flaky);
    assert.equal(client.protocolVersion, MODERN);
    assert.equal(refusals, 2);
    await client.close();
    // Refused every time: a clear VersionMismatch after one retry, not a loop.
    let attempts = 0;
    const stubborn = rawServer((msg, peer) => {
      if (msg.method !== 'server/discover') return;
      attempts++;
      refuse(msg, (m) => peer.send(m));
    });
    const again = new Client(CLIENT_INFO, { era: 'modern' });
    await assert.rejects(
      again.connect(stubborn),
      (e: unknown) => e instanceof LocalError && e.code === 'VersionMismatch',
    );
    assert.equal(attempts, 2);
  });

  test('connect twice is refused; reconnecting after close works', async () => {
    const server = createTestServer();
    const { client, clientSide } = await connectedPair({ era: 'modern' }, server);
    await assert.rejects(
      client.connect(clientSide),
      (e: unknown) => e instanceof LocalError && e.code === 'AlreadyConnected',
    );
    await client.close();
    const again = createTestServer();
    const [a, b] = (await import('../transports/memory/index.js')).memoryPair();
    await again.session.connect(b);
    await client.connect(a);
    assert.equal(client.era, 'modern');
    await client.close();
  });
});

describe('newestMutual', () => {
  test('picks the newest common version and ignores junk', () => {
    assert.equal(newestMutual(['2025-06-18', '2026-07-28', 7, null], ALL_VERSIONS), '2026-07-28');
    assert.equal(newestMutual(['2099-01-01'], ALL_VERSIONS), undefined);
    assert.equal(newestMutual([], ALL_VERSIONS), undefined);
  });
});
