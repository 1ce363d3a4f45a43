// The server's task runtime (with the task store) and its client-task requester load when
// a server first uses them, not with `mcpkit`: module lists, in fresh processes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modulesLoadedBy } from '../test-support/loaded-modules.js';

const LAZY = [
  'server/task-runtime.js',
  'server/task-store.js',
  'server/task-run.js',
  'server/client-task-request.js',
];

const loadedOf = (modules: string[]): string[] =>
  LAZY.filter((file) => modules.some((m) => m.startsWith('file:') && m.endsWith(`/dist/${file}`)));

describe('the task runtime loads on first use', () => {
  test('importing mcpkit, or serving plain tools over a connection, loads none of it', () => {
    assert.deepEqual(loadedOf(modulesLoadedBy("await import('./index.js');")), []);
    const code = `
      const { McpServer, Client, memoryPair } = await import('./index.js');
      const server = new McpServer({ name: 's', version: '1' });
      server.tool({ name: 'plain' }, () => 'plain answer');
      const [a, b] = memoryPair();
      await server.connect(a);
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(b);
      const r = await client.callTool({ name: 'plain', arguments: {} });
      if (r.content[0].text !== 'plain answer' || server.tasks !== undefined) throw new Error('bad');
      await client.close();
      await server.close();`;
    assert.deepEqual(loadedOf(modulesLoadedBy(code)), []);
  });

  test('a task tool registered on a live connection loads it; a call made at once waits for it', () => {
    // The call and tasks/list go out before the runtime's module can have loaded: they are
    // answered once it has, as a server that had it from the start would answer them.
    const code = `
      const { McpServer, Client, memoryPair } = await import('./index.js');
      const server = new McpServer({ name: 's', version: '1' });
      server.tool({ name: 'plain' }, () => 'plain answer');
      const [a, b] = memoryPair();
      await server.connect(a);
      const client = new Client({ name: 'c', version: '1' }, { versions: ['2025-11-25'] });
      await client.connect(b);
      server.tool({ name: 'slow', execution: { taskSupport: 'optional' } }, async () => 'task answer');
      const [handle, listed] = await Promise.all([
        client.tasks.start({ name: 'slow', arguments: {} }),
        client.tasks.list(),
      ]);
      if (!handle.taskId || !Array.isArray(listed.tasks)) throw new Error('no task: ' + JSON.stringify(listed));
      const r = await handle.result();
      if (r.content[0].text !== 'task answer') throw new Error('bad result ' + JSON.stringify(r));
      if (server.tasks === undefined || !server.capabilities().tasks) throw new Error('tasks off');
      await client.close();
      await server.close();`;
    assert.deepEqual(loadedOf(modulesLoadedBy(code)), LAZY.slice(0, 3));
  });

  test('options.tasks loads it before connect resolves', () => {
    const code = `
      const { McpServer, memoryPair } = await import('./index.js');
      const server = new McpServer({ name: 's', version: '1' }, { tasks: { defaultTtlMs: 1000 } });
      await server.connect(memoryPair()[0]);
      if (server.tasks === undefined) throw new Error('no runtime after connect');
      await server.close();`;
    assert.deepEqual(loadedOf(modulesLoadedBy(code)), LAZY.slice(0, 3));
  });
});
