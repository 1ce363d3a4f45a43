// The Next.js route handlers twice: in-process behind a plain fetch server that routes as the
// App Router does (every check of the suite, auth included), and in the real thing: the
// example app (examples/frameworks/next) built with `next build` and run with `next start`.
// The build takes a minute or two; it starts first thing, beside the in-process suite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serve as honoServe } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as SdkSse } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as SdkStreamableHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpNext } from './next.js';
import type { RouteHandler } from './next.js';
import { ownedPaths } from './adapter-options.js';
import { callEcho, echoAt, runFrameworkSuite, startServing } from '../test-support/framework-suite.js';
import type { MountedApp, ServingProcess } from '../test-support/framework-suite.js';
import { initializeRequest, postJson, request } from '../test-support/http-server-harness.js';

runFrameworkSuite('next route handlers', async (server, options): Promise<MountedApp> => {
  const routes = mcpNext(server, options);
  const owned = ownedPaths(options);
  const { GET, POST, DELETE, OPTIONS } = routes;
  const byMethod: Record<string, RouteHandler | undefined> = { GET, POST, DELETE, OPTIONS };
  const listener: ServerType = await new Promise((resolve) => {
    const s = honoServe(
      {
        port: 0,
        hostname: '127.0.0.1',
        fetch: (req: Request) => {
          const path = new URL(req.url).pathname;
          if (path === '/hello') return new Response('hello from the app');
          const handle = owned.has(path) ? byMethod[req.method] : undefined;
          return handle ? handle(req) : new Response(null, { status: 404 });
        },
      },
      () => resolve(s),
    );
  });
  return {
    origin: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`,
    close: async () => {
      await routes.close();
      (listener as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
});

const root = fileURLToPath(new URL('../../', import.meta.url));
const appDir = fileURLToPath(new URL('../../examples/frameworks/next/', import.meta.url));
const nextBin = fileURLToPath(new URL('../../node_modules/next/dist/bin/next', import.meta.url));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('examples/frameworks/next: next build, then next start', () => {
  let app: ServingProcess;
  let origin: string;
  before(async () => {
    // The app imports mcpkit/next through the package's exports: the bundle must be built
    // (`npm test` has built it; a run of this file alone may not have).
    if (!existsSync(join(root, 'dist/bundle/next.js')))
      await promisify(execFile)(process.execPath, ['scripts/bundle.mjs'], { cwd: root });
    await promisify(execFile)(process.execPath, [nextBin, 'build'], { cwd: appDir, env, timeout: 600_000 });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    app = await startServing(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: appDir,
      env,
      ready: { line: /Ready in/, url: `${origin}/mcp` },
    });
  });
  after(() => app?.stop());

  test('echo in both eras with mcpkit, and with the official SDK client', async () => {
    assert.equal(await echoAt(app.url, 'modern next'), 'modern next');
    assert.equal(await echoAt(app.url, 'legacy next', 'legacy'), 'legacy next');
    const client = new SdkClient({ name: 'sdk', version: '1.0.0' });
    await client.connect(new SdkStreamableHttp(new URL(app.url)) as never);
    try {
      const r = await client.callTool({ name: 'echo', arguments: { text: 'sdk' } });
      assert.deepEqual(r.content, [{ type: 'text', text: 'sdk' }]);
    } finally {
      await client.close();
    }
  });

  test('the deprecated HTTP+SSE transport through app/sse and app/messages', async () => {
    const client = new SdkClient({ name: 'sdk-sse', version: '1.0.0' });
    await client.connect(new SdkSse(new URL(`${origin}/sse`)) as never);
    try {
      const r = await client.callTool({ name: 'echo', arguments: { text: 'old' } });
      assert.deepEqual(r.content, [{ type: 'text', text: 'old' }]);
    } finally {
      await client.close();
    }
  });

  test('a foreign Host or Origin gets 403; a body over the limit 413', async () => {
    const host = await callEcho(app.url, 'x', { host: 'evil.example' });
    assert.equal(host.status, 403, host.body);
    const origin403 = await callEcho(app.url, 'x', { origin: 'http://evil.example' });
    assert.equal(origin403.status, 403, origin403.body);
    const big = JSON.stringify({ ...initializeRequest(), pad: 'x'.repeat(5 * 1024 * 1024) });
    const tooBig = await postJson(app.url, big, { 'transfer-encoding': 'chunked' });
    assert.equal(tooBig.status, 413);
    assert.equal((await request(`${origin}/elsewhere`, { method: 'GET' })).status, 404);
  });
});
