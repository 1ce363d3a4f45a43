/**
 * The runtime suite on workerd (src/test-support/runtime-suite.ts): the server fixture as a
 * Cloudflare Worker (test/runtimes/workerd-worker.mjs, bundled for Workers, no nodejs_compat),
 * served by `workerd serve`, checked by mcpkit's client in both eras (legacy sessions through
 * the Durable Object store, mcpkit/durable-object) and by the official SDK client. mcpkit's
 * client does not run inside a Worker here. Also: the Worker builds its server at module scope.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runtimeTests } from '../test-support/runtime-suite.js';

await runtimeTests('workerd');

interface WorkerdLauncher {
  binary(): string;
  start(options: { port: number }): Promise<{ url: string; stop(): Promise<void> }>;
}

// From src/runtimes or dist/runtimes alike.
const launcherUrl = new URL('../../test/runtimes/workerd-launcher.mjs', import.meta.url).href;
const { workerd } = (await import(launcherUrl)) as { workerd: WorkerdLauncher };

let unavailable: string | false = false;
try {
  workerd.binary();
} catch (err) {
  if (process.env.MCPKIT_REQUIRE_SERVICES === '1') throw err;
  unavailable = `needs workerd, which could not be installed: ${(err as Error).message.split('\n')[0]}`;
}

test(
  'the Worker builds its McpServer at module scope (no timers or randomness at construction)',
  { skip: unavailable },
  async () => {
    const running = await workerd.start({ port: 0 });
    try {
      const res = await fetch(new URL('/module-scope', running.url));
      assert.equal(await res.text(), 'ok');
    } finally {
      await running.stop();
    }
  },
);
