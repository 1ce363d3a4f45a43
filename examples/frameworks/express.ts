/**
 * An MCP server with an echo tool in an Express app, at http://127.0.0.1:PORT/mcp beside
 * the app's own routes. Run: `npm run build && node examples/frameworks/express.ts --port 3000`
 * (Node 22.18 or newer runs TypeScript as is).
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { mcpExpress } from 'mcpkit/express';
import { echoServer, portArg } from './echo-server.ts';

const server = echoServer('express-echo');
const mcp = mcpExpress(server);
const app = express();
// Before any body parser: the endpoint reads its bodies itself, under its own limit.
app.use(mcp);
app.get('/', (_req, res) => {
  res.send('An Express app with an MCP endpoint at /mcp');
});

const listener = app.listen(portArg(), '127.0.0.1', () => {
  const { port } = listener.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}/mcp`);
});
// The timeouts serve() sets: a slow or silent client cannot hold a connection open.
listener.headersTimeout = 10_000;
listener.requestTimeout = 30_000;

const stop = async (): Promise<void> => {
  await mcp.close();
  listener.closeAllConnections();
  listener.close();
  await server.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
