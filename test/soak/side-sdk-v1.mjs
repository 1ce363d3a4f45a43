// The official SDK v1's side of versus-sdk-load.mjs, wired as its documentation shows (the
// session map of bench/servers/http-common.mjs: a new McpServer and
// StreamableHTTPServerTransport per initialize), with the same three tools and resource as
// side-mcpkit.mjs. The notification source sends `notifications/resources/updated` from
// every live session's server, which v1 writes to that session's standalone GET stream.
// argv[2] is JSON: `{ "json": true }` answers POSTs with JSON instead of SSE.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listenWithSessions } from '../../bench/servers/http-common.mjs';
import { pause, ready, tools } from './side-common.mjs';

const WATCHED = 'test://watched';
const live = new Set();

function makeServer() {
  const server = new McpServer({ name: 'side-sdk-v1', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('slow', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    tools.running++;
    try {
      const progressToken = extra._meta?.progressToken;
      for (let t = 0, i = 0; t < ms && !extra.signal.aborted; t += 100) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: ++i },
          });
        }
        await pause(100, extra.signal);
      }
      return { content: [{ type: 'text', text: 'done' }] };
    } finally {
      tools.running--;
    }
  });
  server.registerTool('held', { inputSchema: {} }, async (_args, extra) => {
    tools.running++;
    try {
      await tools.hold(extra.signal);
      return { content: [{ type: 'text', text: 'released' }] };
    } finally {
      tools.running--;
    }
  });
  server.registerResource('watched', WATCHED, {}, async (uri) => ({
    contents: [{ uri: uri.href, text: 'watched' }],
  }));
  live.add(server);
  server.server.onclose = () => live.delete(server);
  return server;
}

const sdk = {
  isInitializeRequest,
  makeServer,
  serverTransport: (options) => new StreamableHTTPServerTransport(options),
  handle: (transport, req, res, body) => transport.handleRequest(req, res, body),
};
const options = JSON.parse(process.argv[2] ?? '{}');
const port = await listenWithSessions(sdk, options.json === true);
ready(port, {
  publish: () => {
    for (const s of live) if (s.isConnected()) void s.server.sendResourceUpdated({ uri: WATCHED });
  },
  sessions: () => live.size,
});
