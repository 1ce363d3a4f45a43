// The official SDK v1 with the generated catalog (bench/catalog.mjs).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { catalogTool, toolCount } from '../../lib/catalog-tools.mjs';

const server = new McpServer({ name: 'catalog-sdk-v1', version: '1.0.0' });
for (let i = 0; i < toolCount(); i++) {
  const { name, description, input } = catalogTool(i);
  server.registerTool(name, { description, inputSchema: input.shape }, async () => ({
    content: [{ type: 'text', text: name }],
  }));
}
await server.connect(new StdioServerTransport());
