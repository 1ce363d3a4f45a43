// mcpkit with the same one-line echo tool.
import { McpServer } from '../../dist/index.js';
import { StdioServerTransport } from '../../dist/transports/stdio/index.js';
import { z } from 'zod';

const server = new McpServer({ name: 'mcpkit-echo', version: '1.0.0' });
server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
