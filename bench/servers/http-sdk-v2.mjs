// The official SDK v2 (@modelcontextprotocol/server 2.x) over Streamable HTTP, stateful
// legacy sessions: a new McpServer + WebStandardStreamableHTTPServerTransport per
// initialize, bridged to node:http with @hono/node-server's getRequestListener, which is
// all @modelcontextprotocol/node (the v2 Node adapter, not installed here) does. The
// body is parsed once and handed over as parsedBody, as with express.json().
import { getRequestListener } from '@hono/node-server';
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { listenWithSessions, ready } from './http-common.mjs';

function makeServer() {
  const server = new McpServer({ name: 'sdk-v2-echo', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/** What NodeStreamableHTTPServerTransport.handleRequest does: node req/res → web → node. */
function handleNode(transport, req, res, parsedBody) {
  const listener = getRequestListener((webRequest) => transport.handleRequest(webRequest, { parsedBody }), {
    overrideGlobalObjects: false,
  });
  return listener(req, res);
}

const sdk = {
  isInitializeRequest,
  makeServer,
  serverTransport: (options) => new WebStandardStreamableHTTPServerTransport(options),
  handle: handleNode,
};

ready({ json: await listenWithSessions(sdk, true), sse: await listenWithSessions(sdk, false) });
