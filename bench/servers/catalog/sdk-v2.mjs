// The official SDK v2 (@modelcontextprotocol/server 2.x) with the generated catalog (bench/catalog.mjs).
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { catalogTool, toolCount } from '../../lib/catalog-tools.mjs';

const server = new McpServer({ name: 'catalog-sdk-v2', version: '1.0.0' });
for (let i = 0; i < toolCount(); i++) {
  const { name, description, input } = catalogTool(i);
  server.registerTool(name, { description, inputSchema: input }, async () => ({
    content: [{ type: 'text', text: name }],
  }));
}
await server.connect(new StdioServerTransport());
