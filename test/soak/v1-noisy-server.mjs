// The official SDK v1 stdio server with the same `noisy` tool as mcpkit's hardening fixture:
// it writes to stdout every way a handler might. Used by stdout-noise.mjs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'v1-noisy', version: '1.0.0' });
server.registerTool('noisy', { description: 'Writes to stdout every way it can' }, async () => {
  console.log('noise: console.log');
  console.info('noise: console.info');
  console.debug('noise: console.debug');
  console.dir({ noise: 'console.dir' });
  console.table([{ noise: 'console.table' }]);
  process.stdout.write('noise: process.stdout.write\n');
  return { content: [{ type: 'text', text: 'quiet' }] };
});
await server.connect(new StdioServerTransport());
