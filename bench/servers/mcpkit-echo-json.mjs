// mcpkit with the echo tool declared in raw JSON Schema: no schema library to load.
import { McpServer } from '../../dist/server/index.js';
import { StdioServerTransport } from '../../dist/transports/stdio/index.js';

const server = new McpServer({ name: 'mcpkit-echo', version: '1.0.0' });
server.tool(
  {
    name: 'echo',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
);
await server.connect(new StdioServerTransport());
