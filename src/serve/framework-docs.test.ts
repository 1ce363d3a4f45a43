// The recipes of docs/deploy run as pasted: each page's `// server.ts` block is written out
// beside the package (so `mcpkit/...` resolves through its exports) and run on Node 22.18+,
// which strips the types; only its port, 3000, becomes a free one. It must serve echo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { echoAt, startServing } from '../test-support/framework-suite.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// @ts-expect-error a plain script without types
const { node22 } = (await import('../../scripts/node22.mjs')) as { node22: () => string };

/** The page's block that starts with `// server.ts`. */
function serverBlock(page: string): string {
  const text = readFileSync(join(root, 'docs', 'deploy', page), 'utf8');
  const m = /```ts\n(\/\/ server\.ts\n[\s\S]*?)```/.exec(text);
  if (!m) throw new Error(`${page} has no // server.ts block`);
  return m[1]!;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

for (const page of ['express.md', 'hono.md', 'fastify.md']) {
  test(`docs/deploy/${page}: the server.ts recipe serves echo`, async () => {
    const port = await freePort();
    const dir = join(root, '.cache', 'framework-docs');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${page.replace('.md', '')}-server.ts`);
    writeFileSync(file, serverBlock(page).replaceAll('3000', String(port)));
    const url = `http://127.0.0.1:${port}/mcp`;
    const serving = await startServing(node22(), [file], {
      cwd: root,
      ready: { line: new RegExp(`MCP endpoint: ${url.replaceAll('.', '\\.')}`), url },
    });
    try {
      assert.equal(await echoAt(serving.url, page), page);
      assert.equal(await echoAt(serving.url, 'legacy', 'legacy'), 'legacy');
    } finally {
      await serving.stop();
    }
  });
}
