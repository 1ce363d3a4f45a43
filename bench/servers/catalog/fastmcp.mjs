// fastmcp with the generated catalog (bench/catalog.mjs).
import { FastMCP } from 'fastmcp';
import { catalogTool, toolCount } from '../../lib/catalog-tools.mjs';

const server = new FastMCP({ name: 'catalog-fastmcp', version: '1.0.0' });
for (let i = 0; i < toolCount(); i++) {
  const { name, description, input } = catalogTool(i);
  server.addTool({ name, description, parameters: input, execute: async () => name });
}
await server.start({ transportType: 'stdio' });
