// A minimal MCP proxy on the official SDK v1, the way one is written by hand: one upstream
// client, and a low-level server per session that forwards tools/list and tools/call to it.
// The peer of `mcpkit proxy` in bench/gateway.mjs. Argument: the upstream URL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { listenWithSessions, ready } from './http-common.mjs';

// The SDK's client shares one AbortSignal across fetches and warns about its listeners.
process.removeAllListeners('warning');
const upstream = new Client({ name: 'sdk-v1-proxy', version: '1.0.0' });
await upstream.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));

function makeServer() {
  const server = new Server({ name: 'sdk-v1-proxy', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (req) => upstream.listTools(req.params));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    upstream.callTool(req.params, undefined, { signal: extra.signal }),
  );
  return server;
}

const sdk = {
  isInitializeRequest,
  makeServer,
  serverTransport: (options) => new StreamableHTTPServerTransport(options),
  handle: (transport, req, res, body) => transport.handleRequest(req, res, body),
};
// SSE answers (enableJsonResponse false): the SDK's default.
ready({ port: await listenWithSessions(sdk, false) });
