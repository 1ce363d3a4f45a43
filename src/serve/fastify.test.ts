import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { mcpFastify } from './fastify.js';
import type { McpFastifyOptions } from './fastify.js';
import type { McpServer } from '../server/server.js';
import { echoServer, runFrameworkSuite } from '../test-support/framework-suite.js';
import type { MountedApp } from '../test-support/framework-suite.js';
import { initializeRequest, postJson } from '../test-support/http-server-harness.js';

async function mount(server: McpServer, options: McpFastifyOptions, bodyLimit?: number): Promise<MountedApp> {
  const app = Fastify({ requestTimeout: 30_000, ...(bodyLimit ? { bodyLimit } : {}) });
  await app.register(mcpFastify(server, options));
  app.get('/hello', async () => 'hello from the app');
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

runFrameworkSuite('fastify', (server, options) => mount(server, options));

test("fastify: the endpoint's maxBodyBytes holds over a larger bodyLimit, and Fastify never parses", async () => {
  const server = echoServer();
  const app = await mount(server, { maxBodyBytes: 8 * 1024 }, 1024 * 1024);
  try {
    const big = JSON.stringify({ ...initializeRequest(), pad: 'x'.repeat(16 * 1024) });
    const tooBig = await postJson(`${app.origin}/mcp`, big, { 'transfer-encoding': 'chunked' });
    assert.equal(tooBig.status, 413, tooBig.body);
    // Fastify would answer bad JSON with its own 400 body; the core answers JSON-RPC -32700.
    const bad = await postJson(`${app.origin}/mcp`, '{not json');
    assert.equal(bad.status, 400);
    assert.equal((bad.json?.error as { code: number }).code, -32700);
  } finally {
    await app.close();
    await server.close();
  }
});

test('fastify: registering under a prefix is refused with a clear error', async () => {
  const server = echoServer();
  const app = Fastify();
  try {
    await assert.rejects(async () => {
      await app.register(mcpFastify(server), { prefix: '/api' });
      await app.ready();
    }, /without a prefix/);
  } finally {
    await app.close().catch(() => undefined);
    await server.close();
  }
});
