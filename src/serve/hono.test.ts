import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { serve as honoServe } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { mcpHono } from './hono.js';
import type { McpHonoOptions } from './hono.js';
import type { McpServer } from '../server/server.js';
import { answerOf, callEcho, echoServer, runFrameworkSuite } from '../test-support/framework-suite.js';
import type { MountedApp } from '../test-support/framework-suite.js';
import { initializeRequest, postJson } from '../test-support/http-server-harness.js';

async function mount(
  server: McpServer,
  options: McpHonoOptions,
  before?: (app: Hono) => void,
): Promise<MountedApp> {
  const app = new Hono();
  before?.(app);
  const mcp = mcpHono(server, options);
  app.use(mcp);
  app.get('/hello', (c) => c.text('hello from the app'));
  const listener: ServerType = await new Promise((resolve) => {
    const s = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`,
    close: async () => {
      await mcp.close();
      (listener as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}

runFrameworkSuite('hono', (server, options) => mount(server, options));

test('hono: a body an earlier middleware read is served, and still held to maxBodyBytes', async () => {
  const server = echoServer();
  const app = await mount(server, { maxBodyBytes: 8 * 1024 }, (a) =>
    a.use(async (c, next) => {
      if (c.req.method === 'POST') await c.req.json();
      await next();
    }),
  );
  try {
    const ok = await callEcho(`${app.origin}/mcp`, 'parsed first');
    assert.equal(ok.status, 200, ok.body);
    assert.equal((answerOf(ok)?.result as { content: { text: string }[] }).content[0]!.text, 'parsed first');
    const big = JSON.stringify({ ...initializeRequest(), pad: 'x'.repeat(16 * 1024) });
    const tooBig = await postJson(`${app.origin}/mcp`, big, { 'transfer-encoding': 'chunked' });
    assert.equal(tooBig.status, 413, tooBig.body);
  } finally {
    await app.close();
    await server.close();
  }
});
