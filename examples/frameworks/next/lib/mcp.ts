/**
 * The MCP server of this Next.js app and its route handlers, shared by the routes: one
 * module, so /mcp, /sse and /messages see the same sessions.
 */
import { McpServer } from 'mcpkit';
import { mcpNext } from 'mcpkit/next';

const server = new McpServer({ name: 'next-echo', version: '1.0.0' });
server.tool(
  {
    name: 'echo',
    description: 'Says the text back',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  (args) => String((args as { text: string }).text),
);

// Loopback Host names by default (`next start`, `next dev`); a deployment names its own,
// e.g. MCP_ALLOWED_HOSTS=my-app.vercel.app.
const deployed = process.env.MCP_ALLOWED_HOSTS?.split(',');
export const mcp = mcpNext(server, deployed ? { allowedHosts: deployed } : {});
