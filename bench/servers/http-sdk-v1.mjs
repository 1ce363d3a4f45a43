// The official SDK v1 (@modelcontextprotocol/sdk) over Streamable HTTP, stateful, wired as
// its documentation shows: a session map, a new McpServer + StreamableHTTPServerTransport
// per initialize, and handleRequest(req, res, parsedBody). Plain node:http reads and
// parses the body instead of express.json(), which only spares the SDK express's cost.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { readBody, ready } from './http-common.mjs';

function makeServer() {
  const server = new McpServer({ name: 'sdk-v1-echo', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
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
        const t = new StreamableHTTPServerTransport({
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
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

ready({ json: await listen(true), sse: await listen(false) });
