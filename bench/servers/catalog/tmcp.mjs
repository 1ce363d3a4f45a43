// tmcp (with its zod adapter and stdio transport) with the generated catalog (bench/catalog.mjs).
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { StdioTransport } from '@tmcp/transport-stdio';
import { McpServer } from 'tmcp';
import { catalogTool, toolCount } from '../../lib/catalog-tools.mjs';

const server = new McpServer(
  { name: 'catalog-tmcp', version: '1.0.0', description: 'catalog' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
for (let i = 0; i < toolCount(); i++) {
  const { name, description, input } = catalogTool(i);
  server.tool({ name, description, schema: input }, async () => ({
    content: [{ type: 'text', text: name }],
  }));
}
new StdioTransport(server).listen();
