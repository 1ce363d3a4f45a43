// The framework examples run as their pages say: `node examples/frameworks/<name>.ts --port 0`
// on Node 22.18 or newer (types stripped), each serving echo at the URL it prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { echoAt, startServing } from '../test-support/framework-suite.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// @ts-expect-error a plain script without types
const { node22 } = (await import('../../scripts/node22.mjs')) as { node22: () => string };

for (const name of ['express', 'hono', 'fastify']) {
  test(`examples/frameworks/${name}.ts serves echo at the URL it prints`, async () => {
    const serving = await startServing(node22(), [`examples/frameworks/${name}.ts`, '--port', '0'], {
      cwd: root,
    });
    try {
      assert.match(serving.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.equal(await echoAt(serving.url, `from ${name}`), `from ${name}`);
      assert.equal(await echoAt(serving.url, 'legacy too', 'legacy'), 'legacy too');
    } finally {
      await serving.stop();
    }
  });
}
