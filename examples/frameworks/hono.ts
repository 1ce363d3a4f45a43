/**
 * An MCP server with an echo tool in a Hono app on Node, at http://127.0.0.1:PORT/mcp beside
 * the app's own routes. Run: `npm run build && node examples/frameworks/hono.ts --port 3000`
 * (Node 22.18 or newer runs TypeScript as is). The same app runs on Bun, Deno and workers:
 * only `serve` from @hono/node-server is Node's.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mcpHono } from 'mcpkit/hono';
import { echoServer, portArg } from './echo-server.ts';

const server = echoServer('hono-echo');
const mcp = mcpHono(server);
const app = new Hono();
app.use(mcp);
app.get('/', (c) => c.text('A Hono app with an MCP endpoint at /mcp'));

const listener = serve({ fetch: app.fetch, port: portArg(), hostname: '127.0.0.1' }, (info: AddressInfo) => {
  console.log(`listening http://127.0.0.1:${info.port}/mcp`);
});

const stop = async (): Promise<void> => {
  await mcp.close();
  listener.close();
  await server.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
