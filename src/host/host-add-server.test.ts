/**
 * Servers added to and restarted on a running host (the inspector's connect and reconnect):
 * the new server's tools join the catalog and its policy applies; a taken name and an
 * unknown server are refused; a restart makes a new connection and the catalog follows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEverythingServer } from '../demo/everything-server.js';
import { serve } from '../serve/index.js';
import type { RunningServer } from '../serve/index.js';
import { parseHostConfig } from './config/config-parse.js';
import { HostError } from './errors.js';
import type { Host } from './host.js';
import { makeHost } from '../test-support/host-harness.js';

describe('adding and restarting servers on a running host', () => {
  let web: RunningServer;
  let host: Host;

  before(async () => {
    web = await serve(createEverythingServer({ stepMs: 5 }), { port: 0 });
    ({ host } = makeHost({}));
    await host.start();
  });
  after(async () => {
    await host.close();
    await web.close();
  });

  test('addServer starts it, fills the catalog and applies its policy; a taken name is refused', async () => {
    const entry = { url: web.url, policy: { default: 'allow', tools: { add: 'deny' } } };
    const server = parseHostConfig({ mcpServers: { web: entry } }).servers.web!;
    const health = await host.addServer(server);
    assert.equal(health.state, 'ready');
    assert.ok(host.catalog.tools().some((t) => t.server === 'web' && t.name === 'echo'));
    const r = await host.callTool({ server: 'web', tool: 'echo' }, { text: 'hi' });
    assert.match(JSON.stringify(r.content), /hi/);
    await assert.rejects(
      host.callTool({ server: 'web', tool: 'add' }, { a: 1, b: 2 }),
      (e: unknown) => e instanceof HostError && e.code === 'Denied',
    );
    await assert.rejects(host.addServer(server), /already exists/);
  });

  test('restartServer makes a new connection; the catalog is back when it resolves', async () => {
    const before = host.client('web');
    const states: string[] = [];
    const off = host.on('health', (h) => {
      if (h.name === 'web') states.push(h.state);
    });
    const health = await host.restartServer('web');
    off();
    assert.equal(health.state, 'ready');
    assert.ok(states.includes('stopped') && states.at(-1) === 'ready', states.join(','));
    assert.notEqual(host.client('web'), before);
    assert.ok(host.catalog.tools().some((t) => t.server === 'web' && t.name === 'echo'));
    await assert.rejects(
      host.restartServer('nope'),
      (e: unknown) => e instanceof HostError && e.code === 'UnknownServer',
    );
  });

  test('a call made the moment a server is ready waits for its first listing instead of failing', async () => {
    // The server's first tools/list is held back: `ready` is announced before the catalog
    // knows any tool, which is when a script (or the inspector's first click) calls.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = createEverythingServer({ stepMs: 5 });
    slow.use({ type: 'wrap', events: ['tools/list'], wrap: async (_r, next) => (await held, next()) });
    const served = await serve(slow, { port: 0 });
    const { host: fresh } = makeHost({ slow: { url: served.url } });
    try {
      const calls: Array<Promise<unknown>> = [];
      fresh.on('health', (h) => {
        if (h.state !== 'ready' || calls.length > 0) return;
        assert.equal(fresh.catalog.tools().length, 0);
        calls.push(fresh.callTool({ server: 'slow', tool: 'echo' }, { text: 'pair' }));
        calls.push(fresh.callTool('slow__echo', { text: 'alias' }));
        calls.push(fresh.getPrompt('slow__test_simple_prompt'));
        release();
      });
      await fresh.start();
      assert.equal(calls.length, 3);
      const [pair, alias, prompt] = await Promise.all(calls);
      assert.match(JSON.stringify(pair), /pair/);
      assert.match(JSON.stringify(alias), /alias/);
      assert.ok((prompt as { messages: unknown[] }).messages.length > 0);
      // Once listed, an unknown name is refused at once, as before.
      await assert.rejects(
        fresh.callTool({ server: 'slow', tool: 'nope' }),
        (e: unknown) => e instanceof HostError && e.code === 'UnknownTool',
      );
    } finally {
      await fresh.close();
      await served.close();
    }
  });
});
