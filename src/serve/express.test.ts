import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { mcpExpress } from './express.js';
import type { McpExpressOptions } from './express.js';
import type { McpServer } from '../server/server.js';
import { answerOf, callEcho, echoServer, runFrameworkSuite } from '../test-support/framework-suite.js';
import type { MountedApp } from '../test-support/framework-suite.js';
import { initializeRequest, postJson } from '../test-support/http-server-harness.js';

async function mount(
  server: McpServer,
  options: McpExpressOptions,
  before?: (app: express.Express) => void,
): Promise<MountedApp> {
  const app = express();
  before?.(app);
  const mcp = mcpExpress(server, options);
  app.use(mcp);
  app.get('/hello', (_req, res) => {
    res.send('hello from the app');
  });
  const listener: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  listener.headersTimeout = 10_000;
  listener.requestTimeout = 30_000;
  return {
    origin: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`,
    close: async () => {
      await mcp.close();
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}

runFrameworkSuite('express', (server, options) => mount(server, options));

test('express: a body express.json() already parsed is served, and still held to maxBodyBytes', async () => {
  const server = echoServer();
  const app = await mount(server, { maxBodyBytes: 8 * 1024 }, (a) => a.use(express.json({ limit: '1mb' })));
  try {
    const ok = await callEcho(`${app.origin}/mcp`, 'parsed first');
    assert.equal(ok.status, 200, ok.body);
    assert.equal((answerOf(ok)?.result as { content: { text: string }[] }).content[0]!.text, 'parsed first');
    // Chunked, so only the re-read body can tell: the parser allowed 1 MB, the endpoint 8 KiB.
    const big = JSON.stringify({ ...initializeRequest(), pad: 'x'.repeat(16 * 1024) });
    const tooBig = await postJson(`${app.origin}/mcp`, big, { 'transfer-encoding': 'chunked' });
    assert.equal(tooBig.status, 413, tooBig.body);
  } finally {
    await app.close();
    await server.close();
  }
});
