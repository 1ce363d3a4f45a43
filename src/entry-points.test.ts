// The package's entry points: the root is the short list, the engine is `mcpkit/advanced`,
// `mcpkit/host` loads no Node-only module (those are `mcpkit/host/node`), nor does
// `mcpkit/http-server` (its Node build adds serve()), and every entry in
// package.json's `exports` resolves to a built file.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { modulesLoadedBy } from './test-support/loaded-modules.js';

const root = fileURLToPath(new URL('../', import.meta.url));

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
      'answer',
      'memoryPair',
      'toolError',
    ]);
  });

  test('the engine and the protocol tables are mcpkit/advanced; the role entries hold what the root does not', async () => {
    const advanced = (await import('./advanced.js')) as Record<string, unknown>;
    for (const name of [
      'Session',
      'RequestContext',
      'METHODS',
      'MetaKey',
      'APPS_EXTENSION',
      'SKILLS_EXTENSION',
      'TASKS_EXTENSION',
      'parseFrame',
      'LATEST_VERSION',
    ])
      assert.ok(name in advanced, name);
    // mcpkit/types loads no code.
    assert.deepEqual(Object.keys(await import('./protocol/types/index.js')), []);
    const server = (await import('./server/index.js')) as Record<string, unknown>;
    const client = (await import('./client/index.js')) as Record<string, unknown>;
    for (const name of ['registerApp', 'APP_MIME_TYPE', 'TaskRuntime', 'LocalChangeBus'])
      assert.ok(name in server, name);
    for (const name of ['Subscription', 'ResultCache', 'TaskClient']) assert.ok(name in client, name);
    // Each name has one home: the root's classes are not repeated by the role entries.
    for (const name of ['McpServer', 'ServerContext', 'toolError']) assert.ok(!(name in server), name);
    assert.ok(!('Client' in client));
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
      'serverTransport',
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

  test('mcpkit/http-server loads no Node module; on Node it adds serve and nodeListener', async () => {
    assert.deepEqual(
      modulesLoadedBy("await import('./transports/http-server/index.js');").filter((m) =>
        m.startsWith('node:'),
      ),
      [],
    );
    const neutral = (await import('./transports/http-server/index.js')) as Record<string, unknown>;
    const onNode = (await import('./serve/http-server-node.js')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(onNode).sort(), [...Object.keys(neutral), 'nodeListener', 'serve'].sort());
    for (const [name, value] of Object.entries(neutral)) assert.equal(onNode[name], value, name);
  });

  test('every exports entry resolves to a built file; the never-released mcpkit/http alias is gone', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, unknown>>;
    };
    const targets = (e: unknown): string[] =>
      typeof e === 'string' ? [e] : Object.values(e as Record<string, unknown>).flatMap(targets);
    for (const [sub, entry] of Object.entries(pkg.exports))
      for (const target of targets(entry)) assert.ok(existsSync(join(root, target)), `${sub}: ${target}`);
    assert.ok(!('./http' in pkg.exports));
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
