/**
 * Faults: a server that crashes mid-call, one that hangs, one that floods, one that
 * cannot start; restarts with exponential backoff and a cap; shutdown without orphans;
 * an HTTP server that goes away and comes back. The host stays responsive throughout.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createEverythingServer } from '../demo/everything-server.js';
import { LocalError } from '../jsonrpc/index.js';
import { serve } from '../serve/index.js';
import type { ServerHealth } from './supervision/server-connection.js';
import { OURS, ROGUE, alive, makeHost, nodeServer } from '../test-support/host-harness.js';
import { WAIT_MS, waitFor } from '../test-support/waiting.js';

const FAST_RESTART = { maxRestarts: 3, initialDelayMs: 40, maxDelayMs: 100, resetAfterMs: 60_000 };
const text = (r: { content: Array<{ type: string; text?: string }> }): string =>
  r.content.map((c) => c.text ?? '').join('');

describe('host: faults', () => {
  test('a server that crashes mid-call: the call fails at once, the server restarts, calls work again', async () => {
    const { host } = makeHost(
      { rogue: nodeServer(ROGUE, [], { era: 'legacy', restart: FAST_RESTART }) },
      { answers: { approveTool: 'always' } },
    );
    const states: string[] = [];
    host.on('health', (h) => states.push(h.state));
    try {
      await host.start();
      const pid = host.health()[0]!.pid!;
      const started = Date.now();
      await assert.rejects(
        host.callTool('rogue__crash', {}),
        (e: unknown) => e instanceof LocalError && e.code === 'ConnectionClosed',
      );
      assert.ok(Date.now() - started < 2000, `failed after ${Date.now() - started} ms`);
      await waitFor(
        () => host.health()[0]!.state === 'ready' && host.catalog.resolve('rogue__greet'),
        5000,
        'the restart',
      );
      const h = host.health()[0]!;
      assert.notEqual(h.pid, pid);
      assert.equal(h.restarts, 1);
      assert.match(h.lastError ?? '', /^$/);
      assert.equal(text(await host.callTool('rogue__greet', {})), 'Hello from rogue');
      assert.deepEqual(states.slice(0, 6), [
        'awaiting-consent',
        'connecting',
        'ready',
        'restarting',
        'connecting',
        'ready',
      ]);
    } finally {
      await host.close();
    }
  });

  test('a handshake and a listing slower than the per-call timeout still fill the catalog: both get the connect timeout', async () => {
    const { host } = makeHost({
      rogue: nodeServer(ROGUE, ['slow-list'], {
        era: 'legacy',
        timeouts: { callMs: 200 },
        policy: { default: 'allow' },
      }),
    });
    try {
      await host.start();
      assert.equal(host.health()[0]!.state, 'ready', host.health()[0]!.lastError);
      assert.ok(host.catalog.resolve('rogue__greet'), 'the slow listing arrived');
      assert.equal(text(await host.callTool('rogue__greet', {})), 'Hello from rogue');
    } finally {
      await host.close();
    }
  });

  test('a server that hangs: the call fails within its timeout, everything else keeps answering', async () => {
    const { host } = makeHost({
      rogue: nodeServer(ROGUE, [], {
        era: 'legacy',
        timeouts: { callMs: 300 },
        policy: { default: 'allow' },
      }),
      ours: nodeServer(OURS, [], { policy: { default: 'allow' } }),
    });
    try {
      await host.start();
      const started = Date.now();
      const hung = assert
        .rejects(
          host.callTool('rogue__hang', {}),
          (e: unknown) => e instanceof LocalError && e.code === 'RequestTimeout',
        )
        .then(() => Date.now() - started);
      const quick = await host.callTool('ours__echo', { text: 'still here' });
      assert.equal(text(quick), 'still here');
      assert.equal(
        text(await host.callTool('rogue__greet', {})),
        'Hello from rogue',
        'the same connection still answers',
      );
      const took = await hung;
      assert.ok(took >= 280 && took < 1500, `timed out after ${took} ms`);
      assert.equal(host.health()[0]!.state, 'ready');
    } finally {
      await host.close();
    }
  });

  test('a server that floods notifications: the host stays responsive and throttles the logs', async () => {
    const { host } = makeHost({
      rogue: nodeServer(ROGUE, [], { era: 'legacy', policy: { default: 'allow' } }),
      ours: nodeServer(OURS, [], { policy: { default: 'allow' } }),
    });
    let logs = 0;
    const notices: string[] = [];
    host.on('log', () => logs++);
    host.on('notice', (n) => notices.push(n.message));
    try {
      await host.start();
      const flood = host.callTool('rogue__flood', {});
      const t0 = Date.now();
      assert.equal(text(await host.callTool('ours__echo', { text: 'responsive' })), 'responsive');
      const echoMs = Date.now() - t0;
      assert.equal(text(await flood), 'flood done');
      assert.ok(echoMs < 2000, `echo took ${echoMs} ms during the flood`);
      assert.ok(logs <= 200, `${logs} log events passed on out of 20000`);
      await host.callTool('rogue__greet', {});
      await waitFor(
        () => notices.some((n) => /Dropped \d+ log messages from rogue/.test(n)) || logs < 20_000,
        2000,
      );
      assert.equal(host.health()[0]!.state, 'ready');
    } finally {
      await host.close();
    }
  });

  test('a server that cannot start: a clear reason (stderr included), no retry of a missing command, others unaffected', async () => {
    const { host } = makeHost({
      missing: { command: '/nonexistent/mcp-server', restart: { maxRestarts: 1, initialDelayMs: 20 } },
      broken: nodeServer(ROGUE, ['crash-on-start'], { era: 'legacy', restart: { maxRestarts: 0 } }),
      ours: nodeServer(OURS),
    });
    try {
      await host.start();
      await waitFor(
        () => host.health().find((h) => h.name === 'missing')!.state === 'failed',
        3000,
        'missing to fail',
      );
      const [missing, broken, ours] = host.health();
      // A command that is not there will not be there on a retry either.
      assert.match(
        missing!.lastError!,
        /^Could not start "\/nonexistent\/mcp-server": command not found \(check "command" and PATH\)$/,
      );
      assert.equal(missing!.restarts, 0);
      assert.equal(broken!.state, 'failed');
      assert.match(
        broken!.lastError!,
        /exited with code 3[\s\S]*stderr \(last lines\):\n {4}rogue: missing configuration file \/nonexistent\/rogue\.toml/,
      );
      assert.equal(ours!.state, 'ready');
      await assert.rejects(
        host.callTool({ server: 'broken', tool: 'greet' }),
        /Server "broken" is failed: Server "broken" did not start/,
      );
    } finally {
      await host.close();
    }
  });

  test('restarts back off exponentially up to the cap, then give up', async () => {
    const { host } = makeHost({
      broken: nodeServer(ROGUE, ['crash-on-start'], { era: 'legacy', restart: FAST_RESTART }),
    });
    const delays: number[] = [];
    host.on('health', (h: ServerHealth) => {
      if (h.state === 'restarting') delays.push(h.nextAttemptAt! - Date.now());
    });
    try {
      await host.start();
      await waitFor(() => host.health()[0]!.state === 'failed', WAIT_MS, 'giving up');
      assert.equal(delays.length, 3);
      const rounded = delays.map((d) => Math.round(d / 10) * 10);
      assert.deepEqual(rounded, [40, 80, 100]);
      assert.match(host.health()[0]!.lastError!, /gave up after 3 restarts/);
    } finally {
      await host.close();
    }
  });

  test('graceful shutdown leaves no process behind, grandchildren included', async () => {
    const { host } = makeHost({
      rogue: nodeServer(ROGUE, [], { era: 'legacy', policy: { default: 'allow' } }),
      ours: nodeServer(OURS),
    });
    await host.start();
    const pids = host.health().map((h) => h.pid!);
    const grandchild = Number(text(await host.callTool('rogue__grandchild', {})));
    assert.ok(alive(grandchild));
    await host.close();
    for (const pid of [...pids, grandchild])
      await waitFor(() => !alive(pid), WAIT_MS, `process ${pid} to end`);
    assert.deepEqual(
      host.health().map((h) => h.state),
      ['stopped', 'stopped'],
    );
  });

  test('an HTTP server that goes away is reconnected when it comes back', async () => {
    let web = await serve(createEverythingServer(), { port: 0 });
    const port = (web.httpServer.address() as AddressInfo).port;
    const { host } = makeHost({
      web: {
        url: web.url,
        policy: { default: 'allow' },
        restart: { maxRestarts: 20, initialDelayMs: 50, maxDelayMs: 100 },
      },
    });
    try {
      await host.start();
      assert.equal(text(await host.callTool('web__echo', { text: 'one' })), 'one');
      await web.close();
      await assert.rejects(host.callTool('web__echo', { text: 'two' }));
      await waitFor(() => host.health()[0]!.state !== 'ready', WAIT_MS, 'the host to notice');
      web = await serve(createEverythingServer(), { port });
      await waitFor(
        () => host.health()[0]!.state === 'ready' && host.catalog.resolve('web__echo'),
        5000,
        'the reconnection',
      );
      assert.equal(text(await host.callTool('web__echo', { text: 'three' })), 'three');
    } finally {
      await host.close();
      await web.close();
    }
  });
});
