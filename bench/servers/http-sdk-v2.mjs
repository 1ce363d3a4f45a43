// The official SDK v2 (@modelcontextprotocol/server 2.x) over Streamable HTTP, stateful
// legacy sessions: a new McpServer + WebStandardStreamableHTTPServerTransport per
// initialize, bridged to node:http with @hono/node-server's getRequestListener, which is
// all @modelcontextprotocol/node (the v2 Node adapter, not installed here) does. The
// body is parsed once and handed over as parsedBody, as with express.json().
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { readBody, ready } from './http-common.mjs';

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

function listen(enableJsonResponse) {
  const transports = new Map();
  const server = createServer(async (req, res) => {
    try {
      const sid = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        if (sid !== undefined || !isInitializeRequest(body)) {
          res.writeHead(sid === undefined ? 400 : 404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad session' }, id: null }),
          );
          return;
        }
        const t = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => transports.set(id, t),
        });
        t.onclose = () => {
          if (t.sessionId) transports.delete(t.sessionId);
        };
        await makeServer().connect(t);
        transport = t;
      }
      await handleNode(transport, req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

ready({ json: await listen(true), sse: await listen(false) });
