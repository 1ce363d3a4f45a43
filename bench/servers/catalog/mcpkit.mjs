// mcpkit with the generated catalog (bench/catalog.mjs). MCPKIT_DIST points at another build
// (A/B runs); MCPKIT_PAGE_SIZE sets the page size (bench/catalog.mjs --page-sizes).
import { catalogTool, toolCount } from '../../lib/catalog-tools.mjs';

const dist = process.env.MCPKIT_DIST ?? new URL('../../../dist', import.meta.url).href;
const { McpServer } = await import(`${dist}/index.js`);
const { StdioServerTransport } = await import(`${dist}/transports/stdio/index.js`);

const server = new McpServer(
  { name: 'catalog-mcpkit', version: '1.0.0' },
  {
    logger: false,
    ...(process.env.MCPKIT_PAGE_SIZE ? { pageSize: Number(process.env.MCPKIT_PAGE_SIZE) } : {}),
  },
);
for (let i = 0; i < toolCount(); i++) {
  const { name, description, input } = catalogTool(i);
  server.tool({ name, description, input }, () => ({ content: [{ type: 'text', text: name }] }));
}
await server.connect(new StdioServerTransport());
