// The package's entry points: the root is the short list, the engine is `mcpkit/advanced`,
// `mcpkit/host` loads no Node-only module (those are `mcpkit/host/node`), nor does
// `mcpkit/http-server` (its Node build adds serve()), and every entry in
// package.json's `exports` resolves to a built file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { modulesLoadedBy } from './test-support/loaded-modules.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-entries-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ours = (modules: string[]): string[] =>
  modules
    .filter((m) => m.startsWith('file:') && m.includes('/dist/'))
    .map((m) => m.replace(/^.*\/dist\//, ''));

describe('entry points', () => {
  test('the root holds the application names and no engine internals', async () => {
    const rootEntry = (await import('./index.js')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(rootEntry).sort(), [
      'Client',
      'ErrorCode',
      'LocalError',
      'McpServer',
      'ServerContext',
      'WireError',
      'createMemoryPair',
      'toolError',
    ]);
  });

  test('the engine is mcpkit/advanced; the role entries hold their role whole', async () => {
    const advanced = (await import('./advanced.js')) as Record<string, unknown>;
    for (const name of ['Session', 'RequestContext', 'METHODS', 'MetaKey', 'parseFrame', 'LATEST_VERSION'])
      assert.ok(name in advanced, name);
    const server = (await import('./server/index.js')) as Record<string, unknown>;
    const client = (await import('./client/index.js')) as Record<string, unknown>;
    const rootEntry = (await import('./index.js')) as Record<string, unknown>;
    // The same class whichever entry it comes from.
    assert.equal(server.McpServer, rootEntry.McpServer);
    assert.equal(client.Client, rootEntry.Client);
    for (const name of ['registerApp', 'APP_MIME_TYPE', 'TaskRuntime', 'LocalChangeBus'])
      assert.ok(name in server, name);
    for (const name of ['Subscription', 'ResultCache', 'TaskClient']) assert.ok(name in client, name);
  });

  test('importing the root loads neither Apps, skills, post-message nor any Node module', () => {
    const loaded = modulesLoadedBy("await import('./index.js');");
    const files = ours(loaded);
    for (const unwanted of [
      'server/apps.js',
      'server/skills.js',
      'client/skills.js',
      'transports/post-message/',
    ])
      assert.ok(!files.some((f) => f.startsWith(unwanted)), `${unwanted} loaded: ${files.join(' ')}`);
    assert.deepEqual(
      loaded.filter((m) => m.startsWith('node:')),
      [],
    );
  });

  test('mcpkit/host loads no Node-only module; mcpkit/host/node has them', async () => {
    const loaded = modulesLoadedBy("await import('./host/index.js');");
    const files = ours(loaded);
    for (const unwanted of [
      'host/node-files.js',
      'host/supervision/node-transports.js',
      'host/ui/terminal-ui.js',
      'host/serve/node-sandbox-server.js',
      'transports/stdio/',
      'transports/http-client/',
      'host/apps/',
    ])
      assert.ok(!files.some((f) => f.startsWith(unwanted)), `${unwanted} loaded`);
    for (const builtin of [
      'node:child_process',
      'node:fs',
      'node:fs/promises',
      'node:readline',
      'node:http',
      'node:buffer',
    ])
      assert.ok(!loaded.includes(builtin), `${builtin} loaded`);
    const node = (await import('./host/node.js')) as Record<string, unknown>;
    for (const name of [
      'loadHostConfig',
      'JsonFileApprovalStore',
      'fileAudit',
      'createTransport',
      'TerminalUi',
    ])
      assert.equal(typeof node[name], 'function', name);
  });

  test('mcpkit/auth on Node has the names of the portable entry; only its fetches differ', async () => {
    const portable = (await import('./auth/index.js')) as Record<string, unknown>;
    const onNode = (await import('./auth/index-node.js')) as typeof import('./auth/index-node.js');
    assert.deepEqual(Object.keys(onNode).sort(), Object.keys(portable).sort());
    for (const [name, value] of Object.entries(onNode)) {
      if (name === 'OAuthClient' || name === 'GuardedFetch') {
        assert.notEqual(value, portable[name], name);
        assert.ok(
          (value as { prototype: object }).prototype instanceof (portable[name] as typeof Object),
          name,
        );
      } else assert.equal(value, portable[name], name);
    }
    // The portable entry stays browser-safe; the Node one loads undici only with a request.
    assert.deepEqual(
      modulesLoadedBy("await import('./auth/index.js');").filter((m) => m.startsWith('node:')),
      [],
    );
    const node = modulesLoadedBy("await import('./auth/index-node.js');");
    assert.ok(!node.some((m) => m.includes('/node_modules/undici/')), 'undici loaded at import');
  });

  test('mcpkit/http-server loads no Node module; on Node it adds serve and createNodeListener', async () => {
    assert.deepEqual(
      modulesLoadedBy("await import('./transports/http-server/index.js');").filter((m) =>
        m.startsWith('node:'),
      ),
      [],
    );
    const neutral = (await import('./transports/http-server/index.js')) as Record<string, unknown>;
    const onNode = (await import('./serve/http-server-node.js')) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(onNode).sort(),
      [...Object.keys(neutral), 'createNodeListener', 'serve'].sort(),
    );
    for (const [name, value] of Object.entries(neutral)) assert.equal(onNode[name], value, name);
  });

  test("mcpkit/host's deprecated loadHostConfig forwards to mcpkit/host/node's", async () => {
    const { loadHostConfig } = await import('./host/index.js');
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'node', args: ['a.js'] } } }));
    const config = await loadHostConfig(file);
    assert.deepEqual(Object.keys(config.servers), ['a']);
  });

  test('the deprecated onToolsChanged is the same callback as ontoolschanged', async () => {
    const { Client } = await import('./index.js');
    const f = (): void => undefined;
    const g = (): void => undefined;
    const client = new Client({ name: 't', version: '1' }, { onToolsChanged: f });
    assert.equal(client.ontoolschanged, f);
    client.onToolsChanged = g;
    assert.equal(client.ontoolschanged, g);
    assert.equal(
      new Client({ name: 't', version: '1' }, { ontoolschanged: f, onToolsChanged: g }).ontoolschanged,
      f,
    );
  });

  test('every exports entry resolves to a built file; mcpkit/http is mcpkit/http-server', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, unknown>>;
    };
    const targets = (e: unknown): string[] =>
      typeof e === 'string' ? [e] : Object.values(e as Record<string, unknown>).flatMap(targets);
    for (const [sub, entry] of Object.entries(pkg.exports))
      for (const target of targets(entry)) assert.ok(existsSync(join(root, target)), `${sub}: ${target}`);
    assert.deepEqual(pkg.exports['./http'], pkg.exports['./http-server']);
    for (const sub of [
      './http-server',
      './http-client',
      './stdio',
      './post-message',
      './advanced',
      './host/node',
    ])
      assert.ok(sub in pkg.exports, sub);
  });
});
