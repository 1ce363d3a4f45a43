// The official SDK v1 (@modelcontextprotocol/sdk) over Streamable HTTP, stateful, wired as
// its documentation shows: a session map, a new McpServer + StreamableHTTPServerTransport
// per initialize, and handleRequest(req, res, parsedBody). Plain node:http reads and
// parses the body instead of express.json(), which only spares the SDK express's cost.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listenWithSessions, ready } from './http-common.mjs';

function makeServer() {
  const server = new McpServer({ name: 'sdk-v1-echo', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

const sdk = {
  isInitializeRequest,
  makeServer,
  serverTransport: (options) => new StreamableHTTPServerTransport(options),
  handle: (transport, req, res, body) => transport.handleRequest(req, res, body),
};

ready({ json: await listenWithSessions(sdk, true), sse: await listenWithSessions(sdk, false) });
