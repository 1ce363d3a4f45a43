/**
 * An MCP server with an echo tool in a Fastify app, at http://127.0.0.1:PORT/mcp beside the
 * app's own routes. Run: `npm run build && node examples/frameworks/fastify.ts --port 3000`
 * (Node 22.18 or newer runs TypeScript as is).
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { mcpFastify } from 'mcpkit/fastify';
import { echoServer, portArg } from './echo-server.ts';

const server = echoServer('fastify-echo');
// Fastify has no request timeout by default: 30 s, as serve() sets.
const app = Fastify({ requestTimeout: 30_000 });
await app.register(mcpFastify(server));
app.get('/', async () => 'A Fastify app with an MCP endpoint at /mcp');

await app.listen({ port: portArg(), host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
console.log(`listening http://127.0.0.1:${port}/mcp`);

const stop = async (): Promise<void> => {
  await app.close(); // also closes the MCP sessions
  await server.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
